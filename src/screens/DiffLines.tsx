import { Box, Text } from 'ink';
import { sanitizeText } from '../text/sanitize.js';
import type { DiffLine } from './diff-fold.js';
import { colour } from './theme.js';

export { foldImageTags } from './diff-fold.js';

/**
 * A window of diff lines: additions green, removals red, folded image tags dim, the search hit
 * inverse. `wrap`: a long line goes on below itself instead of being cut (inside a gate, whose box
 * scrolls whatever height the diff takes; a counted window keeps one row per line).
 */
export function DiffLines({ lines, offset = 0, rows, hit, wrap = false }: { lines: readonly DiffLine[]; offset?: number; rows: number; hit?: number | undefined; wrap?: boolean }) {
  const add = colour('pass');
  const del = colour('fail');
  return (
    <Box flexDirection="column">
      {lines.slice(offset, offset + rows).map((l, i) => {
        const tone = l.kind === 'add' ? add : l.kind === 'del' ? del : undefined;
        return (
          <Text key={offset + i} wrap={wrap ? 'wrap' : 'truncate-end'} {...(tone ? { color: tone } : {})} dimColor={l.kind === 'ctx' || l.kind === 'fold'} bold={l.kind === 'title'} inverse={offset + i === hit}>
            {sanitizeText(l.text, { max: 1000 })}
          </Text>
        );
      })}
    </Box>
  );
}
