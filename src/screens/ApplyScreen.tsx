import { Box, Text } from 'ink';
import type { ApplyLive, ApplyOutput } from '../steps/hop/apply.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

const confirmedText: Record<ApplyOutput['confirmed'], string> = {
  attached: 'Read back: the cluster shows the new versions attached. The rollout follows.',
  already: 'The cluster already ran these versions: nothing was sent.',
  rehearsal: 'Rehearsal: the apply was recorded, not sent.',
};

/** Which versions replace which on the cluster (the way back is the left-hand one), and whether it took. */
export function ApplyScreen({ step }: StepScreenProps) {
  const live = step.live as ApplyLive | undefined;
  const out = step.output as ApplyOutput | undefined;
  const replaced = out?.replaced ?? live?.replaced ?? [];
  const ok = colour('pass');
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      {step.skipReason ? <Para dimColor>Skipped: {step.skipReason}</Para> : null}
      {live?.headline && !out ? <Text>{live.headline}</Text> : null}
      {replaced.map((r) => (
        <Text key={r.role}>
          {'  '}
          {r.name.padEnd(24)} {r.from.version} <Text dimColor>({r.from.uid})</Text> → <Text bold>{r.to.version}</Text> <Text dimColor>({r.to.uid})</Text>
        </Text>
      ))}
      {out ? <Text {...(out.confirmed === 'attached' && ok ? { color: ok } : {})}>{out.confirmed === 'attached' ? '✔ ' : ''}{confirmedText[out.confirmed]}</Text> : null}
      {out && out.how === 'replace' && out.confirmed !== 'rehearsal' ? (
        <Para dimColor>The way back: the versions on the left still exist; applying one again (replaceWithProfile = the new one) re-attaches it.</Para>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
