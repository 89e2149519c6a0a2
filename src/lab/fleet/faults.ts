/**
 * How one cluster of the fleet lab fails (`lab --serve --fleet N --fleet-fail NAME:KIND`), each the
 * single-cluster lab's own fault on that cluster's world, so it fails as the real one does:
 *
 * - `pack-error`: the pack-error scenario's fault: the cni-cilium-oss 1.17.1 upgrade fails in the
 *   cluster with helm's "field is immutable" error; the rollout stops there.
 * - `stuck-migration`: the no-converge scenario's database: virtual-machines/db-01 dirties 300 MiB/s,
 *   more than a migration copies on the lab's network, with auto-converge off (MigrationPolicy
 *   `databases`): after the hop its workload-update migration never converges, virt-launcher aborts
 *   it ("Live migration stuck for 150 seconds and has been aborted") and the updater tries again, so
 *   the VM stays on the old launcher until someone restarts it (the gate the product asks).
 * - `node-not-ready`: the degraded scenario's node: vmo-worker-2's kubelet stopped posting its status
 *   a month ago (Ready `Unknown`, NodeStatusUnknown), so the cluster is unhealthy before anyone starts.
 *
 * Clearing a fault (the operator fixed the cause) undoes it: the pack goes through on the next
 * reconcile, the database calms down, the node reports Ready again.
 */
import type { World } from '../world/world.js';
import { busyDatabase, withBusyDatabase } from '../world/scenarios/no-converge.js';
import { ciliumUpgradeError } from '../world/scenarios/pack-error.js';
import type { ScenarioSpec } from '../world/scenarios/types.js';

export const fleetFaultKinds = ['pack-error', 'stuck-migration', 'node-not-ready'] as const;
export type FleetFaultKind = (typeof fleetFaultKinds)[number];

/** The node the node-not-ready fault takes down: a storage worker, as in the degraded scenario. */
export const notReadyNode = 'vmo-worker-2';

/** The cluster's scenario with the fault in it (pack failures go to the world as its `packFailures`). */
export function faultySpec(spec: ScenarioSpec, kind: FleetFaultKind | undefined): ScenarioSpec {
  if (kind === 'stuck-migration') return withBusyDatabase(spec);
  if (kind === 'node-not-ready') return { ...spec, faults: { ...spec.faults, notReadyNodes: [...spec.faults.notReadyNodes, notReadyNode] } };
  return spec;
}

/** The pack failures the world plays for this fault (`name@tag` → helm's error). */
export const faultPacks = (kind: FleetFaultKind | undefined): Record<string, string> => (kind === 'pack-error' ? { 'cni-cilium-oss@1.17.1': ciliumUpgradeError } : {});

/** Faults the control route can make happen in a running world (a NotReady node during a soak; a pack that will fail). */
export const liveFaultKinds = ['node-not-ready', 'pack-error'] as const;

/** The fault happens now: the node's kubelet stops posting status, or the pack's next upgrade fails. */
export function injectFault(world: World, kind: (typeof liveFaultKinds)[number], failures: Record<string, string>): void {
  if (kind === 'node-not-ready') world.setNodeReady(notReadyNode, 'Unknown');
  else Object.assign(failures, faultPacks(kind));
}

/** The cause is fixed: undo the fault in the running world. Returns whether a failed change is tried again. */
export function clearFault(world: World, kind: FleetFaultKind | undefined, failures: Record<string, string>): boolean {
  for (const key of Object.keys(failures)) delete failures[key];
  if (kind === 'stuck-migration') {
    const def = world.vms.definition(busyDatabase.vm.namespace, busyDatabase.vm.name);
    if (def) delete def.dirtyRateMiBps;
  }
  if (kind === 'node-not-ready') world.setNodeReady(notReadyNode, 'True');
  return world.reconciler.retryFailed();
}
