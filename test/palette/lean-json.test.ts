import { describe, expect, it } from 'vitest';
import { textWithout } from '../../src/palette/lean-json.js';
import type { Reply } from '../../src/palette/transport.js';

/** A reply as the transport hands it over: its bytes in pieces (cut at the given byte offsets) until its text is read. */
function received(text: string, cuts: number[] = []): Reply & { decoded: () => boolean } {
  const bytes = Buffer.from(text, 'utf8');
  const at = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  let pieces: Buffer[] | undefined = at.slice(1).map((end, i) => bytes.subarray(at[i], end));
  let decoded = false;
  return {
    status: 200,
    get pieces() {
      return pieces;
    },
    get text() {
      decoded = true;
      pieces = undefined;
      return text;
    },
    decoded: () => decoded,
  };
}

/** What the lean text must parse to: the whole document with each string under `key` set to null. */
function nulled(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((v) => nulled(v, key));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === key && typeof v === 'string' ? null : nulled(v, key)]));
}

const cases: Array<[string, unknown]> = [
  ['a plain value', { values: 'a: 1\n' }],
  ['escaped quotes and backslashes inside', { values: 'say: "hi"\\\\ path: C:\\\\x\\\\', next: 'kept' }],
  ['a value ending in an escaped backslash', { values: 'ends with \\', tail: 1 }],
  ['the key spelt inside another string', { note: 'the "values":"x" member is text here', values: 'v' }],
  ['several, nested in lists', { spec: { t: [{ packs: [{ name: 'a', values: 'x' }, { name: 'b', values: '' }, { name: 'c' }] }] } }],
  ['multi-byte characters around and inside', { before: 'ünïcode → ✓', values: 'emoji 🚀 and 日本語', after: '€ 🚀' }],
  ['not a string: kept', { values: ['a', 'b'], other: { values: { x: 1 } }, none: { values: null } }],
  ['a key that only ends in values', { myvalues: 'kept', values: 'gone' }],
  ['no such key', { name: 'x' }],
];

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('an answer read without the string values of one key (lean-json.ts)', () => {
  it.each(cases)('%s: parses to the whole document with those values null', (_name, doc) => {
    const reply = received(JSON.stringify(doc));
    expect(JSON.parse(textWithout(reply, 'values'))).toEqual(nulled(doc, 'values'));
  });

  it('cut into pieces anywhere (inside the key, a value, an escape, a character of several bytes): the same text as read whole', () => {
    for (const [name, doc] of cases) {
      const text = JSON.stringify(doc);
      const whole = textWithout(received(text), 'values');
      const size = Buffer.byteLength(text);
      for (let seed = 1; seed <= 200; seed++) {
        const next = random(seed);
        const cuts = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Math.floor(next() * size));
        expect({ name, seed, text: textWithout(received(text, cuts), 'values') }).toEqual({ name, seed, text: whole });
      }
      // Every single cut, one byte at a time.
      for (let cut = 1; cut < size; cut++) expect({ name, cut, text: textWithout(received(text, [cut]), 'values') }).toEqual({ name, cut, text: whole });
    }
  });

  it('leaves the values undecoded: their text is never made', () => {
    const reply = received(JSON.stringify({ packs: [{ name: 'cni', values: 'x'.repeat(200_000) }], status: { state: 'Running' } }), [65_536, 131_072]);
    const lean = textWithout(reply, 'values');
    expect(reply.decoded()).toBe(false);
    expect(lean).toBe('{"packs":[{"name":"cni","values":null}],"status":{"state":"Running"}}');
  });

  it('a reply already decoded (its bytes gone) gives its whole text, which the caller filters itself', () => {
    const reply = received(JSON.stringify({ values: 'a' }));
    void reply.text;
    expect(textWithout(reply, 'values')).toBe('{"values":"a"}');
  });

  it('spaced as another encoder might write it: kept whole, never misread', () => {
    const text = '{ "values" : "a: 1", "x": 2 }';
    expect(JSON.parse(textWithout(received(text), 'values'))).toEqual({ values: 'a: 1', x: 2 });
  });

  it('a text cut short inside a value stays as invalid as it came', () => {
    const text = '{"packs":[{"values":"never closed';
    expect(() => JSON.parse(textWithout(received(text, [12, 25]), 'values'))).toThrow();
  });
});
