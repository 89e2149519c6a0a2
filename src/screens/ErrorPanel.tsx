import { Box, Text } from 'ink';
import type { ErrorInfo } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { colour } from './theme.js';

/**
 * What happened, where, and what to do next. One component for every error on screen. A stop the
 * operator chose (an abort at a gate) is amber: nothing went wrong.
 */
export function ErrorPanel({ error, title = 'Error' }: { error: ErrorInfo; title?: string }) {
  const stop = error.kind === 'interrupted';
  const tone = colour(stop ? 'warn' : 'fail');
  return (
    <Box flexDirection="column" borderStyle="round" {...(tone ? { borderColor: tone } : {})} paddingX={1}>
      <Text bold {...(tone ? { color: tone } : {})}>
        {stop ? '⏸' : '✖'} {title.toUpperCase()}
      </Text>
      <Text wrap="wrap">{sanitizeText(error.message)}</Text>
      {error.where ? <Text dimColor wrap="wrap">at {sanitizeText(error.where, { max: 300 })}</Text> : null}
      {error.hint ? (
        <Text wrap="wrap">
          <Text bold>What to do: </Text>
          {sanitizeText(error.hint, { multiline: true })}
        </Text>
      ) : null}
    </Box>
  );
}
