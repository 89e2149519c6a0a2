/**
 * Customization on a profile that holds the ingress address as a Palette profile variable: the rule
 * is judged on the cluster's value, the draft keeps the reference whatever is chosen, and the remedy
 * for a value that differs is the cluster's value of the variable (sent with the apply).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ParamsSchema } from '../../../src/engine/params.js';
import type { PlanContract } from '../../../src/steps/contracts.js';
import { computeCustomizations } from '../../../src/steps/customize/compute.js';
import type { PackSources } from '../../../src/steps/customize/sources.js';
import { decisionKey, type DecisionMap, type FixChoices } from '../../../src/steps/customize/types.js';
import { RuleSpecSchema } from '../../../src/values/rule-schema.js';
import type { ClusterVariable } from '../../../src/values/rule-variables.js';
import { ValuesSettingsSchema } from '../../../src/values/settings-schema.js';

const PATH = 'charts.ingress-nginx.controller.service.loadBalancerIP';
const nginx = (ip: string, extra = '') => `charts:\n  ingress-nginx:\n    controller:\n${extra}      service:\n        loadBalancerIP: ${ip}\n`;
const deployed = nginx("'{{.spectro.var.INGRESS_IP}}'");

const site = ParamsSchema.parse({
  palette: { baseUrl: 'https://palette.example', projectUid: 'p1', flavor: 'palette' },
  cluster: { uid: 'c1' },
  profiles: { addon: { uid: 'addon-1' }, infra: { uid: 'infra-1' } },
  target: '4.6.3',
  site: { ingressIP: '10.1.0.50', blockStorageClass: 'px-vm-block' },
});

const rule = RuleSpecSchema.parse({
  id: 'ingress-fixed-address',
  title: 'Ingress controller keeps its fixed address',
  profile: 'addon',
  kind: 'ingress',
  packs: { nginx: { path: PATH } },
  assert: 'equals',
  value: '10.1.0.50',
  reason: 'Stable address for DNS records',
});

const plan = {
  flavor: 'palette',
  hops: [{ index: 1, from: '4.5.4', to: '4.6.3', profiles: [{ role: 'addon', uid: 'addon-1', name: 'vmo-core-addon', fromVersion: '1.5.0', toVersion: '1.6.0', packs: [{ name: 'nginx', from: '1.11.3', to: '1.12.1' }] }] }],
} as unknown as PlanContract;

/** The profile as deployed, and the registry's defaults of each nginx version (the address empty in both). */
const sources = {
  profile: async () => ({ name: 'vmo-core-addon', version: '1.5.0', packs: [{ name: 'nginx', tag: '1.11.3', values: deployed, manifests: [], registryUid: 'r1' }] }),
  fromProfile: async (_uid: string, _pack: string, tag?: string) => (tag === undefined || tag === '1.11.3' ? { values: deployed, manifests: [], from: 'the deployed profile' } : undefined),
  fromRegistry: async (_uid: string, _pack: string, tag: string) => ({ values: nginx('""', tag === '1.12.1' ? '      enableTopologyAwareRouting: false\n' : ''), manifests: [], from: `nginx ${tag} in the registry` }),
  fromFolder: () => undefined,
} as unknown as PackSources;

async function customize(variable: Partial<ClusterVariable>, opts: { fixes?: FixChoices; decisions?: DecisionMap } = {}) {
  const view = new Map([['INGRESS_IP', { name: 'INGRESS_IP', sensitive: false, ...variable }]]);
  const out = await computeCustomizations({ plan, site, rules: [rule], settings: ValuesSettingsSchema.parse({}), sources, decisions: opts.decisions ?? {}, fixes: opts.fixes ?? {}, variables: { addon: view, infra: new Map() } });
  const addon = out.byHop[0]!.profiles.find((p) => p.role === 'addon')!;
  const draft = addon.packs.find((p) => p.name === 'nginx')!;
  const address = (parse(draft.values) as { charts: { 'ingress-nginx': { controller: { service: { loadBalancerIP: string } } } } }).charts['ingress-nginx'].controller.service.loadBalancerIP;
  return { out, rule: addon.rules.find((r) => r.id === rule.id)!, fix: addon.fixes.find((f) => f.rule === rule.id), address };
}

describe('customize: a rule whose setting is a profile variable', () => {
  it('met through the cluster\'s value: green, said so, and the draft keeps the reference', async () => {
    const r = await customize({ value: '10.1.0.50' });
    expect(r.rule).toMatchObject({ status: 'pass', before: 'pass', variables: [{ name: 'INGRESS_IP', state: 'value', value: '10.1.0.50' }] });
    expect(r.rule.message).toBe('nginx (draft): via profile variable INGRESS_IP (this cluster: 10.1.0.50)');
    expect(r.fix).toBeUndefined();
    expect(r.address).toBe('{{.spectro.var.INGRESS_IP}}');
  });

  it('the cluster\'s value differs: amber, and the fix offered is the cluster\'s value of the variable, not a literal in the shared draft', async () => {
    const r = await customize({ value: '10.9.9.9' });
    expect(r.rule).toMatchObject({ status: 'notOnSite', before: 'fail' });
    expect(r.rule.message).toContain('via profile variable INGRESS_IP (this cluster: 10.9.9.9)');
    expect(r.fix).toMatchObject({ accepted: false, items: [], variables: [{ name: 'INGRESS_IP', value: '10.1.0.50' }] });
    expect(r.fix!.effect).toMatch(/sets this cluster's value of the profile variable INGRESS_IP with the apply \(the shared profile keeps the reference\)/);
    expect(r.address).toBe('{{.spectro.var.INGRESS_IP}}');
  });

  it('that fix chosen: the rule holds by it, the draft still holds the reference (no value of one cluster in the shared version)', async () => {
    const r = await customize({ value: '10.9.9.9' }, { fixes: { 'ingress-fixed-address': { by: 'flag', flag: '--accept-fix ingress-fixed-address' } } });
    expect(r.rule).toMatchObject({ status: 'pass', verdict: 'not on this site before the upgrade; added by the fix that was chosen' });
    expect(r.fix).toMatchObject({ accepted: true, variables: [{ name: 'INGRESS_IP', value: '10.1.0.50' }] });
    expect(r.address).toBe('{{.spectro.var.INGRESS_IP}}');
    expect(r.out.byHop[0]!.profiles.flatMap((p) => p.additions)).toEqual([]);
  });

  it('sensitive (masked by Palette): not judged on a value, said so (amber), nothing offered, the reference kept', async () => {
    const r = await customize({ sensitive: true });
    expect(r.rule).toMatchObject({ status: 'notOnSite', verdict: 'kept as a sensitive profile variable; Palette masks its value for this cluster, so the rule was not checked', variables: [{ name: 'INGRESS_IP', state: 'masked' }] });
    expect(r.fix).toBeUndefined();
    expect(r.address).toBe('{{.spectro.var.INGRESS_IP}}');
  });

  it('the reference replaced by the new default (take new): the site held it through the variable, so the draft loses it (red)', async () => {
    const r = await customize({ value: '10.1.0.50' }, { decisions: { [decisionKey(1, 'addon', 'nginx', PATH)]: 'takeNew' } });
    expect(r.address).toBe('');
    expect(r.rule).toMatchObject({ status: 'fail', before: 'pass', verdict: 'held before the upgrade and would be lost by the draft' });
    expect(r.out.ruleFailures).toBe(1);
  });
});
