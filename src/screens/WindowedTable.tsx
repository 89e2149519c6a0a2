import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { maxOffset } from './keys/scroll-model.js';
import { useScroll } from './keys/use-scroll.js';
import { sanitizeText } from '../text/sanitize.js';
import { fitMiddle, shortenMiddle } from './fit-text.js';

export interface Column<R> {
  title: string;
  /** Cell text for a row. */
  value: (row: R) => string;
  width?: number;
  align?: 'left' | 'right';
  /** Names are shortened in the middle (both ends kept); a sentence (a reason) is cut at its end. */
  cut?: 'middle' | 'end';
  /** Colour for a cell, e.g. by phase. */
  colour?: (row: R) => string | undefined;
}

export interface WindowedTableProps<R> {
  columns: Column<R>[];
  rows: readonly R[];
  /** Visible rows. Only these are rendered, so 5,000 rows cost what 20 do. */
  height: number;
  /** ↑↓ j/k, PgUp/PgDn, g/G (Home/End) scroll and `/` searches when active. */
  isActive?: boolean;
  rowKey: (row: R, index: number) => string;
  emptyText?: string;
  /** Follow new rows at the bottom unless the operator scrolled up. */
  follow?: boolean;
}

/** A cell: shortened in the middle (a name keeps both ends), padded to its column. */
const fit = (text: string, width: number, align: 'left' | 'right' = 'left', cut: 'middle' | 'end' = 'middle'): string => {
  if (cut === 'end' && text.length > width) return `${text.slice(0, Math.max(0, width - 1))}…`;
  return align === 'right' ? shortenMiddle(text, width).padStart(width) : fitMiddle(text, width);
};

export function WindowedTable<R>({ columns, rows, height, isActive = false, rowKey, emptyText = 'Nothing to show.', follow = false }: WindowedTableProps<R>) {
  // `height` rows of data; the header and the scroll line come on top of them.
  const page = Math.max(1, height);
  const scroll = useScroll({ total: rows.length, page, textAt: (i) => columns.map((c) => c.value(rows[i]!)).join(' ') });
  const bottom = maxOffset({ total: rows.length, page });
  useEffect(() => {
    if (follow && !scroll.state.search) scroll.handle({ name: 'end' });
    // Only a change in the rows moves a following table.
  }, [follow, bottom]);

  useScreenKeys((input, key) => void scroll.handle(keyPress(input, key)), { isActive: isActive && rows.length > 0, capture: scroll.typing });

  if (rows.length === 0) return <Text dimColor>{emptyText}</Text>;
  const offset = scroll.state.offset;
  const hit = scroll.state.search?.hit;
  const visible = rows.slice(offset, offset + page);
  // Widths come from the header and the visible window only: never a scan of every row.
  const widths = columns.map((c) => c.width ?? Math.min(40, Math.max(c.title.length, ...visible.map((r) => c.value(r).length))));
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {columns.map((c, i) => fit(c.title, widths[i]!, c.align)).join('  ')}
      </Text>
      {visible.map((row, i) => (
        <Text key={rowKey(row, offset + i)} wrap="truncate-end" inverse={offset + i === hit}>
          {columns.map((c, j) => {
            const colour = c.colour?.(row);
            return (
              <Text key={j} {...(colour ? { color: colour } : {})}>
                {fit(sanitizeText(c.value(row), { max: 300 }), widths[j]!, c.align, c.cut)}
                {j < columns.length - 1 ? '  ' : ''}
              </Text>
            );
          })}
        </Text>
      ))}
      {scroll.line ? (
        <Text wrap="truncate-end">{scroll.line}</Text>
      ) : rows.length > page ? (
        <Text dimColor wrap="truncate-end">
          rows {offset + 1}-{Math.min(rows.length, offset + page)} of {rows.length}
          {isActive ? '  ↑↓ PgUp PgDn g G scroll · / search' : ''}
        </Text>
      ) : null}
    </Box>
  );
}
