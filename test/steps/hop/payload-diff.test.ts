import { describe, expect, it } from 'vitest';
import { valuesDiff } from '../../../src/steps/hop/payload-diff.js';

const before = 'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n';
const after = 'a: 1\nb: 20\nc: 3\nd: 4\ne: 5\nf: 6\n';

describe('a draft’s values diff (payload-diff.ts)', () => {
  it('counts and shows what changed, two lines of context', () => {
    expect(valuesDiff(before, after)).toEqual({
      added: 2,
      removed: 1,
      patch: ['@@ -1,5 +1,6 @@', ' a: 1', '-b: 2', '+b: 20', ' c: 3', ' d: 4', ' e: 5', '+f: 6'],
      truncated: false,
    });
    expect(valuesDiff(before, before)).toEqual({ added: 0, removed: 0, patch: [], truncated: false });
  });

  it('the same two documents again (a fleet’s next cluster, its own copy of the text): the answer already made, frozen', () => {
    const first = valuesDiff(before, after);
    const again = valuesDiff(`${before}`.slice(0), [after.slice(0, 3), after.slice(3)].join(''));
    expect(again).toBe(first);
    expect(Object.isFrozen(first.patch)).toBe(true);
    // Another cap is another answer.
    expect(valuesDiff(before, after, 2)).toEqual({ added: 2, removed: 1, patch: ['@@ -1,5 +1,6 @@', ' a: 1'], truncated: true });
  });
});
