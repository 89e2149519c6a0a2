import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { stringify } from 'yaml';
import { isStop } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { ErrorPanel } from './ErrorPanel.js';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { useScroll } from './keys/use-scroll.js';
import type { LiveHeadline, StepScreenProps } from './step-screen.js';
import { colour, stepDisplay, stepIcon } from './theme.js';
import { Para } from './Para.js';

/** The screen of a step kind without a screen of its own: status, live headline, output (scrolled and searched), error. */
export function GenericStep({ step, state, height, isActive }: StepScreenProps) {
  const s = stepIcon[stepDisplay(step, state.run.status)];
  const c = colour(s.tone);
  const live = (step.live ?? {}) as LiveHeadline;
  const output = useMemo(() => (step.output === undefined ? [] : stringify(step.output, { lineWidth: 0 }).trimEnd().split('\n')), [step.output]);
  const room = Math.max(3, height - 8 - (live.lines?.length ?? 0));
  const scroll = useScroll({ total: output.length, page: room, textAt: (i) => output[i] ?? '' });
  useScreenKeys((input, key) => void scroll.handle(keyPress(input, key)), { isActive: isActive && output.length > room, capture: scroll.typing });
  const offset = scroll.state.offset;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text>{' '}
        <Text {...(c ? { color: c } : {})}>
          {s.icon} {s.label}
        </Text>
      </Text>
      {step.summary ? <Para>{sanitizeText(step.summary)}</Para> : null}
      {step.skipReason ? <Para dimColor>Skipped: {sanitizeText(step.skipReason)}</Para> : null}
      {live.headline ? <Para>{sanitizeText(live.headline)}</Para> : null}
      {(live.lines ?? []).map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {sanitizeText(l, { max: 500 })}
        </Text>
      ))}
      {step.drift && !step.drift.ok ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Changed since this step ran:</Text>
          {step.drift.findings.map((f, i) => (
            <Text key={i}>  • {sanitizeText(f)}</Text>
          ))}
        </Box>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} title={isStop(step.error) ? 'Stopped' : 'Step failed'} /> : null}
      {output.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {output.slice(offset, offset + room).map((l, i) => (
            <Text key={offset + i} dimColor={offset + i !== scroll.state.search?.hit} inverse={offset + i === scroll.state.search?.hit} wrap="truncate-end">
              {sanitizeText(l, { max: 500 })}
            </Text>
          ))}
          {scroll.line ? <Text>{scroll.line}</Text> : output.length > room ? <Text dimColor>{`lines ${offset + 1}-${Math.min(output.length, offset + room)} of ${output.length}${isActive ? ' · ↑↓ PgUp PgDn g G scroll · / search' : ''}`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
