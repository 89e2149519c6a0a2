/**
 * A rule whose setting a profile variable holds (`'{{.spectro.var.INGRESS_IP}}'`) is judged on the
 * cluster's value of the variable, and its remedy is that value, never a literal over the reference.
 */
import { describe, expect, it } from 'vitest';
import { RuleSpecSchema } from '../../src/values/rule-schema.js';
import { evaluateThroughVariables, variableFix, variableReference, variablesAt, withValues, type ClusterVariable, type VariableView } from '../../src/values/rule-variables.js';
import { parseValues } from '../../src/values/values-document.js';

const rule = RuleSpecSchema.parse({
  id: 'ingress-fixed-address',
  title: 'Ingress controller keeps its fixed address',
  profile: 'addon',
  pack: 'nginx',
  path: 'charts.ingress-nginx.controller.service.loadBalancerIP',
  assert: 'equals',
  value: '10.1.0.50',
  reason: 'Stable address for DNS records',
});

const nginx = (ip: string) => `charts:\n  ingress-nginx:\n    controller:\n      service:\n        loadBalancerIP: ${ip}\n`;
const held = nginx("'{{.spectro.var.INGRESS_IP}}'");
const view = (...vars: ClusterVariable[]): VariableView => new Map(vars.map((v) => [v.name, v]));
const ingress = (over: Partial<ClusterVariable> = {}): ClusterVariable => ({ name: 'INGRESS_IP', sensitive: false, value: '10.1.0.50', ...over });

describe('variableReference: a whole value that is one profile variable', () => {
  it.each([
    ['{{.spectro.var.INGRESS_IP}}', 'INGRESS_IP'],
    ['{{ .spectro.var.INGRESS_IP }}', 'INGRESS_IP'],
    [' {{.spectro.var.a_b1}} ', 'a_b1'],
    ['{{.spectro.system.cluster.uid}}', undefined],
    ['10.1.0.50', undefined],
    ['http://{{.spectro.var.HOST}}', undefined],
    ['{{.spectro.var.INGRESS_IP | default "x"}}', undefined],
    [42, undefined],
  ])('%j → %j', (value, name) => expect(variableReference(value)).toBe(name));
});

describe('evaluateThroughVariables: the rule on the cluster\'s value of the variable', () => {
  it.each([
    { case: 'met: the cluster\'s value is the rule\'s', values: held, vars: view(ingress()), status: 'pass', actual: 'via profile variable INGRESS_IP (this cluster: 10.1.0.50)', state: 'value' },
    { case: 'unmet: the cluster\'s value differs', values: held, vars: view(ingress({ value: '10.9.9.9' })), status: 'fail', actual: 'via profile variable INGRESS_IP (this cluster: 10.9.9.9)', state: 'value' },
    { case: 'variable undeclared on the profile: judged as the text it is', values: held, vars: view(), status: 'fail', actual: 'a reference to profile variable INGRESS_IP, which the profile does not declare', state: 'undeclared' },
    { case: 'sensitive: masked, not judged on a value', values: held, vars: view(ingress({ sensitive: true, value: undefined })), status: 'fail', actual: 'via sensitive profile variable INGRESS_IP (this cluster: masked by Palette, not checked)', state: 'masked' },
    { case: 'no value for this cluster: the declared default stands', values: held, vars: view(ingress({ value: undefined, defaultValue: '10.1.0.50' })), status: 'pass', actual: 'via profile variable INGRESS_IP (this cluster: no value set, its default 10.1.0.50 stands)', state: 'unset' },
    { case: 'no value and no default: nothing to match', values: held, vars: view(ingress({ value: undefined })), status: 'fail', actual: 'via profile variable INGRESS_IP (this cluster: no value set)', state: 'unset' },
    { case: 'reference replaced by the new defaults\' literal: the literal is judged', values: nginx('10.9.9.9'), vars: view(ingress()), status: 'fail', actual: '"10.9.9.9"', state: undefined },
    { case: 'a literal equal to the rule\'s value', values: nginx('"10.1.0.50"'), vars: view(ingress({ value: '10.9.9.9' })), status: 'pass', actual: '"10.1.0.50"', state: undefined },
  ])('$case', ({ values, vars, status, actual, state }) => {
    const { result, via } = evaluateThroughVariables(rule, { values }, vars);
    expect(result.status).toBe(status);
    expect(result.actual).toBe(actual);
    expect(via[0]?.state).toBe(state);
  });

  it('without a view (the spec\'s API has no variables) the reference is judged as text', () => {
    const { result, via } = evaluateThroughVariables(rule, { values: held }, undefined);
    expect(result).toMatchObject({ status: 'fail', actual: '"{{.spectro.var.INGRESS_IP}}"' });
    expect(via).toEqual([]);
  });

  it('a value a chosen fix sets is what the rule sees after (withValues)', () => {
    const after = withValues(view(ingress({ value: '10.9.9.9' })), [{ name: 'INGRESS_IP', value: '10.1.0.50' }]);
    expect(evaluateThroughVariables(rule, { values: held }, after).result.status).toBe('pass');
    // A value for a variable the profile does not declare adds nothing.
    expect(withValues(view(), [{ name: 'INGRESS_IP', value: '10.1.0.50' }])?.size).toBe(0);
  });
});

describe('variableFix: the remedy is the cluster\'s value of the variable', () => {
  const via = (vars: VariableView) => variablesAt(rule, parseValues(held), vars);
  it.each([
    { case: 'differs: set this cluster\'s value to the rule\'s', vars: view(ingress({ value: '10.9.9.9' })), fix: [{ name: 'INGRESS_IP', value: '10.1.0.50' }] },
    { case: 'no value set: set it', vars: view(ingress({ value: undefined })), fix: [{ name: 'INGRESS_IP', value: '10.1.0.50' }] },
    { case: 'already the rule\'s: nothing', vars: view(ingress()), fix: [] },
    { case: 'sensitive: nothing offered (it cannot be read back)', vars: view(ingress({ sensitive: true, value: undefined })), fix: [] },
    { case: 'undeclared: nothing offered (declare it first)', vars: view(), fix: [] },
  ])('$case', ({ vars, fix }) => expect(variableFix(rule, via(vars))).toEqual(fix));

  it('only an `equals` with a scalar value has a variable remedy', () => {
    const contains = RuleSpecSchema.parse({ ...rule, assert: 'contains', value: '10.1' });
    expect(variableFix(contains, via(view(ingress({ value: '10.9.9.9' }))))).toEqual([]);
  });
});
