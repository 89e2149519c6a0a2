import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { DiffLine } from '../diff-fold.js';
import { DiffLines } from '../DiffLines.js';
import type { Scroll } from '../keys/use-scroll.js';

export interface ReviewListProps {
  /** The title and the totals, already wrapped. */
  header: readonly string[];
  roomy: boolean;
  packs: ReactNode;
  /** The selected pack in words (its profile, the comparison, where the new defaults come from), already wrapped. */
  packLine: readonly string[];
  /** The differences, the fixes, or the YAML diff. */
  section: ReactNode;
  status: ReactNode;
  error?: ReactNode;
  /** The keys, wrapped (roomy) or on one line. */
  hints: readonly string[];
}

/** The review's main view: the packs, the selected pack's differences, the rules, the keys. */
export function ReviewList({ header, roomy, packs, packLine, section, status, error, hints }: ReviewListProps) {
  return (
    <Box flexDirection="column">
      {header.map((h, i) => (
        <Text key={i} wrap="truncate-end" bold={i === 0}>
          {h}
        </Text>
      ))}
      <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
        {packs}
      </Box>
      {packLine.map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l}
        </Text>
      ))}
      <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
        {section}
      </Box>
      {status}
      {error}
      {hints.map((h, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {h}
        </Text>
      ))}
    </Box>
  );
}

/** The selected pack's values as a YAML diff (deployed → draft), image tags folded, `/` searches. */
export function YamlDiffSection({ name, diff, scroll, rows }: { name: string; diff: readonly DiffLine[]; scroll: Scroll; rows: number }) {
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        YAML diff of {name}: deployed → draft <Text dimColor>↑↓ PgUp PgDn g G scroll · / search · d close</Text>
      </Text>
      {diff.length === 0 ? <Text dimColor>The values are the same as deployed.</Text> : <DiffLines lines={diff} offset={scroll.state.offset} rows={rows} hit={scroll.state.search?.hit} />}
      {scroll.line ? <Text>{scroll.line}</Text> : null}
    </Box>
  );
}
