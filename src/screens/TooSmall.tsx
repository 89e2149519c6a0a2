import { Box } from 'ink';
import { colour } from './theme.js';
import { Para } from './Para.js';

/** Replaces the whole screen while the terminal cannot show a gate's options: nothing takes a key but Ctrl+C. */
export function TooSmall({ columns, rows, need }: { columns: number; rows: number; need: { columns: number; rows: number } }) {
  const amber = colour('warn');
  return (
    <Box flexDirection="column" paddingX={1}>
      <Para bold {...(amber ? { color: amber } : {})}>
        terminal too small (needs {need.columns}×{need.rows})
      </Para>
      <Para>
        This one is {columns}×{rows}. Enlarge the window to go on; until then no gate takes a key. Ctrl+C stops (the session is saved).
      </Para>
    </Box>
  );
}
