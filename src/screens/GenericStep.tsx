import { Box, Text } from 'ink';
import { stringify } from 'yaml';
import { ErrorPanel } from './ErrorPanel.js';
import type { LiveHeadline, StepScreenProps } from './step-screen.js';
import { colour, stepDisplay, stepIcon } from './theme.js';

/** The screen of a step kind without a screen of its own: status, live headline, output, error. */
export function GenericStep({ step, state, height }: StepScreenProps) {
  const s = stepIcon[stepDisplay(step, state.run.status)];
  const c = colour(s.tone);
  const live = (step.live ?? {}) as LiveHeadline;
  const output = step.output === undefined ? [] : stringify(step.output, { lineWidth: 0 }).trimEnd().split('\n');
  const room = Math.max(3, height - 8);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text>{' '}
        <Text {...(c ? { color: c } : {})}>
          {s.icon} {s.label}
        </Text>
      </Text>
      {step.summary ? <Text wrap="wrap">{step.summary}</Text> : null}
      {step.skipReason ? <Text dimColor wrap="wrap">Skipped: {step.skipReason}</Text> : null}
      {live.headline ? <Text wrap="wrap">{live.headline}</Text> : null}
      {(live.lines ?? []).map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l}
        </Text>
      ))}
      {step.drift && !step.drift.ok ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Changed since this step ran:</Text>
          {step.drift.findings.map((f, i) => (
            <Text key={i}>  • {f}</Text>
          ))}
        </Box>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} title={step.error.kind === 'interrupted' ? 'Stopped' : 'Step failed'} /> : null}
      {output.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {output.slice(0, room).map((l, i) => (
            <Text key={i} dimColor wrap="truncate-end">
              {l}
            </Text>
          ))}
          {output.length > room ? <Text dimColor>… {output.length - room} more lines (see the report)</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
