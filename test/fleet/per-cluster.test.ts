/** Values that differ per cluster: which reach a shared profile as a variable, which need a cluster's own profile, which no profile holds. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledRunbook } from '../../src/engine/bundled-runbook.js';
import { profilesToRead, perClusterLines, perClusterValues, type ClusterValues, type VariableBindings } from '../../src/fleet/per-cluster.js';
import { bindingsOf, paramRules, variableAt } from '../../src/fleet/variable-bindings.js';

const rules = paramRules(readFileSync(bundledRunbook(), 'utf8'));

const cluster = (name: string, site: Record<string, unknown>, more: Record<string, unknown> = {}, addon = 'a-1'): ClusterValues => ({
  name,
  raw: { cluster: { uid: `u-${name}`, name, kubeconfig: `/k/${name}` }, target: '4.6.3', profiles: { addon: { uid: addon }, infra: { uid: 'i-1' } }, site: { blockStorageClass: 'px-vm-block', ...site }, ...more },
});

const none: VariableBindings = new Map();
const bound: VariableBindings = new Map([['a-1', new Map([['ingress-fixed-address', 'INGRESS_IP']])]]);

describe('paramRules', () => {
  it('finds the bundled rules that take a params key, with where each pack keeps the setting', () => {
    expect(rules.map((r) => [r.id, r.role, r.key])).toEqual([
      ['ingress-fixed-address', 'addon', 'site.ingressIP'],
      ['storage-class-name', 'infra', 'site.blockStorageClass'],
      ['storage-class-parameters', 'infra', 'site.storageClassParameters'],
    ]);
    expect(rules[0]!.paths).toEqual({ nginx: 'charts.ingress-nginx.controller.service.loadBalancerIP' });
  });
});

describe('perClusterValues', () => {
  it.each([
    ['the same values everywhere', [cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.1' })], none, []],
    ['identity and access only (always the cluster\'s own)', [cluster('s1', {}), cluster('s2', {})], none, []],
    [
      'an ingress address the shared add-on profile carries as a variable',
      [cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })],
      bound,
      [{ key: 'site.ingressIP', reach: [{ how: 'variable', role: 'addon', profile: 'a-1', variable: 'INGRESS_IP', clusters: ['s1', 's2'] }] }],
    ],
    [
      'an ingress address with no variable on the shared profile',
      [cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })],
      none,
      [{ key: 'site.ingressIP', reach: [{ how: 'cluster-profile', role: 'addon', profile: 'a-1', clusters: ['s1', 's2'] }] }],
    ],
    [
      'an ingress address on clusters with add-on profiles of their own (nothing shared to carry it)',
      [cluster('s1', { ingressIP: '10.0.0.1' }, {}, 'a-1'), cluster('s2', { ingressIP: '10.0.0.2' }, {}, 'a-2')],
      none,
      [
        { key: 'profiles.addon', reach: [{ how: 'own-profiles', role: 'addon', profiles: [{ uid: 'a-1', clusters: ['s1'] }, { uid: 'a-2', clusters: ['s2'] }] }] },
        { key: 'site.ingressIP', reach: [{ how: 'own-versions' }] },
      ],
    ],
    [
      'one storage parameter, bound to no variable of the shared infra profile (the infra profile\'s variable does not help)',
      [cluster('s1', { storageClassParameters: { repl: '3' } }), cluster('s2', { storageClassParameters: { repl: '2' } })],
      new Map([['i-1', new Map([['storage-class-name', 'SC_NAME']])]]),
      [{ key: 'site.storageClassParameters.repl', reach: [{ how: 'cluster-profile', role: 'infra', profile: 'i-1', clusters: ['s1', 's2'] }] }],
    ],
    [
      'a value no profile holds (verification only)',
      [cluster('s1', { loadBalancerServices: ['a/b'] }), cluster('s2', { loadBalancerServices: ['c/d'] })],
      none,
      [{ key: 'site.loadBalancerServices', reach: [{ how: 'session' }] }],
    ],
    [
      'a pack version path that shapes the shared version',
      [cluster('s1', {}, { moveWith: { nginx: 'latest-patch' } }), cluster('s2', {}, { moveWith: { nginx: { '4.6.3': '1.12.1' } } })],
      none,
      [
        {
          key: 'moveWith',
          reach: [
            { how: 'cluster-profile', role: 'infra', profile: 'i-1', clusters: ['s1', 's2'] },
            { how: 'cluster-profile', role: 'addon', profile: 'a-1', clusters: ['s1', 's2'] },
          ],
        },
      ],
    ],
    [
      'a value that differs only between clusters on different profiles, not within the shared one',
      [cluster('s1', { ingressIP: '10.0.0.1' }, {}, 'a-1'), cluster('s2', { ingressIP: '10.0.0.1' }, {}, 'a-1'), cluster('s3', { ingressIP: '10.0.0.9' }, {}, 'a-2')],
      none,
      [
        { key: 'profiles.addon', reach: [{ how: 'own-profiles', role: 'addon', profiles: [{ uid: 'a-1', clusters: ['s1', 's2'] }, { uid: 'a-2', clusters: ['s3'] }] }] },
        { key: 'site.ingressIP', reach: [{ how: 'own-versions' }] },
      ],
    ],
  ])('%s', (_name, clusters, bindings, want) => {
    const got = perClusterValues(clusters, rules, bindings).map((v) => ({ key: v.key, reach: v.reach.map((r) => (r.how === 'cluster-profile' ? { how: r.how, role: r.role, profile: r.profile, clusters: r.clusters } : r)) }));
    expect(got).toEqual(want);
  });

  it('asks for Palette only when a rule-written value differs within a shared profile', () => {
    const differs = perClusterValues([cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })], rules, none);
    expect(profilesToRead(differs)).toEqual([{ uid: 'a-1', role: 'addon' }]);
    expect(profilesToRead(perClusterValues([cluster('s1', { loadBalancerServices: ['a/b'] }), cluster('s2', {})], rules, none))).toEqual([]);
  });

  it('says a credential differs without showing it', () => {
    const got = perClusterValues([cluster('s1', {}, { notify: { webhooks: ['https://hooks.example/T/B/secret-1'] } }), cluster('s2', {}, { notify: { webhooks: ['https://hooks.example/T/B/secret-2'] } })], rules, none);
    expect(got.map((v) => v.key)).toEqual(['notify.webhooks']);
    expect(JSON.stringify(got)).not.toMatch(/secret-/);
  });

  it('says in the plan which clusters need their own profile, and that rules are checked per cluster', () => {
    const lines = perClusterLines(perClusterValues([cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })], rules, none));
    expect(lines.join('\n')).toMatch(/customization rules are checked per cluster/);
    expect(lines.join('\n')).toMatch(/site.ingressIP: s1 10.0.0.1, s2 10.0.0.2\n\s+needs a cluster-specific addon profile for s1, s2 \(they share a-1\): rule ingress-fixed-address writes it/);
    expect(perClusterLines(perClusterValues([cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })], rules, bound)).join('\n')).toMatch(/a Palette profile variable: the shared addon profile a-1 declares INGRESS_IP for it; each cluster's own value \(s1, s2\) is the cluster's value of INGRESS_IP in Palette/);
    const unread = perClusterLines(perClusterValues([cluster('s1', { ingressIP: '10.0.0.1' }), cluster('s2', { ingressIP: '10.0.0.2' })], rules, none), { unread: new Set(['a-1']), names: new Map([['a-1', 'vmo-core-addon']]) });
    expect(unread.join('\n')).toMatch(/a Palette profile variable if the shared addon profile vmo-core-addon \(a-1\) declares one for that setting \(rule ingress-fixed-address\), else a cluster-specific addon profile for s1, s2: not read from Palette/);
  });
});

describe('variableAt / bindingsOf', () => {
  const nginx = "charts:\n  ingress-nginx:\n    controller:\n      service:\n        loadBalancerIP: '{{.spectro.var.INGRESS_IP}}'\n";
  it.each([
    ['a whole reference', nginx, 'INGRESS_IP'],
    ['spaces inside the braces', nginx.replace('{{.spectro.var.INGRESS_IP}}', '{{ .spectro.var.INGRESS_IP }}'), 'INGRESS_IP'],
    ['a literal address', nginx.replace("'{{.spectro.var.INGRESS_IP}}'", '10.0.0.1'), undefined],
    ['a reference inside text (not the whole value)', nginx.replace('{{.spectro.var.INGRESS_IP}}', 'ip-{{.spectro.var.INGRESS_IP}}'), undefined],
    ['a system macro, not a profile variable', nginx.replace('.spectro.var.INGRESS_IP', '.spectro.system.cluster.name'), undefined],
    ['no such setting', 'charts: {}\n', undefined],
    ['values that do not parse', 'charts: [\n', undefined],
  ])('%s', (_name, values, want) => {
    expect(variableAt(values, 'charts.ingress-nginx.controller.service.loadBalancerIP')).toBe(want);
  });

  it('binds a rule only to a variable the profile declares, on a pack of the rule', () => {
    expect(bindingsOf([{ name: 'nginx', values: nginx }], ['INGRESS_IP'], rules, 'addon')).toEqual(new Map([['ingress-fixed-address', 'INGRESS_IP']]));
    expect(bindingsOf([{ name: 'nginx', values: nginx }], [], rules, 'addon')).toEqual(new Map());
    expect(bindingsOf([{ name: 'other-ingress', values: nginx }], ['INGRESS_IP'], rules, 'addon')).toEqual(new Map());
  });
});
