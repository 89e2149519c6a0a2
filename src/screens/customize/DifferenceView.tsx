import { Box, Text } from 'ink';
import type { DifferenceRow } from './difference-lines.js';

export interface DifferenceViewProps {
  /** The title's rows (which pack, which kind of difference), already wrapped. */
  heading: readonly string[];
  rows: readonly DifferenceRow[];
  offset: number;
  /** Rows of the difference in view. */
  page: number;
  /** A conflict: its decision as it stands. */
  decision?: string | undefined;
  /** A conflict being decided: its options (each already wrapped), the focus on one. */
  chooser?: { options: readonly string[][]; at: number } | undefined;
  /** A value being typed for the draft. */
  typed?: string | undefined;
  isActive: boolean;
  /** The keys, last. */
  hint: string;
}

/**
 * One difference whole, on the screen of its own that Enter opens: the path, the values, why it is
 * listed; for a conflict its options under them. Longer than the screen: PgUp PgDn scroll it.
 */
export function DifferenceView({ heading, rows, offset, page, decision, chooser, typed, isActive, hint }: DifferenceViewProps) {
  const more = rows.length > page;
  return (
    <Box flexDirection="column">
      {heading.map((h, i) => (
        <Text key={i} bold wrap="truncate-end">
          {h}
        </Text>
      ))}
      {rows.slice(offset, offset + page).map((r, i) => (
        <Text key={offset + i} wrap="truncate-end" bold={r.field === 'path'} dimColor={r.field === 'why'}>
          {r.text}
        </Text>
      ))}
      {more ? <Text dimColor wrap="truncate-end">{`rows ${offset + 1}-${Math.min(rows.length, offset + page)} of ${rows.length} · PgUp PgDn scroll`}</Text> : null}
      {decision ? (
        <Text wrap="truncate-end">
          Decision now: <Text bold>{decision}</Text>
        </Text>
      ) : null}
      {chooser ? (
        <Box flexDirection="column">
          <Text bold>What should the draft hold?</Text>
          {chooser.options.map((lines, i) =>
            lines.map((line, j) => (
              <Text key={`${i}.${j}`} wrap="truncate-end" bold={i === chooser.at} {...(i === chooser.at && isActive ? { inverse: true } : {})}>
                {j === 0 ? (i === chooser.at ? '❯ ' : '  ') : '    '}
                {line}
              </Text>
            )),
          )}
        </Box>
      ) : null}
      {typed !== undefined ? (
        <Text wrap="truncate-end">
          Value for the draft (YAML): {typed}
          <Text inverse> </Text>
        </Text>
      ) : null}
      <Text dimColor wrap="truncate-end">
        {hint}
      </Text>
    </Box>
  );
}
