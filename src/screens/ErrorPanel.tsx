import { Box, Text } from 'ink';
import { isStop, type ErrorInfo } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

/**
 * What happened, where, and what to do next. One component for every error on screen. A stop the
 * operator chose (an abort at a gate) is amber: nothing went wrong.
 */
export function ErrorPanel({ error, title = 'Error' }: { error: ErrorInfo; title?: string }) {
  const stop = isStop(error);
  const tone = colour(stop ? 'warn' : 'fail');
  return (
    <Box flexDirection="column" borderStyle="round" {...(tone ? { borderColor: tone } : {})} paddingX={1}>
      <Text bold {...(tone ? { color: tone } : {})}>
        {stop ? '⏸' : '✖'} {title.toUpperCase()}
      </Text>
      <Para>{sanitizeText(error.message)}</Para>
      {error.where ? <Para dimColor>at {sanitizeText(error.where, { max: 300 })}</Para> : null}
      {error.hint
        ? sanitizeText(error.hint, { multiline: true })
            .split('\n')
            .map((line, i) =>
              i === 0 ? (
                <Para key={i}>
                  <Text bold>What to do: </Text>
                  {line}
                </Para>
              ) : (
                // A line of its own (a command to paste, an indented step): its indent kept.
                <Box key={i} paddingLeft={line.length - line.trimStart().length}>
                  <Para>{line.trimStart()}</Para>
                </Box>
              ),
            )
        : null}
    </Box>
  );
}
