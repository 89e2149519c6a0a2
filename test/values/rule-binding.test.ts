import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ParamsSchema } from '../../src/engine/params.js';
import { bindRule } from '../../src/values/rule-binding.js';
import { RuleSpecSchema, type RuleSpec } from '../../src/values/rule-schema.js';
import { evaluateRule } from '../../src/values/rules.js';

const storageRule = RuleSpecSchema.parse({
  id: 'storage-no-license-activation',
  title: 'No storage license activation',
  profile: 'infra',
  kind: 'storage',
  packs: {
    'csi-portworx-generic': { path: 'charts.portworx-generic.activateLicense' },
    'csi-rook-ceph-helm': { notApplicable: 'Rook-Ceph has no licence to activate' },
  },
  assert: 'equals',
  value: false,
  reason: 'No license activation on non-production clusters',
});

const controlPlane = RuleSpecSchema.parse({
  id: 'storage-run-on-control-plane',
  title: 'Storage may run on control-plane nodes',
  profile: 'infra',
  kind: 'storage',
  packs: {
    'csi-portworx-generic': { path: 'charts.portworx-generic.storageCluster.annotations["portworx.io/run-on-master"]' },
    'csi-rook-ceph-helm': { path: 'charts.rook-ceph-cluster.cephClusterSpec.placement.all.tolerations', assert: 'contains', value: { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' } },
  },
  assert: 'equals',
  value: 'true',
  reason: 'Storage may run on control plane nodes',
});

const kinds = (over: Record<string, unknown> = {}) => ParamsSchema.shape.packs.parse(over);
const ctx = (held: string[], over: Record<string, unknown> = {}) => ({ kinds: kinds(over), held, profileName: 'infrastructure' });

describe('bindRule: which pack plays the kind, and where it keeps the setting', () => {
  it.each<{ name: string; rule: RuleSpec; held: string[]; packs?: Record<string, unknown>; expected: unknown }>([
    {
      name: 'the params’ pack, at its own path',
      rule: storageRule,
      held: ['kubernetes', 'csi-portworx-generic'],
      expected: { applies: true, rule: expect.objectContaining({ pack: 'csi-portworx-generic', path: 'charts.portworx-generic.activateLicense' }) },
    },
    {
      name: 'a setting the site’s pack does not have: not applicable, with the reason',
      rule: storageRule,
      held: ['csi-rook-ceph-helm'],
      packs: { storage: 'csi-rook-ceph-helm' },
      expected: { applies: false, pack: 'csi-rook-ceph-helm', reason: 'Rook-Ceph has no licence to activate' },
    },
    {
      name: 'a kind the site does not run (packs.storage: none)',
      rule: storageRule,
      held: ['kubernetes'],
      packs: { storage: 'none' },
      expected: { applies: false, reason: 'the site runs no storage pack (packs.storage: none)' },
    },
    {
      name: 'a kind whose pack is not in the profile',
      rule: storageRule,
      held: ['kubernetes', 'cni-cilium-oss'],
      expected: { applies: false, reason: 'the infrastructure profile holds no storage pack (packs.storage: csi-portworx-generic)' },
    },
    {
      name: 'the params kept the default pack, but the profile holds another pack the rule knows: that one is checked, and the params named',
      rule: controlPlane,
      held: ['csi-rook-ceph-helm'],
      expected: {
        applies: true,
        rule: expect.objectContaining({ pack: 'csi-rook-ceph-helm', assert: 'contains', value: { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' } }),
        note: 'packs.storage names csi-portworx-generic, which the infrastructure profile does not hold; it holds csi-rook-ceph-helm, checked instead (set packs.storage: csi-rook-ceph-helm)',
      },
    },
    {
      name: 'a pack the rule does not know: not applicable, saying what it knows',
      rule: storageRule,
      held: ['csi-longhorn'],
      packs: { storage: 'csi-longhorn' },
      expected: { applies: false, pack: 'csi-longhorn', reason: 'the rule does not know where csi-longhorn keeps this setting (it knows csi-portworx-generic, csi-rook-ceph-helm); a runbook of your own can add it' },
    },
    {
      name: 'a rule about one named pack (a runbook of your own) that the profile does not hold',
      rule: RuleSpecSchema.parse({ id: 'x', title: 'X', profile: 'infra', pack: 'csi-portworx-generic', path: 'a.b', assert: 'present', reason: 'r' }),
      held: ['kubernetes'],
      expected: { applies: false, pack: 'csi-portworx-generic', reason: 'the infrastructure profile holds no csi-portworx-generic pack' },
    },
    {
      name: 'a named pack that resolved to none (`${params.packs.ingress}` with ingress: none)',
      rule: RuleSpecSchema.parse({ id: 'x', title: 'X', profile: 'addon', pack: null, path: 'a.b', assert: 'present', reason: 'r' }),
      held: ['nginx'],
      expected: { applies: false, reason: 'the params name no pack for it' },
    },
  ])('$name', ({ rule, held, packs, expected }) => {
    expect(bindRule(rule, ctx(held, packs))).toEqual(expected);
  });
});

describe('rules bound to Rook-Ceph, on the real Rook-Ceph values', () => {
  const values = readFileSync('src/lab/data/packs/csi-rook-ceph-helm-1.16.3.yaml', 'utf8');
  const bound = (r: RuleSpec) => {
    const b = bindRule(r, ctx(['csi-rook-ceph-helm'], { storage: 'csi-rook-ceph-helm' }));
    if (!b.applies) throw new Error(b.reason);
    return b.rule;
  };

  it('the control-plane toleration: absent in the defaults (red); held with the effect added by the site (green)', () => {
    expect(evaluateRule(bound(controlPlane), { values }).status).toBe('fail');
    const site = values.replace('    cephClusterSpec:\n', '    cephClusterSpec:\n      placement:\n        all:\n          tolerations:\n            - { key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule }\n');
    expect(evaluateRule(bound(controlPlane), { values: site })).toMatchObject({ status: 'pass', pack: 'csi-rook-ceph-helm' });
  });

  it('the bundled runbook parses, and every storage rule knows Portworx and Rook-Ceph', () => {
    const rules = (parse(readFileSync('runbooks/vmo-upgrade.yaml', 'utf8')) as { rules: Array<Record<string, unknown>> }).rules;
    const storage = rules.filter((r) => r.kind === 'storage');
    expect(storage).toHaveLength(7);
    for (const r of storage) expect(Object.keys(r.packs as object).sort()).toEqual(['csi-portworx-generic', 'csi-rook-ceph-helm']);
  });
});

describe('RuleSpecSchema', () => {
  const base = { id: 'r', title: 'R', profile: 'infra', assert: 'present', reason: 'why' };
  it.each([
    [{ ...base, kind: 'storage', path: 'a' }, true],
    [{ ...base, kind: 'storage', packs: { p: { path: 'a' } } }, true],
    [{ ...base, pack: 'p', kind: 'storage', path: 'a' }, false],
    [{ ...base, path: 'a' }, false],
    [{ ...base, pack: 'p', packs: { p: { path: 'a' } } }, false],
    [{ ...base, kind: 'storage', packs: { p: { path: 'a', notApplicable: 'n' } } }, false],
    [{ ...base, kind: 'storage', packs: { p: { path: 'a', assert: 'equals' } } }, false],
    [{ ...base, kind: 'kubernetes', path: 'a' }, false],
  ])('%j → valid %s', (rule, valid) => {
    expect(RuleSpecSchema.safeParse(rule).success).toBe(valid);
  });
});
