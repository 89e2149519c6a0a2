import { Box, Text } from 'ink';
import { sanitizeText } from '../text/sanitize.js';
import { clockDuration } from '../text/time.js';
import type { ReconcileLive, ReconcileOutput, RowState } from '../steps/hop/reconcile.js';
import { ClusterStatusPanel } from './ClusterStatusPanel.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

const stateLabel: Record<RowState, { text: string; tone: 'pass' | 'warn' | 'fail' }> = {
  matches: { text: 'MATCHES', tone: 'pass' },
  waiting: { text: 'WAITING', tone: 'warn' },
  'not-published': { text: 'NOT PUBLISHED', tone: 'fail' },
  'not-attached': { text: 'NOT ATTACHED', tone: 'fail' },
  error: { text: 'ERROR', tone: 'fail' },
};

/** The live reconcile panel: what matches, what does not yet, elapsed time, the next poll; on Palette the cluster object too. */
export function ReconcileScreen({ step, height, labTime = false }: StepScreenProps) {
  const live = step.live as ReconcileLive | undefined;
  const out = step.output as ReconcileOutput | undefined;
  const rows = live?.rows ?? out?.rows ?? [];
  const cluster = live?.cluster ?? out?.cluster;
  // Lines above the events: the title and headline, the rows, the panel's own lines (border, header, ready, conditions, title).
  const used = 3 + rows.reduce((n, r) => n + 1 + r.differences.length, 0) + 8;
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
          <Box key={r.profile} flexDirection="column" marginTop={cluster ? 0 : 1}>
            <Text wrap={cluster ? 'truncate-end' : 'wrap'}>
              <Text bold {...(c ? { color: c } : {})}>
                {s.text.padEnd(14)}
              </Text>
              <Text bold>{r.profile}</Text> <Text dimColor>deployed {r.deployed} · expected {r.expected}</Text>
            </Text>
            <Box flexDirection="column" paddingLeft={4}>
              {r.differences.map((d, i) => (
                <Para key={i} dimColor>
                  • {sanitizeText(d, { max: 500 })}
                </Para>
              ))}
            </Box>
          </Box>
        );
      })}
      {cluster ? <ClusterStatusPanel panel={cluster} room={Math.max(3, height - used)} /> : null}
      {live && !out ? (
        <Text dimColor>
          elapsed {clockDuration(live.elapsedMs, labTime)} · poll {live.polls} · next poll in {clockDuration(live.nextPollInMs, labTime)}
        </Text>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
