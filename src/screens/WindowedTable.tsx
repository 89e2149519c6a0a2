import { Box, Text, useInput } from 'ink';
import { useEffect, useState } from 'react';

export interface Column<R> {
  title: string;
  /** Cell text for a row. */
  value: (row: R) => string;
  width?: number;
  align?: 'left' | 'right';
  /** Colour for a cell, e.g. by phase. */
  colour?: (row: R) => string | undefined;
}

export interface WindowedTableProps<R> {
  columns: Column<R>[];
  rows: readonly R[];
  /** Visible rows. Only these are rendered, so 5,000 rows cost what 20 do. */
  height: number;
  /** Arrow keys, PgUp/PgDn, Home/End scroll when active. */
  isActive?: boolean;
  rowKey: (row: R, index: number) => string;
  emptyText?: string;
  /** Follow new rows at the bottom unless the operator scrolled up. */
  follow?: boolean;
}

const fit = (text: string, width: number, align: 'left' | 'right' = 'left'): string => {
  const t = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return align === 'right' ? t.padStart(width) : t.padEnd(width);
};

export function WindowedTable<R>({ columns, rows, height, isActive = false, rowKey, emptyText = 'Nothing to show.', follow = false }: WindowedTableProps<R>) {
  const [offset, setOffset] = useState(0);
  const maxOffset = Math.max(0, rows.length - height);
  useEffect(() => {
    if (follow) setOffset(maxOffset);
    else if (offset > maxOffset) setOffset(maxOffset);
  }, [follow, maxOffset, offset]);

  useInput(
    (_input, key) => {
      if (key.upArrow) setOffset((o) => Math.max(0, o - 1));
      else if (key.downArrow) setOffset((o) => Math.min(maxOffset, o + 1));
      else if (key.pageUp) setOffset((o) => Math.max(0, o - height));
      else if (key.pageDown) setOffset((o) => Math.min(maxOffset, o + height));
      else if (key.home) setOffset(0);
      else if (key.end) setOffset(maxOffset);
    },
    { isActive },
  );

  if (rows.length === 0) return <Text dimColor>{emptyText}</Text>;
  const visible = rows.slice(offset, offset + height);
  // Widths come from the header and the visible window only: never a scan of every row.
  const widths = columns.map((c) => c.width ?? Math.min(40, Math.max(c.title.length, ...visible.map((r) => c.value(r).length))));
  return (
    <Box flexDirection="column">
      <Text bold>{columns.map((c, i) => fit(c.title, widths[i]!, c.align)).join('  ')}</Text>
      {visible.map((row, i) => (
        <Text key={rowKey(row, offset + i)}>
          {columns.map((c, j) => {
            const colour = c.colour?.(row);
            return (
              <Text key={j} {...(colour ? { color: colour } : {})}>
                {fit(c.value(row), widths[j]!, c.align)}
                {j < columns.length - 1 ? '  ' : ''}
              </Text>
            );
          })}
        </Text>
      ))}
      {rows.length > height ? (
        <Text dimColor>
          rows {offset + 1}-{Math.min(rows.length, offset + height)} of {rows.length}
          {isActive ? '  (↑↓ PgUp PgDn Home End to scroll)' : ''}
        </Text>
      ) : null}
    </Box>
  );
}
