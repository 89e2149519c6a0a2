import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { formatPath, parseConcretePath, parsePath, type ValuesPath } from '../../src/values/path.js';
import { coversPath, matchesPattern, PatternSet } from '../../src/values/pattern.js';

describe('parsePath / formatPath', () => {
  const cases: Array<[string, ValuesPath]> = [
    ['', { segments: [] }],
    ['a', { segments: [{ kind: 'key', key: 'a' }] }],
    ['charts.cilium.ipam', { segments: [{ kind: 'key', key: 'charts' }, { kind: 'key', key: 'cilium' }, { kind: 'key', key: 'ipam' }] }],
    ['a["key.with/dots"].c', { segments: [{ kind: 'key', key: 'a' }, { kind: 'key', key: 'key.with/dots' }, { kind: 'key', key: 'c' }] }],
    ['list[0].x', { segments: [{ kind: 'key', key: 'list' }, { kind: 'index', index: 0 }, { kind: 'key', key: 'x' }] }],
    ['p[name="default"].q', { segments: [{ kind: 'key', key: 'p' }, { kind: 'item', field: 'name', value: 'default' }, { kind: 'key', key: 'q' }] }],
    ['p[id=7]', { segments: [{ kind: 'key', key: 'p' }, { kind: 'item', field: 'id', value: 7 }] }],
    ['p[on=true]', { segments: [{ kind: 'key', key: 'p' }, { kind: 'item', field: 'on', value: true }] }],
    ['**.image', { segments: [{ kind: 'deep' }, { kind: 'key', key: 'image' }] }],
    ['a.*.b', { segments: [{ kind: 'key', key: 'a' }, { kind: 'any' }, { kind: 'key', key: 'b' }] }],
    ['@1.kind', { doc: 1, segments: [{ kind: 'key', key: 'kind' }] }],
    ['@2', { doc: 2, segments: [] }],
    ['["*"]', { segments: [{ kind: 'key', key: '*' }] }],
    ['["a \\"q\\""]', { segments: [{ kind: 'key', key: 'a "q"' }] }],
    ['metallb-full.ns-adv_1', { segments: [{ kind: 'key', key: 'metallb-full' }, { kind: 'key', key: 'ns-adv_1' }] }],
  ];
  it.each(cases)('parses %j', (text, path) => {
    expect(parsePath(text)).toEqual(path);
    expect(formatPath(path)).toBe(text);
  });

  it('accepts the bracket forms of `*` and quoted item values that look like numbers', () => {
    expect(parsePath('a[*]')).toEqual({ segments: [{ kind: 'key', key: 'a' }, { kind: 'any' }] });
    expect(formatPath(parsePath('l[id="7"]'))).toBe('l[id="7"]');
    expect(parsePath('l[id="7"]').segments[1]).toEqual({ kind: 'item', field: 'id', value: '7' });
  });

  it('formats document 0 without a prefix', () => {
    expect(formatPath({ doc: 0, segments: [{ kind: 'key', key: 'a' }] })).toBe('a');
  });

  it.each(['a.', '.a', 'a..b', 'a[', 'a[x]', 'a["x"', 'a b', '@1a', 'a[name=]', 'a["x"]y'])('rejects %j with the column', (text) => {
    expect(() => parsePath(text)).toThrow(InputError);
    expect(() => parsePath(text)).toThrow(/column \d+/);
  });

  it('refuses wildcards where one setting is needed', () => {
    expect(() => parseConcretePath('a.*.b')).toThrow(/wildcard/);
    expect(parseConcretePath('a[0]').segments).toHaveLength(2);
  });
});

describe('patterns', () => {
  const table: Array<[pattern: string, path: string, matches: boolean]> = [
    ['**.image', 'charts.x.image', true],
    ['**.image', 'image', true],
    ['**.image', 'charts.x.image.tag', false],
    ['**.tag', 'charts.multus.cleanup.tag', true],
    ['**.tag', 'pack.content.images[image="a:1"].image', false],
    ['pack.content.images', 'pack.content.images', true],
    ['pack.content.images', 'charts.pack.content.images', false],
    ['a.*.c', 'a.b.c', true],
    ['a.*.c', 'a[0].c', true],
    ['a.*.c', 'a[name="x"].c', true],
    ['a.*.c', 'a.b.d.c', false],
    ['a.**.c', 'a.c', true],
    ['a.**.c', 'a.b.d.c', true],
    ['**', 'anything.at[3].all', true],
    ['@1.**.x', '@1.a.x', true],
    ['@1.**.x', 'a.x', false],
    ['**.x', '@2.a.x', true],
    ['a[name="p"].b', 'a[name="p"].b', true],
    ['a[name="p"].b', 'a[name="q"].b', false],
    ['a["k.d"]', 'a["k.d"]', true],
  ];
  it.each(table)('%s matches %s: %s', (pattern, path, matches) => {
    expect(matchesPattern(pattern, parsePath(path))).toBe(matches);
  });

  it('covers a path when it matches the path or an ancestor', () => {
    const set = new PatternSet(['**.image', 'pack.content.images']);
    expect(coversPath(set, parsePath('charts.x.image.pullPolicy'))).toBe(true);
    expect(coversPath(set, parsePath('pack.content.images[image="a"].image'))).toBe(true);
    expect(coversPath(set, parsePath('charts.x.imagePullPolicy'))).toBe(false);
  });
});
