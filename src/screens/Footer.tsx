import { Box, Text } from 'ink';

export type Hint = [key: string, action: string];

/** Key hints for what the operator can do right now. */
export function Footer({ hints, message }: { hints: Hint[]; message?: string | undefined }) {
  return (
    <Box paddingX={1} justifyContent="space-between">
      <Text>
        {hints.map(([k, a], i) => (
          <Text key={k}>
            {i > 0 ? '  ' : ''}
            <Text bold>{k}</Text> <Text dimColor>{a}</Text>
          </Text>
        ))}
      </Text>
      {message ? <Text dimColor>{message}</Text> : null}
    </Box>
  );
}
