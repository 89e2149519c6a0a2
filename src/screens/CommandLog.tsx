import { Box, Text } from 'ink';
import type { LogLine } from '../engine/state.js';
import { sanitizeText } from '../text/sanitize.js';
import { wallTime } from '../text/time.js';

/** The last actions and warnings, one line each, at wall-clock time. */
export function CommandLog({ lines, rows }: { lines: LogLine[]; rows: number }) {
  const shown = lines.slice(-rows);
  return (
    <Box flexDirection="column" paddingX={1} height={rows} flexShrink={0}>
      {shown.map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {wallTime(l.at)} {l.level === 'action' ? '→' : l.level === 'warn' ? '⚠' : '✖'} {sanitizeText(l.message, { max: 400 })}
        </Text>
      ))}
    </Box>
  );
}
