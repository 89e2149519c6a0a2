import { Box, Text } from 'ink';

export type Hint = [key: string, action: string];

/** Key hints for what the operator can do right now: always one line (cut at the end rather than wrapped). */
export function Footer({ hints, message }: { hints: Hint[]; message?: string | undefined }) {
  return (
    <Box paddingX={1} justifyContent="space-between" height={1} flexShrink={0}>
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          {hints.map(([k, a], i) => (
            <Text key={`${k}${i}`}>
              {i > 0 ? '  ' : ''}
              <Text bold>{k}</Text> <Text dimColor>{a}</Text>
            </Text>
          ))}
        </Text>
      </Box>
      {message ? (
        <Box flexShrink={0} marginLeft={2}>
          <Text dimColor wrap="truncate-end">
            {message}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
