/** The fleet file: each cluster's params are the defaults with its own on top, checked as a params file; errors name the cluster and the key. */
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/errors.js';
import { loadFleet } from '../../src/fleet/load.js';
import { clusterParams, mergeParams } from '../../src/fleet/merge.js';
import { fileWriter } from '../support/params-text.js';

const file = fileWriter('up-fleet-load-');

const defaults = `defaults:
  palette: { baseUrl: https://api.example.com, projectUid: p-1 }
  profiles: { addon: { uid: a-1 }, infra: { uid: i-1 } }
  site: { ingressIP: 10.10.0.50, blockStorageClass: px-vm-block, loadBalancerServices: [a/b, c/d] }
`;

const fleet = (clusters: string, stages = 'stages:\n  - { name: canary, clusters: [store-001] }\n', head = defaults) => `fleet: edge\ntarget: 4.6.3\n${head}clusters:\n${clusters}${stages}`;

function error(text: string): { message: string; code: number } {
  try {
    loadFleet(file(text));
  } catch (err) {
    return { message: (err as Error).message, code: exitCodeOf(err) };
  }
  throw new Error('the fleet file was accepted');
}

describe('loadFleet', () => {
  it('an unknown key one slip away from a known one says which (the params and runbook loaders say the same)', () => {
    const e = error(fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: canary, clusters: [store-001], maxConcurency: 1 }\n'));
    expect(e.code).toBe(2);
    expect(e.message).toMatch(/unknown key `maxConcurency`: did you mean `maxConcurrency`\?/);
  });

  it("gives each cluster the defaults with its own values on top, its identity, the fleet's target, and absolute paths", () => {
    const f = file(fleet('  - { name: store-001, uid: u-1, kubeconfig: ./kube/store-001, site: { ingressIP: 10.1.0.50, loadBalancerServices: [x/y] } }\n  - { name: store-002, uid: u-2 }\n', 'stages:\n  - { name: canary, clusters: [store-001], maxConcurrency: 1 }\n  - { name: wave-1, clusters: [store-002], failureThreshold: 10%, soak: 1h30m }\n'));
    const loaded = loadFleet(f);
    const [one, two] = loaded.clusters;
    expect(one!.params.cluster).toEqual({ uid: 'u-1', name: 'store-001', kubeconfig: join(dirname(f), 'kube/store-001') });
    expect(one!.params.site.ingressIP).toBe('10.1.0.50');
    // A list is the cluster's own, not the defaults' plus its own.
    expect(one!.params.site.loadBalancerServices).toEqual(['x/y']);
    expect(one!.params.site.blockStorageClass).toBe('px-vm-block');
    expect(two!.params.site.ingressIP).toBe('10.10.0.50');
    expect(two!.params.target).toBe('4.6.3');
    expect(loaded.spec.stages.map((s) => [s.name, s.maxConcurrency, s.failureThreshold, s.approval])).toEqual([
      ['canary', 1, 1, false],
      ['wave-1', 1, '10%', false],
    ]);
    expect(loaded.spec.stages.map((s) => s.soak)).toEqual([undefined, 90 * 60_000]);
    // Nothing approved unless the file says so.
    expect(loaded.spec.stages.map((s) => [s.approve, s.restarts])).toEqual([
      [[], 'ask'],
      [[], 'ask'],
    ]);
  });

  it.each([
    ['a bad value in one cluster', fleet('  - { name: store-001, uid: u-1, site: { ingressIP: not-an-ip } }\n'), /params of cluster store-001 .*\n.*clusters\[0\]\.site\.ingressIP: expected an IPv4 address/],
    ['a key a params file does not have', fleet('  - { name: store-001, uid: u-1, sight: {} }\n'), /params of cluster store-001[\s\S]*sight/],
    ['a required key missing from the defaults and the cluster', fleet('  - { name: store-001, uid: u-1 }\n', undefined, 'defaults:\n  palette: { baseUrl: https://api.example.com, projectUid: p-1 }\n'), /params of cluster store-001[\s\S]*profiles/],
    ['a cluster listed twice', fleet('  - { name: store-001, uid: u-1 }\n  - { name: store-001, uid: u-2 }\n'), /cluster store-001 is listed twice/],
    ['two clusters with one uid', fleet('  - { name: store-001, uid: u-1 }\n  - { name: store-002, uid: u-1 }\n'), /uid u-1 is also cluster store-001's/],
    ['a stage naming an unknown cluster', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: canary, clusters: [store-009] }\n'), /no cluster named store-009 in clusters/],
    ['a cluster in two stages', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001] }\n  - { name: b, clusters: [store-001] }\n'), /cluster store-001 is already in stage a/],
    ['a bad failure threshold', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], failureThreshold: 0% }\n'), /expected a count such as 1 or a share such as 10%/],
    ['a soak that is not a duration', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], soak: a while }\n'), /stages\[0\]\.soak: expected a duration such as 30s, 5m or 4h, got "a while"/],
    ['a soak of nothing', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], soak: 0s }\n'), /stages\[0\]\.soak: expected a duration above zero/],
    ['a window with a bad start', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], window: { days: [Sat], start: 2am, hours: 4, timeZone: UTC } }\n'), /stages\[0\]\.window: start "2am" is not a time of day: write it as HH:MM/],
    ['a window in no time zone', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], window: { days: [Sat], start: "02:00", hours: 4, timeZone: Berlin } }\n'), /stages\[0\]\.window: "Berlin" is not a time zone: use an IANA name such as Europe\/Berlin/],
    ['a window without its length', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], window: { days: [Sat], start: "02:00", timeZone: UTC } }\n'), /stages\[0\]\.window\.hours/],
    ['a stage with neither clusters nor a selector', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a }\n'), /stage a needs its clusters by name \(clusters: \[\.\.\.\]\) or by tag \(selector: \{ tags: \[\.\.\.\] \}\), one of the two/],
    ['a stage with both', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], selector: { tags: [region=east] } }\n'), /one of the two/],
    ['a selector tag with a space', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, selector: { tags: ["region = east"] } }\n'), /expected a tag such as region=east/],
    ['a stage approving VM restarts as a gate', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], approve: [draft, restart] }\n'), /stages\[0\]\.approve\[1\]: "restart" is not a gate a stage approves: VM restarts are approved with restarts: approve/],
    ['a stage approving its own stage gate', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], approve: [stage] }\n'), /stages\[0\]\.approve\[0\]: "stage" is not a gate a stage approves: the stage's own gate is approval: true/],
    ['a stage restart policy that is not ask or approve', fleet('  - { name: store-001, uid: u-1 }\n', 'stages:\n  - { name: a, clusters: [store-001], restarts: all }\n'), /stages\[0\]\.restarts/],
    ['a cluster setting the target', fleet('  - { name: store-001, uid: u-1, target: 4.7.0 }\n'), /target is the fleet's to set/],
  ])('refuses %s (exit 2, naming where)', (_name, text, message) => {
    const e = error(text);
    expect(e.code).toBe(2);
    expect(e.message).toMatch(message);
  });
});

describe('mergeParams', () => {
  it.each([
    [{ a: { b: 1, c: 2 } }, { a: { c: 3 } }, { a: { b: 1, c: 3 } }],
    [{ a: [1, 2] }, { a: [3] }, { a: [3] }],
    [{ a: { b: 1 } }, { a: null }, { a: null }],
    [{}, { a: { b: 1 } }, { a: { b: 1 } }],
  ])('%j with %j on top is %j', (base, own, want) => {
    expect(mergeParams(base, own)).toEqual(want);
  });

  it("puts the cluster's identity and the fleet's target over anything the defaults say", () => {
    expect(clusterParams({ cluster: { context: 'ctx' }, target: '1.0.0' }, { name: 'n', uid: 'u', kubeconfig: '/k' }, '4.6.3')).toEqual({ cluster: { context: 'ctx', uid: 'u', name: 'n', kubeconfig: '/k' }, target: '4.6.3' });
  });
});
