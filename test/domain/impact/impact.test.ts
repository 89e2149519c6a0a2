import { describe, expect, it } from 'vitest';
import type { Vm, Vmi } from '../../../src/kube/schemas.js';
import { countImpact, predictImpact, type UpdateStrategy } from '../../../src/domain/impact/impact.js';

const vm = (name: string, runStrategy = 'Always'): Vm => ({ metadata: { name, namespace: 'vms' }, spec: { runStrategy } });
const vmi = (name: string, opts: { migratable?: boolean; eviction?: string; phase?: string; node?: string } = {}): Vmi => ({
  metadata: { name, namespace: 'vms' },
  ...(opts.eviction ? { spec: { evictionStrategy: opts.eviction } } : {}),
  status: {
    phase: opts.phase ?? 'Running',
    nodeName: opts.node ?? 'node-1',
    conditions: [opts.migratable === false ? { type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable' } : { type: 'LiveMigratable', status: 'True' }],
  },
});

const live: UpdateStrategy = { methods: ['LiveMigrate'] };
const both = (clusterEvictionStrategy?: string): UpdateStrategy => ({ methods: ['LiveMigrate', 'Evict'], ...(clusterEvictionStrategy ? { clusterEvictionStrategy } : {}) });

// [case, strategy, VM (or none), VMI (or none), fate, reason]
const cases: Array<[string, UpdateStrategy, Vm | undefined, Vmi | undefined, string, RegExp]> = [
  ['LiveMigrate, migratable', live, vm('a'), vmi('a'), 'live-migrate', /^live-migratable$/],
  ['LiveMigrate only, node-local disk', live, vm('a'), vmi('a', { migratable: false, eviction: 'None' }), 'restart', /^cannot live-migrate \(DisksNotLiveMigratable\) and Evict is not a workload update method: stays on the old launcher$/],
  ['LiveMigrate and Evict, not migratable, eviction None', both(), vm('a'), vmi('a', { migratable: false, eviction: 'None' }), 'evict', /evicted by the workload updater \(downtime\), started again on the new launcher \(runStrategy Always\)$/],
  ['LiveMigrate and Evict, not migratable, eviction LiveMigrate refuses eviction', both(), vm('a'), vmi('a', { migratable: false, eviction: 'LiveMigrate' }), 'restart', /eviction strategy LiveMigrate refuses eviction/],
  ['the cluster-wide eviction strategy applies when the VMI sets none', both('LiveMigrate'), vm('a'), vmi('a', { migratable: false }), 'restart', /eviction strategy LiveMigrate/],
  ['LiveMigrateIfPossible lets a VMI that cannot migrate be evicted', both(), vm('a'), vmi('a', { migratable: false, eviction: 'LiveMigrateIfPossible' }), 'evict', /evicted/],
  ['Evict only, even when migratable', { methods: ['Evict'] }, vm('a'), vmi('a'), 'evict', /^evicted by the workload updater/],
  ['evicted with runStrategy Manual stays stopped', { methods: ['Evict'] }, vm('a', 'Manual'), vmi('a'), 'evict', /stays stopped afterwards \(runStrategy Manual\): start it by hand$/],
  ['an evicted VMI without a VM is gone', { methods: ['Evict'] }, undefined, vmi('a'), 'evict', /no VM owns it, so nothing starts it again$/],
  ['no workload update method at all', { methods: [] }, vm('a'), vmi('a'), 'restart', /^KubeVirt has no workload update method/],
  ['a VM without an instance', live, vm('a', 'Halted'), undefined, 'not-running', /^not running \(runStrategy Halted\): it starts on the new launcher when started$/],
  ['an instance still Pending', live, vm('a'), vmi('a', { phase: 'Pending' }), 'not-running', /^instance Pending/],
  ['a VMI with no LiveMigratable condition cannot be assumed to migrate', live, vm('a'), { metadata: { name: 'a', namespace: 'vms' }, status: { phase: 'Running' } }, 'restart', /no LiveMigratable condition/],
];

describe('predictImpact', () => {
  it.each(cases)('%s', (_name, strategy, v, i, fate, reason) => {
    const [impact] = predictImpact(strategy, v ? [v] : [], i ? [i] : []);
    expect(impact!.vm).toBe('vms/a');
    expect(impact!.fate).toBe(fate);
    expect(impact!.reason).toMatch(reason);
  });

  it('covers every VM and VMI once, sorted, with the node of running ones, and counts fates', () => {
    const impact = predictImpact(live, [vm('b'), vm('a', 'Halted'), vm('c')], [vmi('b', { node: 'n2' }), vmi('c', { migratable: false }), vmi('d')]);
    expect(impact.map((i) => [i.vm, i.fate, i.node])).toEqual([
      ['vms/a', 'not-running', undefined],
      ['vms/b', 'live-migrate', 'n2'],
      ['vms/c', 'restart', 'node-1'],
      ['vms/d', 'live-migrate', 'node-1'],
    ]);
    expect(countImpact(impact)).toEqual({ 'live-migrate': 2, evict: 0, restart: 1, 'not-running': 1 });
  });
});
