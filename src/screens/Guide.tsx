import { Box, Text } from 'ink';
import type { GateRequest } from '../engine/gate.js';
import { steps, type SessionState } from '../engine/state.js';
import { sentence } from '../text/sentence.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

/** What ran while the guide was open (the read-only steps do not wait for it), and what waits now. */
export function guideProgress(state: SessionState, gate: GateRequest | undefined): string {
  const done = steps(state).filter((s) => s.status === 'succeeded' || s.status === 'skipped');
  const ran = done.map((s) => s.title).join(', ');
  const waits = gate ? ` ${sentence(`Waiting for you now: ${gate.title}`)}` : '';
  if (done.length === 0) return `The read-only steps run while you read this; nothing changes until you say yes at a gate.${waits}`;
  return `While you read this, these read-only steps ran: ${ran}. Nothing has been changed: the first change waits at its gate for your yes.${waits}`;
}

/**
 * The lab's first screen: one paragraph per line, wrapped by the terminal's width. How to leave it
 * and what has happened meanwhile come first, so a small terminal shows them without scrolling.
 */
export function Guide({ lines, state, gate }: { lines: string[]; state: SessionState; gate: GateRequest | undefined }) {
  const c = colour('info');
  const [title, ...rest] = lines;
  return (
    <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1} gap={1}>
      <Para>
        <Text bold>{title}</Text> <Text bold>Enter: close this guide and go on</Text> <Text dimColor>(↑↓ scroll it)</Text>
      </Para>
      <Para>{guideProgress(state, gate)}</Para>
      {rest.map((l, i) => (
        <Para key={i}>
          {l}
        </Para>
      ))}
    </Box>
  );
}
