import { Box, Text } from 'ink';
import type { ErrorInfo } from '../errors.js';
import { colour } from './theme.js';

/** What happened, where, and what to do next. One component for every error on screen. */
export function ErrorPanel({ error, title = 'Error' }: { error: ErrorInfo; title?: string }) {
  const red = colour('fail');
  return (
    <Box flexDirection="column" borderStyle="round" {...(red ? { borderColor: red } : {})} paddingX={1}>
      <Text bold {...(red ? { color: red } : {})}>
        ✖ {title.toUpperCase()} <Text dimColor>({error.code})</Text>
      </Text>
      <Text wrap="wrap">{error.message}</Text>
      {error.where ? <Text dimColor>at {error.where}</Text> : null}
      {error.hint ? (
        <Text wrap="wrap">
          <Text bold>What to do: </Text>
          {error.hint}
        </Text>
      ) : null}
    </Box>
  );
}
