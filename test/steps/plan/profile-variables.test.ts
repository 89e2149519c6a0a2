/**
 * What the plan says of the profile variables the cluster's profiles use, and which of them plain
 * mode needs a source for before anything is written (a sensitive one: masked, so not carried).
 */
import { describe, expect, it } from 'vitest';
import { VariableValues } from '../../../src/palette/variable-values.js';
import type { PlanContract } from '../../../src/steps/contracts.js';
import { missingVariableSources } from '../../../src/steps/customize/variable-sources.js';
import { profileVariableLines, profileVariables } from '../../../src/steps/plan/profile-variables.js';
import { variableReferences, type ClusterVariable } from '../../../src/values/rule-variables.js';

const nginx = { name: 'nginx', values: "charts:\n  ingress-nginx:\n    controller:\n      service:\n        loadBalancerIP: '{{.spectro.var.INGRESS_IP}}'\n" };
const vmo = { name: 'vmo', values: "a:\n  password: '{{ .spectro.var.ADMIN_PASSWORD }}'\n  hosts: ['{{.spectro.var.INGRESS_IP}}', x]\n  uid: '{{ .spectro.system.cluster.uid }}'\n  url: 'https://{{.spectro.var.HOST}}'\n  zone: '{{.spectro.var.ZONE}}'\n" };
const view = (...vars: ClusterVariable[]) => new Map(vars.map((v) => [v.name, v]));

describe('variableReferences', () => {
  it('finds each whole reference with its path, not macros or references inside a longer text', () => {
    expect(variableReferences([nginx, vmo, { name: 'bad', values: 'a: [' }])).toEqual([
      { name: 'INGRESS_IP', pack: 'nginx', path: 'charts.ingress-nginx.controller.service.loadBalancerIP' },
      { name: 'ADMIN_PASSWORD', pack: 'vmo', path: 'a.password' },
      { name: 'INGRESS_IP', pack: 'vmo', path: 'a.hosts[0]' },
      { name: 'ZONE', pack: 'vmo', path: 'a.zone' },
    ]);
  });
});

describe('profileVariables: one entry per variable, with this cluster\'s value', () => {
  const vars = profileVariables('addon', 'vmo-core-addon', [nginx, vmo], view({ name: 'INGRESS_IP', sensitive: false, value: '10.1.0.50' }, { name: 'ADMIN_PASSWORD', sensitive: true }));
  it.each([
    ['INGRESS_IP', { state: 'value', value: '10.1.0.50', at: ['nginx `charts.ingress-nginx.controller.service.loadBalancerIP`', 'vmo `a.hosts[0]`'] }],
    ['ADMIN_PASSWORD', { state: 'masked', at: ['vmo `a.password`'] }],
    ['ZONE', { state: 'undeclared', at: ['vmo `a.zone`'] }],
  ])('%s', (name, expected) => expect(vars.find((v) => v.name === name)).toEqual({ role: 'addon', profile: 'vmo-core-addon', name, ...expected }));

  it('the plan\'s lines say the value, and that a sensitive one is asked at the apply gate', () => {
    const lines = profileVariableLines(vars);
    expect(lines).toContain('  vmo-core-addon: via profile variable INGRESS_IP (this cluster: 10.1.0.50), at nginx `charts.ingress-nginx.controller.service.loadBalancerIP`, vmo `a.hosts[0]`');
    expect(lines.find((l) => l.includes('ADMIN_PASSWORD'))).toMatch(/masked by Palette.*cannot be carried: its value is asked at the apply gate \(plain mode: --variable ADMIN_PASSWORD=env:VAR\|file:PATH\)/);
    expect(profileVariableLines([])).toEqual([]);
  });

  it('plain mode needs a source for a sensitive one before anything is written, unless it has one', () => {
    const plan = { flavor: 'palette', hops: [{ index: 1, from: '4.5.4', to: '4.6.3', profiles: [] }], profileVariables: vars } as unknown as PlanContract;
    expect(missingVariableSources(plan, new VariableValues())).toEqual([{ name: 'ADMIN_PASSWORD', hop: 1 }]);
    expect(missingVariableSources(plan, new VariableValues({ sources: { ADMIN_PASSWORD: { env: 'PW' } }, env: { PW: 'x' } }))).toEqual([]);
    expect(missingVariableSources(plan, new VariableValues({ canAsk: true }))).toEqual([]);
  });
});
