/** The parsed values cache: a text is read once, the least recently used go first past the bound, bad input is never kept. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { ValuesCache } from '../../src/values/values-cache.js';
import { valuesToJs } from '../../src/values/values-document.js';

describe('ValuesCache', () => {
  it('parses a text once: the same document again, however the text was built', () => {
    const cache = new ValuesCache();
    const first = cache.parse('a: 1\nb: [x]\n', 'the values');
    // Equal content, another string (as a second registry read gives): still a hit.
    const again = cache.parse(['a: 1', 'b: [x]', ''].join('\n'), 'other words');
    expect(again).toBe(first);
    expect(valuesToJs(again)).toEqual([{ a: 1, b: ['x'] }]);
    expect(cache.stats()).toEqual({ documents: 1, textChars: 12, hits: 1, misses: 1 });
  });

  it('keeps at most its bound of text, the least recently used going first', () => {
    const cache = new ValuesCache(30);
    const texts = ['a: 1111111\n', 'b: 2222222\n', 'c: 3333333\n']; // 11 characters each
    const a = cache.parse(texts[0]!, 'a');
    cache.parse(texts[1]!, 'b');
    cache.parse(texts[0]!, 'a'); // a is now the most recently used
    cache.parse(texts[2]!, 'c'); // 33 > 30: b goes
    expect(cache.stats()).toMatchObject({ documents: 2, textChars: 22 });
    expect(cache.parse(texts[0]!, 'a')).toBe(a);
    const misses = cache.stats().misses;
    cache.parse(texts[1]!, 'b');
    expect(cache.stats().misses).toBe(misses + 1);
    // A text longer than the bound is parsed, not kept.
    cache.parse(`x: ${'y'.repeat(40)}\n`, 'long');
    expect(cache.stats().textChars).toBeLessThanOrEqual(30);
  });

  it('keeps nothing of a text that does not parse: it is refused, with its name, every time', () => {
    const cache = new ValuesCache();
    for (const what of ['the deployed values of nginx', 'the nginx 1.12.1 defaults']) {
      expect(() => cache.parse('a: 1\na: 2\n', what)).toThrow(InputError);
      expect(() => cache.parse('a: 1\na: 2\n', what)).toThrow(new RegExp(`^${what.replace(/^t/, 'T')} are not valid YAML`));
    }
    expect(cache.stats()).toMatchObject({ documents: 0, hits: 0 });
  });
});
