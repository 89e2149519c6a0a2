import { Box, Text } from 'ink';
import { useState } from 'react';
import type { CheckResult } from '../domain/checks/types.js';
import { OFFER_RESTARTS, type VerifyLive, type VerifyOutput } from '../steps/verify/verify.js';
import type { RecoverLive } from '../steps/migrations/recover-types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { vmStateLabel } from './RecoverScreen.js';
import { useScreenKeys } from './keys/key-router.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, toneLabel } from './theme.js';
import { Para } from './Para.js';
import { fitMiddle } from './fit-text.js';
import { formatDuration } from '../text/duration.js';

const fit = fitMiddle;

/** One check as a one-line tile: status in words and colour, title, time. */
function Tile({ check, width, focused }: { check: CheckResult; width: number; focused: boolean }) {
  const c = colour(check.status);
  const time = formatDuration(check.durationMs);
  // The spec's section numbers stay in the report; the operator reads what was checked.
  const title = check.title;
  return (
    <Text {...(focused ? { inverse: true } : {})}>
      {focused ? '❯' : ' '}
      <Text bold {...(c ? { color: c } : {})}>
        {toneLabel[check.status].padEnd(8)}
      </Text>
      {fit(title, Math.max(8, width - 18))} <Text dimColor>{time.padStart(6)}</Text>
    </Text>
  );
}

/** The restarts offered again: one line per VM with its state in words. */
function RestartRows({ live, width }: { live: RecoverLive; width: number }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold wrap="truncate-end">
        Restarts offered again: <Text dimColor>{live.headline}</Text>
      </Text>
      {live.vms.slice(0, 8).map((r) => {
        const label = vmStateLabel[r.state];
        const c = colour(label.tone);
        return (
          <Text key={r.vm} wrap="truncate-end">
            {'  '}
            {r.vm.padEnd(Math.min(40, Math.max(12, width - 30)))} <Text {...(c ? { color: c } : {})}>{label.text}</Text>
            {r.note ? <Text dimColor> {r.note}</Text> : null}
          </Text>
        );
      })}
      {live.vms.length > 8 ? <Text dimColor>{`  … and ${live.vms.length - 8} more`}</Text> : null}
    </Box>
  );
}

/**
 * Verification as a grid of check tiles (two columns when there is room) and, below, the panel of
 * the focused check: its summary, and on Enter its evidence and remediation. r re-runs, f finishes.
 */
export function VerifyScreen({ step, isActive, width, height, gate, decide }: StepScreenProps) {
  const live = step.live as VerifyLive | undefined;
  const output = step.output as VerifyOutput | undefined;
  const results: CheckResult[] = live?.results ?? output?.results ?? [];
  // The first panel that is not green has the focus until the operator moves it.
  const [moved, setMoved] = useState<number | undefined>(undefined);
  const firstRed = Math.max(0, results.findIndex((r) => r.status !== 'pass'));
  const focus = moved ?? firstRed;
  const setFocus = (f: (n: number) => number) => setMoved((m) => f(m ?? firstRed));
  const outstanding = live?.outstanding ?? [];
  const restarts = live?.restarts;
  const [expanded, setExpanded] = useState(false);
  const columns = width >= 110 ? 2 : 1;

  useScreenKeys(
    (input, key) => {
      const move = (d: number) => setFocus((f) => Math.min(results.length - 1, Math.max(0, f + d)));
      if (key.rightArrow) move(1);
      else if (key.leftArrow) move(-1);
      else if (key.downArrow || input === 'j') move(columns);
      else if (key.upArrow || input === 'k') move(-columns);
      else if (key.return) setExpanded((e) => !e);
      else if (gate && decide && input === 'r') decide('approve', undefined, 'r');
      else if (gate && decide && input === 'o' && outstanding.length) decide('approve', { action: OFFER_RESTARTS }, 'o');
      else if (gate && decide && input === 'f') decide('skip', undefined, 'f');
      else if (gate && decide && key.escape) decide('skip', undefined, 'Esc');
    },
    { isActive },
  );

  const tileWidth = Math.floor((width - (columns - 1) * 2) / columns);
  const rows: CheckResult[][] = [];
  for (let i = 0; i < results.length; i += columns) rows.push(results.slice(i, i + columns));
  const focused = results[Math.min(focus, results.length - 1)];
  const detailRoom = Math.max(3, height - rows.length - 8);
  const lines = focused ? [...focused.evidence.map((e) => `  • ${e}`), ...(focused.remediation ? [`What to do: ${focused.remediation}`] : [])] : [];
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text> <Text dimColor>{live?.running ? `· running the checks (round ${live.round})…` : (live?.headline ?? step.summary ?? '')}</Text>
      </Text>
      {output?.rehearsal ? <Text dimColor>Rehearsal: today’s health, not the target versions.</Text> : null}
      <Box flexDirection="column" marginY={1}>
        {rows.map((row, r) => (
          <Box key={r} gap={2}>
            {row.map((c, i) => (
              <Tile key={c.id} check={c} width={tileWidth} focused={isActive && r * columns + i === focus} />
            ))}
          </Box>
        ))}
      </Box>
      {focused ? (
        <StatusPanel
          status={focused.status}
          title={focused.title}
          summary={focused.summary}
          note={formatDuration(focused.durationMs)}
          expanded={expanded}
          lines={lines.length > detailRoom ? [...lines.slice(0, detailRoom - 1), `  … ${lines.length - detailRoom + 1} more (see the report)`] : lines}
        />
      ) : null}
      {focused && !expanded && lines.length ? <Text dimColor>Enter: show the evidence ({focused.evidence.length}) and what to do</Text> : null}
      {outstanding.length && gate ? (
        <Para {...(colour('warn') ? { color: colour('warn')! } : {})}>
          <Text bold>o</Text>: offer the restart of the {outstanding.length} VM(s) still on the old launcher again ({outstanding.slice(0, 3).join(', ')}
          {outstanding.length > 3 ? ', …' : ''}), each behind its own gate.
        </Para>
      ) : null}
      {restarts ? <RestartRows live={restarts} width={width} /> : null}
      {step.error && !gate ? <ErrorPanel error={step.error} title="Verification failed" /> : null}
    </Box>
  );
}
