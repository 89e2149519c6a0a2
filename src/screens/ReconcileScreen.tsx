import { Box, Text } from 'ink';
import { sanitizeText } from '../text/sanitize.js';
import { clockDuration } from '../text/time.js';
import type { ReconcileLive, ReconcileOutput, RowState } from '../steps/hop/reconcile.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour } from './theme.js';

const stateLabel: Record<RowState, { text: string; tone: 'pass' | 'warn' | 'fail' }> = {
  matches: { text: 'MATCHES', tone: 'pass' },
  waiting: { text: 'WAITING', tone: 'warn' },
  'not-published': { text: 'NOT PUBLISHED', tone: 'fail' },
};

/** The live reconcile panel: what matches, what does not yet, elapsed time, the next poll. */
export function ReconcileScreen({ step, labTime = false }: StepScreenProps) {
  const live = step.live as ReconcileLive | undefined;
  const out = step.output as ReconcileOutput | undefined;
  const rows = live?.rows ?? out?.rows ?? [];
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      {live ? <Text>{live.headline}</Text> : step.summary ? <Text>{step.summary}</Text> : null}
      {out?.rehearsal ? (
        <Box flexDirection="column">
          <Text dimColor>Rehearsal: nothing was published, so nothing to wait for. It would wait until the cluster reports:</Text>
          {out.rehearsal.wouldWaitFor.map((w, i) => (
            <Text key={i}>  • {w}</Text>
          ))}
        </Box>
      ) : null}
      {rows.map((r) => {
        const s = stateLabel[r.state];
        const c = colour(s.tone);
        return (
          <Box key={r.profile} flexDirection="column" marginTop={1}>
            <Text>
              <Text bold {...(c ? { color: c } : {})}>
                {s.text.padEnd(14)}
              </Text>
              <Text bold>{r.profile}</Text> <Text dimColor>deployed {r.deployed} · expected {r.expected}</Text>
            </Text>
            <Box flexDirection="column" paddingLeft={4}>
              {r.differences.map((d, i) => (
                <Text key={i} dimColor wrap="wrap">
                  • {sanitizeText(d, { max: 500 })}
                </Text>
              ))}
            </Box>
          </Box>
        );
      })}
      {live && !out ? (
        <Text dimColor>
          elapsed {clockDuration(live.elapsedMs, labTime)} · poll {live.polls} · next poll in {clockDuration(live.nextPollInMs, labTime)}
        </Text>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
