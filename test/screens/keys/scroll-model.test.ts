import { describe, expect, it } from 'vitest';
import { press, type KeyPress } from '../../../src/screens/keys/key-press.js';
import { clampScroll, initialScroll, scrollKey, searchLine, type ScrollBounds, type ScrollState } from '../../../src/screens/keys/scroll-model.js';

const rows = Array.from({ length: 100 }, (_, i) => (i === 42 ? 'image: virt-launcher:v1.3.1' : i === 77 ? 'IMAGE tag v2' : `row ${i}`));
const bounds: ScrollBounds = { total: rows.length, page: 10, textAt: (i) => rows[i]! };
const { char, key } = press;
const type = (text: string) => [...text].map(char);

function run(keys: KeyPress[], b = bounds): { state: ScrollState; handled: boolean[] } {
  let state = initialScroll;
  const handled: boolean[] = [];
  for (const k of keys) {
    const r = scrollKey(state, k, b);
    state = r.state;
    handled.push(r.handled);
  }
  return { state, handled };
}

describe('scrolling and search', () => {
  it.each<[string, KeyPress[], number]>([
    ['↓ and j one row', [key('down'), char('j')], 2],
    ['↑ never above the top', [key('up'), char('k')], 0],
    ['PgDn a page (keeping one row)', [key('pageDown')], 9],
    ['G the bottom', [char('G')], 90],
    ['End then PgUp', [key('end'), key('pageUp')], 81],
    ['g the top', [char('G'), char('g')], 0],
    ['/ search jumps near the match', [char('/'), ...type('image'), key('enter')], 40],
    ['n the next match, case-insensitive', [char('/'), ...type('image'), key('enter'), char('n')], 75],
    ['n wraps round to the first', [char('/'), ...type('image'), key('enter'), char('n'), char('n')], 40],
    ['N the previous match', [char('/'), ...type('image'), key('enter'), char('N')], 75],
    ['Esc cancels a search being typed', [char('/'), ...type('row 5'), key('escape'), char('j')], 1],
  ])('%s', (_what, keys, offset) => {
    expect(run(keys).state.offset).toBe(offset);
  });

  it('while a query is typed, every key is the query’s: j, q and ? too', () => {
    const { state, handled } = run([char('/'), char('j'), char('q'), char('?'), key('backspace')]);
    expect(state.search).toEqual({ typing: true, query: 'jq' });
    expect(handled.every(Boolean)).toBe(true);
    expect(searchLine(state)).toBe('/jq');
  });

  it('says when nothing matches, and leaves the window', () => {
    const { state } = run([char('j'), char('/'), ...type('nothing like it'), key('enter')]);
    expect(state.offset).toBe(1);
    expect(searchLine(state)).toBe('"nothing like it" not found (/ to search again)');
  });

  it('passes on keys it does not use; without row text, / is not a search', () => {
    expect(run([char('x'), key('enter'), key('tab')]).handled).toEqual([false, false, false]);
    expect(run([char('/')], { total: 100, page: 10 }).handled).toEqual([false]);
  });

  it('a window longer than the rows does not scroll; shrinking rows pull the offset back', () => {
    expect(run([key('down'), char('G')], { total: 5, page: 10 }).state.offset).toBe(0);
    expect(clampScroll({ offset: 50 }, { total: 20, page: 10 }).offset).toBe(10);
  });
});
