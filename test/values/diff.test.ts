import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { diffValues, type DiffEntry, type DiffLabel } from '../../src/values/diff.js';
import { parseValues } from '../../src/values/values-document.js';

/** Entries as `label path` lines: compact expectations that read like the screen's table. */
function summary(entries: readonly DiffEntry[]): string[] {
  return entries.map((e) => `${e.label} ${e.path}`);
}

const threeWay = (deployed: string, oldDefaults: string, newDefaults: string) => diffValues({ deployed, oldDefaults, newDefaults });
const twoWay = (deployed: string, newDefaults: string) => diffValues({ deployed, newDefaults });

describe('3-way labels', () => {
  const cases: Array<{ name: string; deployed: string; old: string; new: string; label: DiffLabel | undefined; entry?: Partial<DiffEntry> }> = [
    { name: 'unchanged everywhere', deployed: 'a: 1', old: 'a: 1', new: 'a: 1', label: undefined },
    { name: 'site already has the new default', deployed: 'a: 2', old: 'a: 1', new: 'a: 2', label: undefined },
    { name: 'site override, default untouched', deployed: 'a: 5', old: 'a: 1', new: 'a: 1', label: 'carried', entry: { deployed: 5, oldDefault: 1, newDefault: 1 } },
    { name: 'default changed, site on the old default', deployed: 'a: 1', old: 'a: 1', new: 'a: 2', label: 'newDefault', entry: { deployed: 1, oldDefault: 1, newDefault: 2 } },
    { name: 'both changed', deployed: 'a: 5', old: 'a: 1', new: 'a: 2', label: 'conflict', entry: { note: 'changed by the site and in the new version' } },
    { name: 'key added in the new version', deployed: 'b: 0', old: 'b: 0', new: 'b: 0\na: 1', label: 'newDefault', entry: { newDefault: 1, note: 'added in the new version' } },
    { name: 'key removed in the new version', deployed: 'a: 1\nb: 0', old: 'a: 1\nb: 0', new: 'b: 0', label: 'newDefault', entry: { deployed: 1, note: 'removed in the new version' } },
    { name: 'key added by the site', deployed: 'a: 1\nb: 0', old: 'b: 0', new: 'b: 0', label: 'carried', entry: { deployed: 1, note: 'added by the site' } },
    { name: 'key removed by the site', deployed: 'b: 0', old: 'a: 1\nb: 0', new: 'a: 1\nb: 0', label: 'carried', entry: { oldDefault: 1, newDefault: 1, note: 'removed by the site' } },
    { name: 'site changed a key the new version removed', deployed: 'a: 5\nb: 0', old: 'a: 1\nb: 0', new: 'b: 0', label: 'conflict', entry: { note: 'changed by the site, and removed in the new version' } },
    { name: 'site removed a key the new version changed', deployed: 'b: 0', old: 'a: 1\nb: 0', new: 'a: 2\nb: 0', label: 'conflict', entry: { note: 'removed by the site, and changed in the new version' } },
    { name: 'both added the key, differently', deployed: 'a: 5', old: '{}', new: 'a: 2', label: 'conflict' },
    { name: 'null is a value, not a missing key', deployed: 'a:', old: 'a: 1', new: 'a: 1', label: 'carried', entry: { deployed: null } },
    { name: 'types matter: "20" is not 20', deployed: 'a: "20"', old: 'a: 20', new: 'a: 20', label: 'carried', entry: { note: 'type changed: a string deployed, a number in the new defaults' } },
    { name: 'quoting does not matter', deployed: "a: 'x'", old: 'a: x', new: 'a: "x"', label: undefined },
  ];
  it.each(cases)('$name', ({ deployed, old, new: next, label, entry }) => {
    const diff = threeWay(deployed, old, next);
    expect(diff.mode).toBe('threeWay');
    if (label === undefined) {
      expect(diff.entries).toEqual([]);
      return;
    }
    expect(diff.entries).toHaveLength(1);
    expect(diff.entries[0]).toMatchObject({ path: 'a', label, ...entry });
    expect(diff.counts[label]).toBe(1);
  });
});

describe('2-way labels', () => {
  it('labels every non-ignored difference a candidate, with what it can tell', () => {
    const diff = twoWay('a: 5\nsite: 1\nimage:\n  tag: v1\n', 'a: 1\nnew: 2\nimage:\n  tag: v2\n');
    expect(diff.mode).toBe('twoWay');
    expect(summary(diff.entries)).toEqual(['candidate a', 'candidate site', 'ignored image', 'candidate new']);
    expect(diff.entries[1]?.note).toMatch(/not in the new defaults/);
    expect(diff.entries[3]?.note).toMatch(/probably added by the new version/);
    expect(diff.entries[0]).not.toHaveProperty('oldDefault');
    expect(diff.counts).toEqual({ carried: 0, newDefault: 0, conflict: 0, ignored: 1, candidate: 3 });
  });
});

describe('structure', () => {
  it('walks nested maps to the leaves, in document order', () => {
    const deployed = 'x:\n  y:\n    z: 1\n    w: 2\n  v: 3\n';
    const old = 'x:\n  y:\n    z: 0\n    w: 2\n  v: 0\n';
    const next = 'x:\n  v: 9\n  y:\n    w: 2\n    z: 0\n';
    expect(summary(threeWay(deployed, old, next).entries)).toEqual(['carried x.y.z', 'conflict x.v']);
  });

  it('matches lists of maps by a key field, not by position', () => {
    const deployed = 'l:\n  - name: a\n    v: 1\n  - name: site\n    v: 7\n  - name: b\n    v: 5\n';
    const old = 'l:\n  - name: a\n    v: 1\n  - name: b\n    v: 2\n';
    const next = 'l:\n  - name: new\n    v: 0\n  - name: b\n    v: 2\n  - name: a\n    v: 3\n';
    const diff = threeWay(deployed, old, next);
    expect(summary(diff.entries)).toEqual(['newDefault l[name="a"].v', 'carried l[name="site"]', 'carried l[name="b"].v', 'newDefault l[name="new"]']);
    expect(diff.entries[1]).toMatchObject({ deployed: { name: 'site', v: 7 }, note: 'added by the site' });
  });

  it('uses the first list key every item has, then falls back to positions', () => {
    const byId = twoWay('l:\n  - id: 1\n    v: a\n', 'l:\n  - id: 1\n    v: b\n');
    expect(summary(byId.entries)).toEqual(['candidate l[id=1].v']);
    const byIndex = twoWay('l:\n  - v: a\n  - v: b\n', 'l:\n  - v: a\n  - v: c\n  - v: d\n');
    expect(summary(byIndex.entries)).toEqual(['candidate l[1].v', 'candidate l[2]']);
    const mixedKeys = twoWay('l:\n  - name: x\n    v: 1\n', 'l:\n  - name: x\n    v: 2\n  - v: 3\n');
    expect(summary(mixedKeys.entries)).toEqual(['candidate l[0].v', 'candidate l[1]']);
  });

  it('keys lists only on values the path syntax writes back exactly', () => {
    expect(summary(twoWay('l:\n  - id: 1.5\n    v: 1\n', 'l:\n  - id: 1.5\n    v: 2\n').entries)).toEqual(['candidate l[id=1.5].v']);
    expect(summary(twoWay('l:\n  - id: 1e-7\n    v: 1\n', 'l:\n  - id: 1e-7\n    v: 2\n').entries)).toEqual(['candidate l[0].v']);
  });

  it('keys lists on all sides together, with a configurable key', () => {
    const diff = diffValues({ deployed: 'l:\n  - port: 80\n    p: TCP\n', newDefaults: 'l:\n  - port: 80\n    p: UDP\n', settings: { listKeys: ['port'] } });
    expect(summary(diff.entries)).toEqual(['candidate l[port=80].p']);
  });

  it('compares lists of scalars as whole values and names the items that moved', () => {
    const deployed = 'gates:\n  - A\n  - B\n  - SMM\n';
    const old = 'gates:\n  - A\n  - B\n';
    const next = 'gates:\n  - A\n  - B\n  - C\n';
    const diff = threeWay(deployed, old, next);
    expect(diff.entries).toEqual([
      {
        path: 'gates',
        label: 'conflict',
        deployed: ['A', 'B', 'SMM'],
        oldDefault: ['A', 'B'],
        newDefault: ['A', 'B', 'C'],
        suggestion: ['A', 'B', 'C', 'SMM'],
        note: 'the site added "SMM"; the new version added "C"',
      },
    ]);
  });

  it('suggests the 3-way item merge: site removals are kept out', () => {
    const diff = threeWay('l: [a, c, site]', 'l: [a, b, c]', 'l: [a, b, c, d]');
    expect(diff.entries[0]).toMatchObject({ label: 'conflict', suggestion: ['a', 'c', 'd', 'site'], note: 'the site added "site"; the site removed "b"; the new version added "d"' });
  });

  it('suggests the union for a 2-way list difference (nothing removed)', () => {
    const diff = twoWay('l: [a, site]', 'l: [a, b]');
    expect(diff.entries[0]).toMatchObject({ label: 'candidate', suggestion: ['a', 'b', 'site'], note: 'only the deployed list has "site"; only the new defaults have "b"' });
  });

  it('reports a reordered list of scalars', () => {
    expect(twoWay('l: [b, a]', 'l: [a, b]').entries[0]?.note).toBe('same items in a different order');
  });

  it('compares lists that mix scalars and maps as whole values, without a suggestion', () => {
    const diff = twoWay('l: [a, {b: 1}]', 'l: [a, {b: 2}]');
    expect(summary(diff.entries)).toEqual(['candidate l']);
    expect(diff.entries[0]).not.toHaveProperty('suggestion');
  });

  it.each([
    ['map to scalar', 'a:\n  b: 1\n', 'a: off', 'type changed: a map deployed, a string in the new defaults'],
    ['scalar to list', 'a: x', 'a: [x]', 'type changed: a string deployed, a list in the new defaults'],
    ['list to map', 'a: [x]', 'a: {x: 1}', 'type changed: a list deployed, a map in the new defaults'],
  ])('reports a type change (%s) at the changed path, as one entry', (_, deployed, next, note) => {
    const diff = twoWay(deployed, next);
    expect(diff.entries).toHaveLength(1);
    expect(diff.entries[0]).toMatchObject({ path: 'a', label: 'candidate', note });
  });

  it('labels a type change by the same 3-way rule', () => {
    expect(threeWay('a: {b: 1}', 'a: off', 'a: off').entries[0]?.label).toBe('carried');
    expect(threeWay('a: off', 'a: off', 'a: {b: 1}').entries[0]?.label).toBe('newDefault');
  });

  it('diffs multi-document values document by document', () => {
    const deployed = 'a: 1\n---\nkind: X\nspec: {n: 2}\n---\nextra: true\n';
    const next = 'a: 1\n---\nkind: X\nspec: {n: 3}\n';
    const diff = twoWay(deployed, next);
    expect(summary(diff.entries)).toEqual(['candidate @1.spec.n', 'candidate @2']);
    expect(diff.entries[1]).toMatchObject({ deployed: { extra: true } });
  });

  it('treats empty values as an empty map', () => {
    expect(summary(threeWay('', 'a: 1', 'a: 1').entries)).toEqual(['carried a']);
    expect(summary(twoWay('# only a comment\n', 'a: 1').entries)).toEqual(['candidate a']);
    expect(twoWay('', '').entries).toEqual([]);
  });

  it('resolves aliases before comparing', () => {
    expect(twoWay('x: &v 1\ny: *v\n', 'x: 1\ny: 1\n').entries).toEqual([]);
  });

  it('names keys that need quoting in the path syntax', () => {
    const diff = twoWay('a:\n  "x.y/z": 1\n', 'a:\n  "x.y/z": 2\n');
    expect(diff.entries[0]?.path).toBe('a["x.y/z"]');
  });
});

describe('ignored differences', () => {
  const deployed = [
    'pack:',
    '  content:',
    '    images:',
    '      - image: repo/a:1.0',
    'charts:',
    '  x:',
    '    image:',
    '      repository: repo/x',
    '      tag: "1.0"',
    '      pullPolicy: IfNotPresent',
    '    cleanup:',
    '      image: repo/c',
    '      tag: "1.0.2"',
    '    chart:',
    '      version: 1.0.0',
    '    imageVersion: "1.0.0"',
    '    replicas: 2',
    '',
  ].join('\n');
  const next = deployed.replaceAll('1.0', '2.0').replace('replicas: 2', 'replicas: 3');

  it('ignores image tags, image lists and versions with the default patterns', () => {
    const diff = twoWay(deployed, next);
    expect(summary(diff.entries)).toEqual([
      'ignored pack.content.images',
      'ignored charts.x.image',
      'ignored charts.x.cleanup.tag',
      'ignored charts.x.chart.version',
      'ignored charts.x.imageVersion',
      'candidate charts.x.replicas',
    ]);
  });

  it('reports nothing for an ignored path that did not change', () => {
    expect(twoWay('image: {tag: v1}', 'image: {tag: v1}').entries).toEqual([]);
  });

  it('notes a site-pinned value that is ignored', () => {
    const diff = threeWay('x:\n  tag: pinned', 'x:\n  tag: v1', 'x:\n  tag: v2');
    expect(diff.entries[0]).toMatchObject({ label: 'ignored', note: expect.stringMatching(/site changed this/) });
  });

  it('uses the runbook patterns when given (and only them)', () => {
    const diff = diffValues({ deployed, newDefaults: next, settings: { ignore: ['charts.x.replicas', '**.image', 'pack', '**.tag'] } });
    expect(summary(diff.entries)).toEqual([
      'ignored pack',
      'ignored charts.x.image',
      'ignored charts.x.cleanup.tag',
      'candidate charts.x.chart.version',
      'candidate charts.x.imageVersion',
      'ignored charts.x.replicas',
    ]);
  });

  it('rejects a bad ignore pattern with its position', () => {
    expect(() => diffValues({ deployed: 'a: 1', newDefaults: 'a: 2', settings: { ignore: ['a..b'] } })).toThrow(/column 3/);
  });
});

describe('input errors', () => {
  it('names the document and the position of a YAML error', () => {
    expect(() => twoWay('a: 1\n  b: 2\n', 'a: 1')).toThrow(InputError);
    expect(() => twoWay('a: 1', 'a: 1\na: 2\n')).toThrow(/The new default values are not valid YAML at line 2, column 1/);
  });

  it('accepts parsed values, so a caller parses each string once', () => {
    const deployed = parseValues('a: 5');
    const next = parseValues('a: 1');
    expect(diffValues({ deployed, newDefaults: next }).entries).toHaveLength(1);
  });
});
