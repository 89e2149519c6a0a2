/** Hops without reference profiles: the orchestration pack moves, `moveWith` packs move as told, the rest stay. */
import { describe, expect, it } from 'vitest';
import { ParamsSchema, type Params } from '../../../src/engine/params.js';
import { latestPatch, planHops, type ProfileState, type RegistryFacts } from '../../../src/domain/ladder/hops.js';

const site = (moveWith: Record<string, unknown> = {}): Params =>
  ParamsSchema.parse({
    palette: { baseUrl: 'https://api.example.com', projectUid: 'p' },
    cluster: { uid: 'c' },
    profiles: { addon: { uid: 'a' }, infra: { uid: 'i' } },
    target: '4.6.3',
    moveWith,
    site: { blockStorageClass: 'px-vm-block' },
  });

const state = (role: 'addon' | 'infra', packs: Array<[string, string]>): ProfileState => ({ role, uid: role, name: `vmo-${role}`, version: '1.4.0', packs: new Map(packs) });

const facts: RegistryFacts = {
  registryUid: 'reg',
  label: 'registry "Palette Registry" (reg)',
  vmoValues: new Map([['4.5.4', 'charts:\n  virtual-machine-orchestrator:\n    kubevirt:\n      image: { tag: v1.3.1 }\n']]),
  moveWithTags: new Map([
    ['cni-cilium-oss', ['1.16.6', '1.16.9', '1.16.12', '1.17.1', '1.17.x']],
    ['nginx', ['1.10.1', '1.11.3', '1.12.1']],
  ]),
};

const ladder = [
  { from: '4.4.10', to: '4.5.4' },
  { from: '4.5.4', to: '4.6.3' },
];

function plan(moveWith: Record<string, unknown>) {
  const current = {
    addon: state('addon', [['nginx', '1.10.1'], ['virtual-machine-orchestrator', '4.4.10']]),
    infra: state('infra', [['kubernetes', '1.32.2'], ['cni-cilium-oss', '1.16.6']]),
  };
  const result = planHops({ site: site(moveWith), ladder, current, usedLabels: { addon: new Set(['1.4.0']), infra: new Set(['1.4.0']) }, references: new Map(), folder: undefined, registry: facts });
  if (!result.ok) throw new Error(result.reason);
  return result.hops;
}

const moves = (hops: ReturnType<typeof plan>) => hops.map((h) => h.profiles.flatMap((p) => p.packs.map((k) => `${k.name} ${k.from}→${k.to} (${k.source})`)));

describe('planHops without reference profiles', () => {
  it('moves only the orchestration pack when moveWith is empty, and says what stays', () => {
    const hops = plan({});
    expect(moves(hops)).toEqual([["virtual-machine-orchestrator 4.4.10→4.5.4 (the hop's version)"], ["virtual-machine-orchestrator 4.5.4→4.6.3 (the hop's version)"]]);
    // The infrastructure profile holds nothing that moves: no draft, no new label for it.
    expect(hops[0]!.profiles.map((p) => p.role)).toEqual(['addon']);
    expect(hops[0]!.profiles[0]).toMatchObject({ stays: ['nginx 1.10.1'], reference: { kind: 'registry', registryUid: 'reg', label: 'registry "Palette Registry" (reg)' } });
    expect(hops[0]!.kubevirtVersion).toBe('v1.3.1');
  });

  it('a tag per hop moves the pack in the hops that name one; latest-patch moves it once, in the first hop', () => {
    const hops = plan({ nginx: { '4.5.4': '1.11.3', '4.6.3': '1.12.1' }, 'cni-cilium-oss': 'latest-patch' });
    expect(moves(hops)).toEqual([
      ['cni-cilium-oss 1.16.6→1.16.12 (moveWith: latest patch)', 'nginx 1.10.1→1.11.3 (moveWith: 1.11.3 for 4.5.4)', "virtual-machine-orchestrator 4.4.10→4.5.4 (the hop's version)"],
      ['nginx 1.11.3→1.12.1 (moveWith: 1.12.1 for 4.6.3)', "virtual-machine-orchestrator 4.5.4→4.6.3 (the hop's version)"],
    ]);
    expect(hops[0]!.profiles.find((p) => p.role === 'infra')).toMatchObject({ fromVersion: '1.4.0', toVersion: '1.5.0', stays: ['kubernetes 1.32.2'] });
    // Hop 2: cilium is already at its latest patch, so the infrastructure profile does not change.
    expect(hops[1]!.profiles.map((p) => p.role)).toEqual(['addon']);
  });
});

describe('latestPatch', () => {
  it.each([
    ['1.16.6', ['1.16.6', '1.16.9', '1.17.1'], '1.16.9'],
    ['1.16.9', ['1.16.6', '1.16.9', '1.17.1'], undefined],
    ['1.16.6', ['1.16.x', '1.16.7-spectro.1', '1.16.7'], '1.16.7-spectro.1'],
    ['v1.2.0', ['v1.2.3', '1.3.0'], 'v1.2.3'],
    ['not-a-version', ['1.0.0'], undefined],
  ])('%s in %j → %s', (from, tags, expected) => {
    expect(latestPatch(from, tags)).toBe(expected);
  });
});
