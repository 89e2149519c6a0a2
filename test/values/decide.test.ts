import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { decide, defaultDecision, pendingConflicts } from '../../src/values/decide.js';
import { diffValues } from '../../src/values/diff.js';

describe('decide', () => {
  const threeWay = diffValues({
    deployed: 'carried: site\nnewer: 1\nconflict: site\nsiteOnly: x\nimage: {tag: pinned}\ngates: [a, SMM]\n',
    oldDefaults: 'carried: 1\nnewer: 1\nconflict: 1\nremovedBySite: 1\nimage: {tag: v1}\ngates: [a]\n',
    newDefaults: 'carried: 1\nnewer: 2\nconflict: 2\nremovedBySite: 1\nimage: {tag: v2}\ngates: [a, b]\n',
  });

  it('carries site overrides, takes new defaults and ignored values, and waits for conflicts', () => {
    expect(threeWay.entries.map((e) => [e.path, e.label, defaultDecision(e)])).toEqual([
      ['carried', 'carried', 'keepSite'],
      ['newer', 'newDefault', 'takeNew'],
      ['conflict', 'conflict', undefined],
      ['siteOnly', 'carried', 'keepSite'],
      ['image', 'ignored', 'takeNew'],
      ['gates', 'conflict', undefined],
      ['removedBySite', 'carried', 'keepSite'],
    ]);
    expect(pendingConflicts(threeWay).map((e) => e.path)).toEqual(['conflict', 'gates']);
  });

  it('refuses to guess a conflict', () => {
    expect(() => decide(threeWay)).toThrow(InputError);
    expect(() => decide(threeWay, { conflict: 'takeNew' })).toThrow('1 conflicting setting(s) need a decision: gates.');
  });

  it('turns decisions into the carry list, in diff order', () => {
    const gates = threeWay.entries.find((e) => e.path === 'gates');
    expect(gates?.suggestion).toEqual(['a', 'b', 'SMM']);
    const carry = decide(threeWay, { conflict: { value: 'typed' }, gates: { value: gates?.suggestion }, image: 'keepSite', carried: 'takeNew' });
    expect(carry).toEqual([
      { path: 'conflict', value: 'typed' },
      { path: 'siteOnly', value: 'x' },
      { path: 'image', value: { tag: 'pinned' } },
      { path: 'gates', value: ['a', 'b', 'SMM'] },
      { path: 'removedBySite', remove: true },
    ]);
    expect(decide(threeWay, { conflict: 'keepSite', gates: 'takeNew' })).toContainEqual({ path: 'conflict', value: 'site' });
  });

  it('rejects decisions for settings the diff does not list', () => {
    expect(() => decide(threeWay, { conflict: 'keepSite', gates: 'keepSite', 'not.there': 'keepSite' })).toThrow(/not\.there/);
  });

  it('keeps 2-way candidates the site has, and takes the new defaults it lacks', () => {
    const twoWay = diffValues({ deployed: 'a: site\ngates: [a, SMM]\n', newDefaults: 'a: 1\nb: new\ngates: [a, b]\n' });
    expect(decide(twoWay)).toEqual([
      { path: 'a', value: 'site' },
      { path: 'gates', value: ['a', 'SMM'] },
    ]);
    expect(twoWay.entries.find((e) => e.path === 'gates')?.suggestion).toEqual(['a', 'b', 'SMM']);
    expect(decide(twoWay, { b: 'keepSite', a: 'takeNew' })).toEqual([
      { path: 'gates', value: ['a', 'SMM'] },
      { path: 'b', remove: true },
    ]);
  });
});
