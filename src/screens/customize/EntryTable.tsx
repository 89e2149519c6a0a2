import { Box, Text } from 'ink';
import type { CustomizeEntry } from '../../steps/customize/types.js';
import { colour, type Tone } from '../theme.js';
import { LABEL_WIDTH, NARROW, type EntryLines } from './entry-rows.js';
import type { RowWindow } from './row-window.js';

const labelTone: Record<string, Tone> = { carried: 'pass', candidate: 'pass', ruleFix: 'warn', newDefault: 'info', conflict: 'fail', ignored: 'muted' };

export interface EntryTableProps {
  entries: readonly CustomizeEntry[];
  /** Each entry's rows (after the cursor), from `entryLines`. */
  lines: readonly EntryLines[];
  width: number;
  window: RowWindow;
  /** Rows for the entries: a selected entry taller than this shows its first rows and says how to see it whole. */
  room: number;
  selected: number;
  /** The differences have the focus. */
  focused: boolean;
  isActive: boolean;
  /** The line under the rows: how many, where the selection is, or the search. */
  status: string;
}

/** The differences in view, each whole (wrapped); the label coloured by kind, the selected one inverse. */
export function EntryTable({ entries, lines, width, window, room, selected, focused, isActive, status }: EntryTableProps) {
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {'  '}
        {width >= NARROW ? `${'LABEL'.padEnd(LABEL_WIDTH)}PATH: DEPLOYED → DRAFT` : 'LABEL PATH: DEPLOYED → DRAFT'}
      </Text>
      {entries.length === 0 ? <Text dimColor>  No differences other than ignored ones (image tags and versions).</Text> : null}
      {entries.slice(window.start, window.end).map((e, i) => {
        const index = window.start + i;
        const at = index === selected && focused;
        const tone = colour(labelTone[e.label] ?? 'muted');
        const { label, rows } = lines[index] ?? { label: '', rows: [] };
        const clipped = window.clipped && index === selected;
        const shown = clipped ? rows.slice(0, Math.max(1, room - 1)) : rows;
        return (
          <Box key={`${index}/${e.path}`} flexDirection="column">
            {shown.map((row, j) => (
              <Text key={j} wrap="truncate-end" {...(at && isActive ? { inverse: true } : {})}>
                {j === 0 ? (at ? '❯ ' : '  ') : '  '}
                {j === 0 ? (
                  <>
                    <Text {...(tone ? { color: tone } : {})}>{label}</Text>
                    {row.slice(label.length)}
                  </>
                ) : (
                  row
                )}
              </Text>
            ))}
            {clipped ? <Text dimColor wrap="truncate-end">{`    … ${rows.length - shown.length} more rows: Enter shows it whole`}</Text> : null}
          </Box>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {status}
      </Text>
    </Box>
  );
}
