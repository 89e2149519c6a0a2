/**
 * A pack's differences as the review lists them, from a real values diff (3-way): the label, the
 * decision taken (the operator's, else the proposal) and the notes for moved and removed keys.
 */
import { describe, expect, it } from 'vitest';
import { diffValues, parseValues } from '../../../src/values/index.js';
import { packEntries } from '../../../src/steps/customize/pack-entries.js';
import type { DecisionMap } from '../../../src/steps/customize/types.js';

const oldDefaults = parseValues(['svc: ClusterIP', 'name: px-db', 'gates: [A, B]', 'legacy: {on: true}', 'keep: 1'].join('\n'), 'old');
const newDefaults = parseValues(['svc: LoadBalancer', 'name: px-csi', 'gates: [A, B, C]', 'keep: 1'].join('\n'), 'new');
const deployed = parseValues(['svc: ClusterIP', 'name: px-vm-block', 'gates: [A, B, SMM]', 'legacy: {on: false}', 'keep: 2'].join('\n'), 'deployed');
const diff = diffValues({ deployed, newDefaults, oldDefaults });

function entries(given: DecisionMap = {}, removedKeys: Array<{ path: string; reason: string }> = []) {
  return packEntries({ diff, given: (p) => given[p], removedKeys, moved: [{ from: 'old.place', to: 'keep' }], pack: 'csi', to: '3.2.1' });
}
const byPath = (r: ReturnType<typeof entries>) => Object.fromEntries(r.entries.map((e) => [e.path, e]));

describe('packEntries', () => {
  it.each([
    { name: 'no decision: a conflict keeps the site value', given: {}, path: 'name', label: 'conflict', decision: 'keepSite', taken: 'keepSite' },
    { name: 'no decision: a list both sides changed merges', given: {}, path: 'gates', label: 'conflict', decision: 'merged', taken: { value: ['A', 'B', 'C', 'SMM'] } },
    { name: 'no decision: a key the new version dropped is dropped', given: {}, path: 'legacy', label: 'conflict', decision: 'takeNew', taken: 'takeNew' },
    { name: 'take new default', given: { name: 'takeNew' }, path: 'name', label: 'conflict', decision: 'takeNew', taken: 'takeNew' },
    { name: 'a typed value', given: { name: { value: 'px-gold' } }, path: 'name', label: 'conflict', decision: 'value', taken: { value: 'px-gold' } },
    { name: 'merge asked where there is nothing to merge: the proposal', given: { name: 'merge' }, path: 'name', label: 'conflict', decision: 'keepSite', taken: 'keepSite' },
    { name: 'keep a removed key', given: { 'legacy': 'keepSite' }, path: 'legacy', label: 'conflict', decision: 'keepSite', taken: 'keepSite' },
    { name: 'a new default is not decided', given: {}, path: 'svc', label: 'newDefault', decision: undefined, taken: undefined },
    { name: 'a carried value is not decided', given: {}, path: 'keep', label: 'carried', decision: undefined, taken: undefined },
  ] as const)('$name', ({ given, path, label, decision, taken }) => {
    const r = entries(given as DecisionMap);
    const e = byPath(r)[path]!;
    expect(e.label).toBe(label);
    expect(e.decision).toBe(decision);
    expect(r.decisions[path]).toEqual(taken);
  });

  it('says why a removed key is dropped (the version notes, else the 3-way diff) and where a moved key came from', () => {
    expect(byPath(entries())['legacy']).toMatchObject({ removed: 'csi 3.2.1 no longer has this key', note: 'removed in the new version: dropped unless kept (csi 3.2.1 no longer has this key)' });
    expect(byPath(entries({}, [{ path: 'legacy', reason: 'gone since 3.2.0' }]))['legacy']).toMatchObject({ removed: 'gone since 3.2.0' });
    expect(byPath(entries())['keep']).toMatchObject({ movedFrom: 'old.place' });
  });

  it('lists the typed values, and counts what it ignores', () => {
    expect(entries({ name: { value: 'px-gold' } }).entered).toEqual([{ path: 'name', value: 'px-gold' }]);
    expect(entries().ignored).toBe(0);
  });
});
