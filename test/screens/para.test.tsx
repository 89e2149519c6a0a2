/** Wrapped text never starts a line with a space (Ink keeps the space where it breaks a line). */
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ErrorPanel } from '../../src/screens/ErrorPanel.js';
import { dropWrapSpace, Para } from '../../src/screens/Para.js';
import { plain, words } from '../support/ui.js';

describe('a paragraph', () => {
  it.each([
    ['the first line keeps its indent', '  first', 0, '  first'],
    ['a wrapped line loses the space the break left', ' is deployed', 1, 'is deployed'],
    ['colour codes before it are kept', '\u001B[1m needed.', 2, '\u001B[1mneeded.'],
  ])('%s', (_what, line, index, want) => {
    expect(dropWrapSpace(line, index)).toBe(want);
  });

  it('breaks where a word exactly fills the width without a space at the next line’s start', () => {
    // At width 4 Ink alone draws "aaaa", " bb", "cc": the break's space starts the second line.
    const { lastFrame, unmount } = render(
      <Box width={4}>
        <Para>aaaa bb cc</Para>
      </Box>,
    );
    expect(plain(lastFrame()).split('\n').map((l) => l.trimEnd())).toEqual(['aaaa', 'bb', 'cc']);
    unmount();
  });

  it('an error panel’s what-to-do keeps each of its lines, and none of them starts with a stray space', () => {
    const { lastFrame, unmount } = render(
      <Box width={40}>
        <ErrorPanel error={{ kind: 'failed', code: 'x', message: 'The profile vmo-infra is not deployed on the cluster.', hint: 'Check the cluster profile is attached, then resume:\n  upgrade-pilot resume abc' }} />
      </Box>,
    );
    const inner = plain(lastFrame())
      .split('\n')
      .slice(1, -1)
      .map((l) => l.slice(2, -2));
    expect(inner.filter((l) => /^ \S/.test(l))).toEqual([]);
    expect(words(inner.join('\n'))).toMatch(/What to do: Check the cluster profile is attached, then resume: upgrade-pilot resume abc/);
    expect(inner.join('\n')).toMatch(/^ {2}upgrade-pilot resume abc/m); // its own indent kept
    unmount();
  });
});
