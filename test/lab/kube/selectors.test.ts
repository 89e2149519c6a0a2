import { describe, expect, it } from 'vitest';
import { fieldMatcher, fieldValue, labelMatcher, parseFieldSelector, parseLabelSelector } from '../../../src/lab/kube/selectors.js';
import { KubeStatusException } from '../../../src/lab/kube/status.js';

const labels = { app: 'web', tier: 'frontend', 'kubevirt.io/outdatedLauncherImage': '', replicas: '3' };

describe('label selectors', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['kubevirt.io/outdatedLauncherImage', true],
    ['kubevirt.io/outdatedLauncherImage=', true],
    ['app in (db,web)', true],
    ['app in (db)', false],
    ['app notin (db)', true],
    ['app notin (db, web)', false],
    ['missing notin (x)', true],
    ['missing in (x)', false],
    ['app=web,tier=frontend', true],
    ['app=web,tier=backend', false],
    [' app = web , tier in ( frontend ) ', true],
    ['replicas>2', true],
    ['replicas<3', false],
    ['app>1', false],
  ])('%j matches: %s', (selector, expected) => {
    expect(labelMatcher(selector)(labels)).toBe(expected);
  });

  it('treats objects without labels as having none', () => {
    expect(labelMatcher('app')(undefined)).toBe(false);
    expect(labelMatcher('!app')(undefined)).toBe(true);
    expect(labelMatcher('app!=web')(undefined)).toBe(true);
  });

  it('parses into requirements', () => {
    expect(parseLabelSelector('a=b,!c,d in (x,,y),e notin (z),f')).toEqual([
      { key: 'a', operator: 'in', values: ['b'] },
      { key: 'c', operator: 'doesnotexist', values: [] },
      { key: 'd', operator: 'in', values: ['x', '', 'y'] },
      { key: 'e', operator: 'notin', values: ['z'] },
      { key: 'f', operator: 'exists', values: [] },
    ]);
  });

  it.each([
    ['app=', 'empty value is valid', false],
    ['=web', 'missing key', true],
    ['app in ()', 'empty set', true],
    ['app in (a', 'unclosed set', true],
    ['app in a', 'set without parentheses', true],
    ['app=web,', 'trailing comma', true],
    ['app web', 'two identifiers', true],
    ['app=we b', 'value with a space', true],
    ['-app=web', 'key starting with a dash', true],
    ['app=-web', 'value starting with a dash', true],
    ['Bad_Prefix.io/app=x', 'upper-case prefix', true],
    ['replicas>x', 'non-integer bound', true],
    ['!', 'bare negation', true],
  ])('%j (%s) fails to parse: %s', (selector, _why, fails) => {
    const parse = (): unknown => parseLabelSelector(selector);
    if (fails) {
      expect(parse).toThrow(KubeStatusException);
      try {
        parse();
      } catch (err) {
        expect((err as KubeStatusException).status).toMatchObject({ code: 400, reason: 'BadRequest' });
      }
    } else {
      expect(parse).not.toThrow();
    }
  });
});

describe('field selectors', () => {
  const pod = { metadata: { name: 'p1', namespace: 'ns' }, spec: { nodeName: 'n1', hostNetwork: false }, status: { phase: 'Running' } };
  const unscheduled = { metadata: { name: 'p2', namespace: 'ns' }, spec: {}, status: { phase: 'Pending' } };

  it.each([
    ['', pod, true],
    ['metadata.name=p1', pod, true],
    ['metadata.name==p1', pod, true],
    ['metadata.name=p2', pod, false],
    ['metadata.namespace=ns,status.phase=Running', pod, true],
    ['status.phase!=Running', pod, false],
    ['status.phase!=Running,status.phase!=Succeeded', unscheduled, true],
    ['spec.nodeName=', unscheduled, true],
    ['spec.nodeName=', pod, false],
    ['spec.nodeName!=', pod, true],
    ['spec.hostNetwork=false', pod, true],
    ['spec.deep.missing.path=', pod, true],
  ])('%j on %o: %s', (selector, obj, expected) => {
    expect(fieldMatcher(selector)(obj)).toBe(expected);
  });

  it('honours escapes in values', () => {
    const obj = { metadata: { name: 'a,b=c' } };
    expect(parseFieldSelector('metadata.name=a\\,b\\=c')).toEqual([{ path: 'metadata.name', operator: '=', value: 'a,b=c' }]);
    expect(fieldMatcher('metadata.name=a\\,b\\=c')(obj)).toBe(true);
  });

  it.each(['metadata.name', '=x', 'a=b,c', 'metadata.name=a\\x'])('refuses %j with 400', (selector) => {
    expect(() => parseFieldSelector(selector)).toThrow(KubeStatusException);
  });

  it('reads scalars as text and everything else as empty', () => {
    const obj = { a: { n: 3, b: true, o: { x: 1 }, arr: [1] } };
    expect(fieldValue(obj, 'a.n')).toBe('3');
    expect(fieldValue(obj, 'a.b')).toBe('true');
    expect(fieldValue(obj, 'a.o')).toBe('');
    expect(fieldValue(obj, 'a.arr')).toBe('');
    expect(fieldValue(obj, 'nope.deeper')).toBe('');
  });
});
