/**
 * `no-converge`: `healthy`, except that virtual-machines/db-01 (32 GiB) is a busy database whose
 * guest dirties 300 MiB/s, more than the 200 MiB/s one migration gets on the lab's network, and a
 * MigrationPolicy for databases turns auto-converge off (throttling the guest's CPUs would hurt its
 * latency). Its live migration cannot converge: virt-launcher aborts it once the remaining data has
 * not shrunk for progressTimeout (150 s), the workload updater tries again after its back-off, and
 * the VMI stays on the old launcher. ns-packs/build-cache-01 (node-local disk: a restart at the
 * gates) carries its owner's limits: restarts only at weekend nights in Berlin, 30 s of downtime. The shape is the one KubeVirt users report (a migration
 * "hangs at 99% when memory dirty rate exceeds bandwidth", then `Live migration stuck for N seconds
 * and has been aborted`); the policy follows the user guide's MigrationPolicy example.
 */
import type { ScenarioSpec } from './types.js';
import { healthyScenario } from './healthy.js';

/** The busy database: what of no-converge the fleet lab's `stuck-migration` fault puts on one cluster. */
export const busyDatabase = {
  vm: { namespace: 'virtual-machines', name: 'db-01' },
  dirtyRateMiBps: 300,
  policy: { name: 'databases', spec: { allowAutoConverge: false, selectors: { virtualMachineInstanceSelector: { app: 'db' } } } },
} as const;

/** `spec` with db-01 dirtying faster than a migration copies and auto-converge off for it. */
export function withBusyDatabase<S extends Pick<ScenarioSpec, 'vms' | 'migrationPolicies'>>(spec: S): S {
  const { vm, dirtyRateMiBps, policy } = busyDatabase;
  return {
    ...spec,
    vms: spec.vms.map((v) => (v.namespace === vm.namespace && v.name === vm.name ? { ...v, dirtyRateMiBps } : v)),
    migrationPolicies: [...(spec.migrationPolicies ?? []), { name: policy.name, spec: structuredClone(policy.spec) as Record<string, unknown> }],
  };
}

export function noConvergeScenario(): ScenarioSpec {
  const base = withBusyDatabase(healthyScenario());
  return {
    ...base,
    name: 'no-converge',
    summary: `${base.summary} virtual-machines/db-01 dirties 300 MiB/s with auto-converge off (MigrationPolicy databases): its migration cannot converge.`,
    // The build cache's owner allows restarts only at weekend nights (annotations of issue 27).
    vms: base.vms.map((v) =>
      v.name === 'build-cache-01' ? { ...v, annotations: { 'upgrade-pilot.io/restart-window': 'Sat,Sun 02:00-06:00 Europe/Berlin', 'upgrade-pilot.io/max-downtime': '30s' } } : v,
    ),
  };
}
