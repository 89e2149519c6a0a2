/** Wrapping help text at word boundaries, with a hanging indent; the width a command writes to. */
import { describe, expect, it } from 'vitest';
import { outputWidth, wrapWords } from '../../src/text/wrap.js';

describe('wrapWords', () => {
  it.each<[string, string, number, { first: string; rest: string } | undefined, string[]]>([
    ['fits on one line', 'one two three', 20, undefined, ['one two three']],
    ['breaks between words, never inside one', 'alpha beta gamma delta', 11, undefined, ['alpha beta', 'gamma delta']],
    ['a hanging indent under a name', 'Where sessions are kept (default: $XDG_STATE_HOME)', 31, { first: '  --state-dir  ', rest: '               ' }, ['  --state-dir  Where sessions', '               are kept', '               (default:', '               $XDG_STATE_HOME)']],
    ['a word wider than the line is the only thing cut', 'see /a/very/long/path/that/does/not/fit here', 12, undefined, ['see', '/a/very/long', '/path/that/d', 'oes/not/fit', 'here']],
    ['spaces collapse; nothing trails', '  lots   of    space  ', 40, undefined, ['lots of space']],
    ['an empty text is one (indented) line', '', 10, { first: '  ', rest: '  ' }, ['']],
  ])('%s', (_what, text, width, indent, lines) => {
    const out = wrapWords(text, width, indent);
    expect(out).toEqual(lines);
    for (const l of out) expect(l.length).toBeLessThanOrEqual(width);
  });

  it('keeps every word whole and in order (a 220-character line at 80 columns)', () => {
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const out = wrapWords(text, 80, { first: '  ', rest: '    ' });
    expect(out.length).toBeGreaterThan(1);
    for (const l of out) expect(l.length).toBeLessThanOrEqual(80);
    expect(out.join(' ').split(/\s+/).filter(Boolean)).toEqual(text.split(' '));
  });
});

describe('outputWidth', () => {
  it.each<[string, { isTTY?: boolean; columns?: number }, NodeJS.ProcessEnv, number]>([
    ["a terminal: its width", { isTTY: true, columns: 132 }, { COLUMNS: '60' }, 132],
    ['no terminal: $COLUMNS', { isTTY: false }, { COLUMNS: '100' }, 100],
    ['no terminal, no $COLUMNS: 80', {}, {}, 80],
    ['a $COLUMNS that is not a number: 80', {}, { COLUMNS: 'wide' }, 80],
    ['never under 40', { isTTY: true, columns: 20 }, {}, 40],
  ])('%s', (_what, stdout, env, width) => {
    expect(outputWidth(stdout, env)).toBe(width);
  });
});
