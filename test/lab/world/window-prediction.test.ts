/**
 * Issue 27's check of the window estimate against the lab's own runs: the plan's predicted median
 * for the migration phase of a hop, from what the cluster serves before it (KubeVirt's limits, the
 * VMIs' memory, the finished migrations the bandwidth is learned from), against the phase the lab
 * then measures in simulated time (the lab's clock is its time scale: timestamps are simulated),
 * from the workload updater's first migration to the last one's end. Within 25%.
 */
import { describe, expect, it } from 'vitest';
import { MigrationPolicySchema, NamespaceSchema, NodeSchema, PodSchema, VmiSchema, VmimSchema, VmSchema } from '../../../src/kube/schemas.js';
import { lastKubevirtRollout } from '../../../src/domain/window/rollout.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { migrationLimits } from '../../../src/domain/window/limits.js';
import { planWindow } from '../../../src/domain/window/window.js';
import { predictImpact } from '../../../src/domain/impact/impact.js';
import type { VmoVersion } from '../../../src/lab/data/pack-catalog.js';
import type { ScenarioName } from '../../../src/lab/world/scenarios/index.js';
import { createHarness, type Harness } from '../support/world-harness.js';

const min = 60_000;
const workloadUpdate = (m: KubeObject) => m.metadata.name.startsWith('kubevirt-workload-update-');

/** The plan's estimate, from the objects as the product reads them. */
function predict(h: Harness, dirtyRates = new Map<string, number>()) {
  const kv = h.get('kubevirts', 'kubevirt', 'kubevirt')!;
  const limits = migrationLimits(kv);
  const vmis = h.list('virtualmachineinstances').map((o) => VmiSchema.parse(o));
  const vms = h.list('virtualmachines').map((o) => VmSchema.parse(o));
  const eviction = (kv.spec as { configuration?: { evictionStrategy?: string } }).configuration?.evictionStrategy;
  const impact = predictImpact({ methods: limits.workloadUpdateMethods, ...(eviction ? { clusterEvictionStrategy: eviction } : {}) }, vms, vmis);
  const reads = {
    policies: h.list('migrationpolicies').map((o) => MigrationPolicySchema.parse(o)),
    namespaces: h.list('namespaces').map((o) => NamespaceSchema.parse(o)),
    migrations: h.list('virtualmachineinstancemigrations').map((o) => VmimSchema.parse(o)),
    nodes: h.list('nodes').map((o) => NodeSchema.parse(o)),
    kubevirtPods: h.list('pods', { namespace: 'kubevirt' }).map((o) => PodSchema.parse(o)),
  };
  // As the plan reads it: the KubeVirt resource's Progressing turning False ends the last rollout.
  const status = kv.status as { observedKubeVirtVersion?: string; conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
  const ended = status.conditions?.find((c) => c.type === 'Progressing' && c.status === 'False')?.lastTransitionTime;
  const lastRollout = lastKubevirtRollout(reads.kubevirtPods, status.observedKubeVirtVersion, ended ?? undefined);
  return planWindow(limits, impact, vmis, { ...reads, ...(lastRollout ? { lastRollout } : {}) }, dirtyRates);
}

/** Publishes the hop and measures its migration phase in simulated seconds. */
function measure(h: Harness, to: VmoVersion, expected: number): { seconds: number; migrations: number } {
  const before = new Set(h.list('virtualmachineinstancemigrations').map((m) => m.metadata.name));
  h.publishHop(to);
  const ours = () => h.list('virtualmachineinstancemigrations').filter((m) => workloadUpdate(m) && !before.has(m.metadata.name));
  const finished = () => ours().filter((m) => ['Succeeded', 'Failed'].includes(String((m.status as { phase?: string }).phase)));
  expect(h.runUntil(() => ours().length > 0, 60 * min, 1000)).toBe(true);
  expect(h.runUntil(() => finished().length === expected && ours().length === expected, 24 * 60 * min, 1000)).toBe(true);
  const created = Math.min(...ours().map((m) => Date.parse(m.metadata.creationTimestamp!)));
  const ended = Math.max(...ours().map((m) => Date.parse(String((m.status as { migrationState?: { endTimestamp?: string } }).migrationState?.endTimestamp))));
  return { seconds: (ended - created) / 1000, migrations: ours().length };
}

const cases: Array<{ scenario: ScenarioName; hop: VmoVersion; sizes?: { vms: number; nodes: number; pods: number } }> = [
  { scenario: 'healthy', hop: '4.5.4' },
  { scenario: 'large', hop: '4.6.3', sizes: { vms: 300, nodes: 24, pods: 600 } },
];

describe('the predicted migration phase against the lab', () => {
  it.each(cases)('$scenario: the median is within 25% of the measured phase', ({ scenario, hop, sizes }) => {
    const h = createHarness(scenario, sizes ? { sizes } : {});
    try {
      const { view, impact } = predict(h);
      const predicted = view.eta.parts.find((p) => p.what === 'migrations')!;
      const migrating = impact.filter((i) => i.fate === 'live-migrate').length;
      expect(view.bandwidth.source).toBe('finished-migrations');
      const measured = measure(h, hop, migrating);
      console.log(`${scenario}: ${migrating} migrations; predicted p50 ${predicted.p50Seconds} s (p90 ${predicted.p90Seconds} s), measured ${measured.seconds} s`);
      expect(measured.migrations).toBe(migrating);
      expect(Math.abs(predicted.p50Seconds - measured.seconds) / measured.seconds).toBeLessThanOrEqual(0.25);
      expect(predicted.p90Seconds).toBeGreaterThanOrEqual(measured.seconds * 0.9);
    } finally {
      h.close();
    }
  });
});

describe('the pack rollout, learned from the last one', () => {
  it('healthy: before hop 1 the runbook\'s figure (a fresh install leaves no rollout on record); before hop 2 learned from hop 1, within 25% of hop 2\'s measured rollout', () => {
    const h = createHarness('healthy');
    try {
      const rolloutOf = (view: ReturnType<typeof predict>['view']) => view.eta.parts.find((p) => p.what === 'pack-rollout')!;
      expect(rolloutOf(predict(h).view).basis).toMatch(/^pack rollout: the runbook's figure/);
      /** Publishes a hop; the rollout lasts until the workload updater's first migration (simulated seconds). */
      const rollout = (to: VmoVersion): number => {
        const before = new Set(h.list('virtualmachineinstancemigrations').map((m) => m.metadata.name));
        const published = h.clock.now();
        h.publishHop(to);
        const first = () => h.list('virtualmachineinstancemigrations').find((m) => workloadUpdate(m) && !before.has(m.metadata.name));
        expect(h.runUntil(() => first() !== undefined, 60 * min, 1000)).toBe(true);
        const seconds = (Date.parse(first()!.metadata.creationTimestamp!) - published) / 1000;
        expect(h.runUntil(() => h.list('virtualmachineinstancemigrations').filter((m) => workloadUpdate(m) && !before.has(m.metadata.name)).every((m) => ['Succeeded', 'Failed'].includes(String((m.status as { phase?: string }).phase))), 120 * min, 1000)).toBe(true);
        return seconds;
      };
      const hop1 = rollout('4.5.4');
      const predicted = rolloutOf(predict(h).view);
      expect(predicted.basis).toMatch(/^pack rollout: KubeVirt's part learned from this cluster's last rollout \(to v1\.3\.1: /);
      const hop2 = rollout('4.6.3');
      console.log(`rollout: hop 1 measured ${hop1} s; predicted for hop 2 p50 ${predicted.p50Seconds} s (p90 ${predicted.p90Seconds} s), measured ${hop2} s`);
      expect(Math.abs(predicted.p50Seconds - hop2) / hop2).toBeLessThanOrEqual(0.25);
      expect(predicted.p90Seconds).toBeGreaterThanOrEqual(hop2);
    } finally {
      h.close();
    }
  });
});

describe('no-converge: a guest that dirties memory faster than it moves', () => {
  it('is flagged before publish, and its migration stalls in the run as predicted (aborted after progressTimeout)', () => {
    const h = createHarness('no-converge');
    try {
      // The plan's view: the dirty rates as the lab's Prometheus serves them
      const rates = new Map(h.world.dirtyRates().map((r) => [`${r.namespace}/${r.name}`, r.bytesPerSecond]));
      const { impact, view } = predict(h, rates);
      const db = impact.find((i) => i.vm === 'virtual-machines/db-01')!;
      expect(db).toMatchObject({ fate: 'live-migrate', migrationPolicy: 'databases' });
      expect(db.mayNotConverge?.[0]).toMatch(/dirties 300 MiB\/s .*progressTimeout 2m30s/);
      expect(impact.filter((i) => i.mayNotConverge?.length).map((i) => i.vm)).toEqual(['virtual-machines/db-01']);
      expect(view.policies).toEqual([expect.objectContaining({ name: 'databases', allowAutoConverge: false, vms: ['virtual-machines/db-01'] })]);
      expect(view.eta.summary).toMatch(/1 may not converge/);

      const before = new Set(h.list('virtualmachineinstancemigrations').map((m) => m.metadata.name));
      h.publishHop('4.5.4');
      const dbMigrations = () => h.list('virtualmachineinstancemigrations').filter((m) => !before.has(m.metadata.name) && (m.spec as { vmiName: string }).vmiName === 'db-01');
      const failed = () => dbMigrations().filter((m) => (m.status as { phase?: string }).phase === 'Failed');
      expect(h.runUntil(() => failed().length > 0, 90 * min, 1000)).toBe(true);
      const m = failed()[0]!;
      const state = (m.status as { migrationState: { failureReason: string; abortStatus?: string } }).migrationState;
      expect(state.failureReason).toBe('Live migration stuck for 150 seconds and has been aborted');
      expect(state.abortStatus).toBe('Succeeded');
      // It ran as long as predicted: from creation to the abort
      const took = (Date.parse(String((m.status as { migrationState: { endTimestamp: string } }).migrationState.endTimestamp)) - Date.parse(m.metadata.creationTimestamp!)) / 1000;
      console.log(`no-converge: db-01 predicted ${db.predicted!.durationSeconds.p50} s until the abort, measured ${took} s`);
      expect(Math.abs(db.predicted!.durationSeconds.p50 - took) / took).toBeLessThanOrEqual(0.25);
      // The VMI stays on the old launcher
      const vmi = h.get('virtualmachineinstances', 'virtual-machines', 'db-01')!;
      expect(vmi.metadata.labels?.['kubevirt.io/outdatedLauncherImage']).toBeDefined();
    } finally {
      h.close();
    }
  });
});
