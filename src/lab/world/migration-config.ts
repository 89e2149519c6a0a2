/**
 * The settings the lab's migrations run under, as KubeVirt derives them: the KubeVirt CR's
 * `spec.configuration.migrations` with KubeVirt's defaults (pkg/virt-config/virt-config.go), and,
 * per VMI, the MigrationPolicy that selects it (most matching labels, then most VMI labels:
 * pkg/virt-controller/watch/migrationpolicy.go). The transfer rate is the lab network's per
 * migration, capped by `bandwidthPerMigration`.
 */
import { parseQuantity } from '../../domain/units/quantity.js';
import type { KubeObject, ResourceStoreApi } from '../kube/types.js';
import { timings } from './timings.js';

export interface LabMigrationConfig {
  perCluster: number;
  perNode: number;
  bytesPerSecond: number;
  completionTimeoutPerGiB: number;
  progressTimeout: number;
  allowAutoConverge: boolean;
  allowPostCopy: boolean;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);
const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);

function clusterMigrations(store: ResourceStoreApi): Json {
  return obj(obj(obj(store.get('kubevirts', 'kubevirt', 'kubevirt')?.spec).configuration).migrations);
}

export function clusterLimits(store: ResourceStoreApi): { perCluster: number; perNode: number } {
  const m = clusterMigrations(store);
  return { perCluster: num(m.parallelMigrationsPerCluster, 5), perNode: num(m.parallelOutboundMigrationsPerNode, 2) };
}

function matches(selector: unknown, labels: Record<string, string>): number | undefined {
  const s = obj(selector);
  const map = 'matchLabels' in s ? obj(s.matchLabels) : s;
  let n = 0;
  for (const [k, v] of Object.entries(map)) {
    if (labels[k] !== String(v ?? '')) return undefined;
    n += 1;
  }
  return n;
}

function policyFor(store: ResourceStoreApi, vmi: KubeObject): Json | undefined {
  const nsLabels = store.get('namespaces', undefined, vmi.metadata.namespace ?? '')?.metadata.labels ?? {};
  let best: { spec: Json; total: number; vmi: number } | undefined;
  const policies = [...store.list('migrationpolicies')].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  for (const p of policies) {
    const spec = obj(p.spec);
    const sel = obj(spec.selectors);
    const v = matches(sel.virtualMachineInstanceSelector, vmi.metadata.labels ?? {});
    const n = matches(sel.namespaceSelector, nsLabels);
    if (v === undefined || n === undefined) continue;
    if (!best || v + n > best.total || (v + n === best.total && v > best.vmi)) best = { spec, total: v + n, vmi: v };
  }
  return best?.spec;
}

export function migrationConfigFor(store: ResourceStoreApi, vmi: KubeObject): LabMigrationConfig {
  const m = clusterMigrations(store);
  const p = policyFor(store, vmi) ?? {};
  const cap = parseQuantity(p.bandwidthPerMigration ?? m.bandwidthPerMigration) ?? 0;
  return {
    ...clusterLimits(store),
    bytesPerSecond: cap > 0 ? Math.min(cap, timings.migrationNetworkBytesPerSecond) : timings.migrationNetworkBytesPerSecond,
    completionTimeoutPerGiB: num(p.completionTimeoutPerGiB, num(m.completionTimeoutPerGiB, 150)),
    progressTimeout: num(m.progressTimeout, 150),
    allowAutoConverge: bool(p.allowAutoConverge, bool(m.allowAutoConverge, false)),
    allowPostCopy: bool(p.allowPostCopy, bool(m.allowPostCopy, false)),
  };
}
