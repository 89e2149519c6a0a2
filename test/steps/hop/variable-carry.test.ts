/** What the apply sends of the cluster's profile-variable values when it moves to a new version uid. */
import { describe, expect, it } from 'vitest';
import { carryLines, variableCarry, type VariableCarryInput } from '../../../src/steps/hop/variable-carry.js';
import type { ClusterVariable } from '../../../src/values/rule-variables.js';

const view = (...vars: ClusterVariable[]) => new Map(vars.map((v) => [v.name, v]));
const ip: ClusterVariable = { name: 'INGRESS_IP', sensitive: false, value: '10.1.0.50' };
const secret: ClusterVariable = { name: 'GRAFANA_PASSWORD', sensitive: true };
const unset: ClusterVariable = { name: 'REGION', sensitive: false, defaultValue: 'east' };
const base: VariableCarryInput = { current: view(ip, secret, unset), declared: ['INGRESS_IP', 'GRAFANA_PASSWORD', 'REGION'], introduced: [], chosen: [] };

describe('variableCarry', () => {
  it.each([
    { case: 'each declared value carried as read; a masked one must be given; an unset one sends nothing', input: base, out: { send: [{ name: 'INGRESS_IP', value: '10.1.0.50', from: 'carried' }], masked: ['GRAFANA_PASSWORD'], unset: ['REGION'] } },
    { case: 'a chosen fix\'s value wins over the carried one', input: { ...base, chosen: [{ name: 'INGRESS_IP', value: '10.1.0.60' }] }, out: { send: [{ name: 'INGRESS_IP', value: '10.1.0.60', from: 'fix' }], masked: ['GRAFANA_PASSWORD'], unset: ['REGION'] } },
    { case: 'a variable the hop introduces is the operator\'s (asked as new), not carried', input: { ...base, introduced: ['GRAFANA_PASSWORD'] }, out: { send: [{ name: 'INGRESS_IP', value: '10.1.0.50', from: 'carried' }], masked: [], unset: ['REGION'] } },
    { case: 'only what the new version declares is sent', input: { ...base, declared: ['INGRESS_IP'] }, out: { send: [{ name: 'INGRESS_IP', value: '10.1.0.50', from: 'carried' }], masked: [], unset: [] } },
    { case: 'declared by the new version only: no value to carry', input: { ...base, current: view(), declared: ['INGRESS_IP'] }, out: { send: [], masked: [], unset: ['INGRESS_IP'] } },
    { case: 'nothing declared: nothing sent', input: { ...base, declared: [] }, out: { send: [], masked: [], unset: [] } },
  ])('$case', ({ input, out }) => expect(variableCarry(input)).toEqual(out));

  it('the gate says what is carried, what a fix sets, and why a sensitive value must be given', () => {
    const lines = carryLines('vmo-core-addon', variableCarry({ ...base, current: view(ip, secret, unset, { name: 'SITE', sensitive: false, value: 'a' }), declared: [...base.declared, 'SITE'], chosen: [{ name: 'SITE', value: 'b' }] }));
    expect(lines).toEqual([
      "The apply carries this cluster's values of vmo-core-addon's profile variables to the new version (Palette keeps a cluster's values per version): INGRESS_IP = 10.1.0.50.",
      "The apply sets this cluster's value of SITE = b (a chosen fix; the shared profile keeps the reference).",
      'GRAFANA_PASSWORD (vmo-core-addon) is sensitive: Palette masks its value, so it cannot be carried to the new version; its value must be given (typed here, or --variable GRAFANA_PASSWORD=env:VAR|file:PATH).',
      'REGION (vmo-core-addon) has no value on this cluster: nothing is sent, the declared default stands.',
    ]);
  });
});
