/** Clusters from Palette: a profile's GET reports its clusters (`status.inUseClusters`); tags filter them; each gets `DIR/<name>` as its kubeconfig. */
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/errors.js';
import { inUseClusters, paletteEntries } from '../../src/fleet/from-palette.js';
import { loadFleet, withPaletteClusters } from '../../src/fleet/load.js';
import { fileWriter } from '../support/params-text.js';

const file = fileWriter('up-fleet-from-palette-');

describe('inUseClusters', () => {
  it.each([
    ['the clusters a version reports (palette-sdk-go v1ObjectResReference)', { status: { isPublished: true, inUseClusters: [{ kind: 'spectrocluster', name: 'store-001', projectUid: 'p', uid: 'u1' }, { name: 'store-002', uid: 'u2' }] } }, [{ uid: 'u1', name: 'store-001' }, { uid: 'u2', name: 'store-002' }]],
    ['a version no cluster runs (the field left out)', { status: { isPublished: true } }, []],
    ['a null list', { status: { inUseClusters: null } }, []],
    ['no status at all (the spec\'s service)', { metadata: {} }, []],
    ['a reference without a uid (not one to act on)', { status: { inUseClusters: [{ name: 'x' }] } }, []],
  ])('%s', (_name, raw, want) => {
    expect(inUseClusters(raw)).toEqual(want);
  });
});

describe('paletteEntries', () => {
  const found = [
    { uid: 'u3', name: 'store-003', tags: ['region=east', 'vmo'] },
    { uid: 'u1', name: 'store-001', tags: ['region=east'] },
    { uid: 'u2', name: 'store-002', tags: ['region=west', 'vmo'] },
  ];
  it.each([
    ['no tags: every cluster, by name', undefined, ['store-001', 'store-002', 'store-003']],
    ['one tag', ['region=east'], ['store-001', 'store-003']],
    ['every tag must hold', ['region=east', 'vmo'], ['store-003']],
    ["Palette's key:value spelling", ['region:west'], ['store-002']],
    ['a key-only tag', ['vmo'], ['store-002', 'store-003']],
    ['a tag no cluster has', ['region=north'], []],
  ])('%s', (_name, tags, want) => {
    expect(paletteEntries(found, { profile: 'p', kubeconfigDir: 'kube', ...(tags ? { tags } : {}) }, '/fleet').map((e) => e.name)).toEqual(want);
  });
  it('gives each cluster DIR/<name> (relative to the fleet file) and the context', () => {
    expect(paletteEntries(found.slice(1, 2), { profile: 'p', kubeconfigDir: 'kube', context: 'admin' }, '/fleet')).toEqual([{ name: 'store-001', uid: 'u1', kubeconfig: '/fleet/kube/store-001', context: 'admin' }]);
  });
});

const fleet = (stages: string) => `fleet: edge
target: 4.6.3
defaults:
  palette: { baseUrl: https://api.example.com, projectUid: p-1 }
  profiles: { addon: { uid: a-1 }, infra: { uid: i-1 } }
  site: { blockStorageClass: px-vm-block }
clusters: { fromPalette: { profile: a-1, tags: [region=east], kubeconfigDir: ./kube } }
stages:
${stages}`;

describe('a fleet file with clusters from Palette', () => {
  it('loads with no clusters yet, reaches Palette with the defaults, and takes the clusters found', () => {
    const f = loadFleet(file(fleet('  - { name: canary, clusters: [store-001] }\n  - { name: rest, selector: { tags: [vmo] } }\n')));
    expect(f.clusters).toEqual([]);
    expect(f.fromPalette).toEqual({ profile: 'a-1', tags: ['region=east'], kubeconfigDir: './kube' });
    expect(f.connection.palette.baseUrl).toBe('https://api.example.com');
    const got = withPaletteClusters(f, [{ name: 'store-001', uid: 'u1', kubeconfig: '/k/store-001' }, { name: 'store-003', uid: 'u3', kubeconfig: '/k/store-003' }]);
    expect(got.clusters.map((c) => [c.name, c.params.cluster.uid, c.params.cluster.kubeconfig])).toEqual([
      ['store-001', 'u1', '/k/store-001'],
      ['store-003', 'u3', '/k/store-003'],
    ]);
  });

  it.each([
    ['no cluster found', [], /Palette reports none of the clusters that run profile a-1 tagged region=east/],
    ['a stage naming a cluster Palette did not report', [{ name: 'store-003', uid: 'u3' }], /Stage canary names store-001, not among the clusters that run profile a-1 tagged region=east \(store-003\)/],
  ])('refuses %s (exit 2)', (_name, entries, message) => {
    const f = loadFleet(file(fleet('  - { name: canary, clusters: [store-001] }\n')));
    let caught: unknown;
    try {
      withPaletteClusters(f, entries);
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).message).toMatch(message);
    expect(exitCodeOf(caught)).toBe(2);
  });

  it('refuses a fromPalette without its kubeconfig folder', () => {
    expect(() => loadFleet(file(fleet('  - { name: canary, clusters: [store-001] }\n').replace(', kubeconfigDir: ./kube', '')))).toThrow(/clusters\.fromPalette\.kubeconfigDir/);
  });
});
