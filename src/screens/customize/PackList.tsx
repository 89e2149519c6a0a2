import { Box, Text } from 'ink';
import { colour } from '../theme.js';
import { COUNT_SEPARATOR, rowMark, type CountPart, type PackRow } from './pack-rows.js';
import { packRowLines, ROW_LEAD, type PackTableLayout } from './pack-table.js';
import type { RowWindow } from './row-window.js';

function Counts({ parts }: { parts: CountPart[] }) {
  return (
    <>
      {parts.map((p, i) => {
        const tone = p.tone ? colour(p.tone) : undefined;
        return (
          <Text key={i} {...(tone ? { color: tone, bold: p.tone === 'fail' } : { dimColor: true })}>
            {i > 0 ? COUNT_SEPARATOR : ''}
            {p.text}
          </Text>
        );
      })}
    </>
  );
}

export interface PackListProps {
  rows: readonly PackRow[];
  layout: PackTableLayout;
  window: RowWindow;
  selected: number;
  /** The list has the focus (the selection is drawn inverse). */
  focused: boolean;
  /** Under the rows when not all of them are shown. */
  more?: string | undefined;
}

/** The pack rows in view: cursor, mark (`!` conflicts, `+` additions), hop, name, versions whole, counts whole. */
export function PackList({ rows, layout, window, selected, focused, more }: PackListProps) {
  const red = colour('fail');
  const amber = colour('warn');
  return (
    <Box flexDirection="column">
      {rows.slice(window.start, window.end).map((r, i) => {
        const at = window.start + i === selected;
        const lines = packRowLines(r, layout);
        const mark = rowMark(r.counts);
        const markTone = mark === '!' ? red : mark === '+' ? amber : undefined;
        const first = lines.counts[0];
        return (
          <Box key={`${r.hop}/${r.role}/${r.pack.name}`} flexDirection="column">
            <Text wrap="truncate-end" {...(at && focused ? { inverse: true } : {})}>
              {at ? '❯ ' : '  '}
              <Text bold={mark !== ' '} {...(markTone ? { color: markTone } : {})}>
                {mark}
              </Text>{' '}
              {lines.head}
              {layout.countsInline && first ? (
                <>
                  {'  '}
                  <Counts parts={first} />
                </>
              ) : null}
            </Text>
            {(layout.countsInline ? [] : lines.counts).map((parts, j) => (
              <Text key={j} wrap="truncate-end">
                {' '.repeat(ROW_LEAD)}
                <Counts parts={parts} />
              </Text>
            ))}
          </Box>
        );
      })}
      {more ? (
        <Text dimColor wrap="truncate-end">
          {more}
        </Text>
      ) : null}
    </Box>
  );
}
