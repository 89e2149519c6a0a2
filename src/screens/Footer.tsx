import { Box, Text } from 'ink';

export type Hint = [key: string, action: string];

const lineLength = (hints: Hint[]) => hints.reduce((n, [k, a], i) => n + (i > 0 ? 2 : 0) + k.length + (a ? 1 + a.length : 0), 0);

/**
 * The key hints in `width` columns. Every key stays on the line; the longest descriptions give
 * way first, down to their first word, then to none (the key alone, which help explains).
 */
export function fitHints(hints: Hint[], width: number): Hint[] {
  const out: Hint[] = hints.map(([k, a]) => [k, a]);
  while (lineLength(out) > width) {
    const longest = out.reduce((best, h, i) => (h[1].includes(' ') && (best < 0 || h[1].length > out[best]![1].length) ? i : best), -1);
    if (longest >= 0) {
      out[longest] = [out[longest]![0], out[longest]![1].split(' ')[0]!];
      continue;
    }
    const worded = out.reduce((best, h, i) => (h[1] && (best < 0 || h[1].length > out[best]![1].length) ? i : best), -1);
    if (worded < 0) break;
    out[worded] = [out[worded]![0], ''];
  }
  return out;
}

/** Key hints for what the operator can do right now: always one line, every key on it. */
export function Footer({ hints, message, columns }: { hints: Hint[]; message?: string | undefined; columns?: number }) {
  const room = columns === undefined ? undefined : Math.max(10, columns - 3 - (message ? Math.min(message.length, Math.floor(columns / 3)) + 2 : 0));
  const shown = room === undefined ? hints : fitHints(hints, room);
  return (
    <Box paddingX={1} justifyContent="space-between" height={1} flexShrink={0}>
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          {shown.map(([k, a], i) => (
            <Text key={`${k}${i}`}>
              {i > 0 ? '  ' : ''}
              <Text bold>{k}</Text>
              {a ? <Text dimColor>{` ${a}`}</Text> : null}
            </Text>
          ))}
        </Text>
      </Box>
      {message ? (
        <Box flexShrink={1} marginLeft={2}>
          <Text dimColor wrap="truncate-end">
            {message}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
