import { Box, Text } from 'ink';
import type { RepaveLive, RepaveOutput } from '../steps/hop/repave.js';
import { drainItems } from '../domain/repave/repave-impact.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { Para } from './Para.js';

/** Whether Palette asked to rebuild nodes, and if so: why, which nodes in which order, and what each VM goes through. */
export function RepaveScreen({ step, height }: StepScreenProps) {
  const live = step.live as RepaveLive | undefined;
  const out = step.output as RepaveOutput | undefined;
  const approval = out?.approval;
  const room = Math.max(3, height - 8);
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      {step.skipReason ? <Para dimColor>Skipped: {step.skipReason}</Para> : null}
      {live?.headline && !out && !step.skipReason ? <Text>{live.headline}</Text> : null}
      {out?.rehearsal ? <Para dimColor>Rehearsal: {out.rehearsal}</Para> : null}
      {approval ? (
        <Box flexDirection="column">
          <Para>
            Node rebuild {approval.outcome === 'settled' ? 'approved before the interruption' : approval.outcome === 'rehearsal' ? 'would be approved' : 'approved'}
            {approval.reasons.length ? `: ${approval.reasons.join('; ')}` : ''}
          </Para>
          <Text dimColor>
            {approval.nodes.length} node(s), one at a time · {approval.migrate} VM(s) live-migrate · {approval.restart} restart
          </Text>
          {drainItems(approval.nodes)
            .slice(0, room)
            .map((line) => (
              <Para key={line}>
                {'  '}
                {line}
              </Para>
            ))}
        </Box>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
