import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { decideManifests, diffManifests, mergeManifests, type Manifest } from '../../src/values/manifests.js';
import { sameManifestContent } from '../../src/io/yaml-same-content.js';
import { fixture } from './helpers.js';

const issuer: Manifest = { name: 'issuer-selfsigned', content: fixture('issuer-selfsigned.manifest.yaml'), uid: 'site-uid-1' };
const rules = (v: string): Manifest => ({ name: 'alert-rules', content: `apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: vm\nspec:\n  groups: [{name: vm, rules: []}]\n# ${v}\n`, uid: `uid-${v}` });
const dashboards = (v: number): Manifest => ({ name: 'dashboards', content: `kind: ConfigMap\ndata:\n  version: "${v}"\n` });

describe('diffManifests', () => {
  it('finds the manifest the site added and carries it with its uid', () => {
    const diff = diffManifests([issuer, dashboards(1)], [dashboards(1)]);
    expect(diff.entries).toEqual([{ name: 'issuer-selfsigned', label: 'candidate', deployed: issuer, note: 'added by the site' }]);
    const merged = mergeManifests([dashboards(1)], decideManifests(diff));
    expect(merged).toEqual([dashboards(1), issuer]);
  });

  it('compares content by what it declares, not by formatting or comments', () => {
    expect(sameManifestContent('a: 1\nb: [x]\n', "# c\nb:\n  - 'x'\na: 1")).toBe(true);
    expect(sameManifestContent('a: 1', 'a: 2')).toBe(false);
    expect(sameManifestContent('a: [', 'a: [')).toBe(true);
    expect(diffManifests([rules('one')], [rules('two')]).entries).toEqual([]);
  });

  it('labels 3-way: site edit carried, new version change taken, both changed is a conflict', () => {
    const siteEdited = { ...dashboards(5), uid: 'u-dash' };
    const diff = diffManifests([siteEdited, { name: 'old-only', content: 'a: 1' }, { name: 'both', content: 'v: site' }], [dashboards(1), { name: 'new-only', content: 'a: 1' }, { name: 'both', content: 'v: new' }], [dashboards(1), { name: 'old-only', content: 'a: 1' }, { name: 'both', content: 'v: old' }]);
    expect(diff.entries.map((e) => [e.name, e.label, e.note])).toEqual([
      ['dashboards', 'carried', 'content differs'],
      ['old-only', 'newDefault', 'removed in the new version'],
      ['both', 'conflict', 'content differs'],
      ['new-only', 'newDefault', 'new in this version'],
    ]);
    expect(diff.counts).toMatchObject({ carried: 1, newDefault: 2, conflict: 1 });
    expect(() => decideManifests(diff)).toThrow(InputError);
    const carry = decideManifests(diff, { both: 'keepSite' });
    expect(carry).toEqual([
      { name: 'dashboards', manifest: siteEdited },
      { name: 'both', manifest: { name: 'both', content: 'v: site' } },
    ]);
    expect(mergeManifests([dashboards(1), { name: 'new-only', content: 'a: 1' }, { name: 'both', content: 'v: new' }], carry)).toEqual([
      siteEdited,
      { name: 'new-only', content: 'a: 1' },
      { name: 'both', content: 'v: site' },
    ]);
  });

  it('does not drop a manifest that is new in this version (2-way)', () => {
    const diff = diffManifests([], [dashboards(1)]);
    expect(diff.entries).toEqual([{ name: 'dashboards', label: 'candidate', newDefault: dashboards(1), note: 'new in this version' }]);
    expect(decideManifests(diff)).toEqual([]);
    expect(decideManifests(diff, { dashboards: 'keepSite' })).toEqual([{ name: 'dashboards', remove: true }]);
    expect(mergeManifests([dashboards(1)], [{ name: 'dashboards', remove: true }])).toEqual([]);
  });

  it('rejects two manifests with one name', () => {
    expect(() => diffManifests([issuer, issuer], [])).toThrow(/issuer-selfsigned/);
  });
});
