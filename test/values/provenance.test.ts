/** Values of a draft that are neither the site's nor a new default (values/provenance.ts), as a table. */
import { describe, expect, it } from 'vitest';
import { findAdditions } from '../../src/values/provenance.js';

const site = `
a: 1
gates: [LiveMigration, SMM]
pools:
  - name: p1
    class: { name: site-block, annotations: {} }
`;
const defaults = `
a: 2
gates: [LiveMigration, CPUManager]
pools:
  - name: p1
    class: { name: block, annotations: {} }
newKey: x
`;

const cases: Array<[string, string, string[], Array<{ path: string; value: unknown }>]> = [
  ['the new defaults as they are', defaults, [], []],
  ['the site values carried into the defaults', defaults.replace('a: 2', 'a: 1').replace('name: block', 'name: site-block'), [], []],
  ['both sides\' feature gates merged: each item is one side\'s', defaults.replace('[LiveMigration, CPUManager]', '[LiveMigration, CPUManager, SMM]'), [], []],
  ['a value neither side has', defaults.replace('a: 2', 'a: 3'), [], [{ path: 'a', value: 3 }]],
  [
    'a key neither side has, in a keyed list item, named by its key',
    defaults.replace('annotations: {}', 'annotations: { "storageclass.kubevirt.io/is-default-virt-class": "true" }'),
    [],
    [{ path: 'pools[name="p1"].class.annotations["storageclass.kubevirt.io/is-default-virt-class"]', value: 'true' }],
  ],
  ['the same, decided (a chosen fix) by its position in the list', defaults.replace('annotations: {}', 'annotations: { "storageclass.kubevirt.io/is-default-virt-class": "true" }'), ['pools[0].class.annotations'], []],
  ['the same, decided by its key', defaults.replace('annotations: {}', 'annotations: { "storageclass.kubevirt.io/is-default-virt-class": "true" }'), ['pools[name="p1"]'], []],
  ['a whole subtree neither side has is one addition, at its top', `${defaults}extra:\n  placement: { tolerations: [{ key: k }] }\n`, [], [{ path: 'extra', value: { placement: { tolerations: [{ key: 'k' }] } } }]],
  ['a removal is not an addition', defaults.replace('newKey: x\n', ''), [], []],
];

describe('additions: draft values neither the site had nor the new defaults bring', () => {
  it.each(cases)('%s', (_name, draft, decided, expected) => {
    expect(findAdditions(draft, [site, defaults], { decided })).toEqual(expected);
  });

  it('looks at every document of a multi-document value', () => {
    expect(findAdditions('a: 2\n---\nb: 9\n', ['a: 2\n---\nb: 1\n'])).toEqual([{ path: '@1.b', value: 9 }]);
  });
});
