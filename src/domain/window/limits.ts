/**
 * KubeVirt's own limits on migrations, read from the KubeVirt resource: `spec.configuration.migrations`
 * (kubevirt/api core/v1 `MigrationConfiguration`) with KubeVirt's defaults where unset
 * (pkg/virt-config/virt-config.go: 5 per cluster, 2 outbound per node, unlimited bandwidth,
 * 150 s per GiB, 150 s without progress, no auto-converge, no post-copy), and the workload
 * updater's batches (`spec.workloadUpdateStrategy`: batchEvictionSize 10, batchEvictionInterval 1m0s).
 */
import { parseDuration } from '../../engine/duration.js';
import { parseQuantity } from '../units/quantity.js';
import type { MigrationLimits } from './types.js';

export const kubevirtDefaults = {
  parallelMigrationsPerCluster: 5,
  parallelOutboundMigrationsPerNode: 2,
  bandwidthPerMigration: 0,
  completionTimeoutPerGiB: 150,
  progressTimeout: 150,
  allowAutoConverge: false,
  allowPostCopy: false,
  batchEvictionSize: 10,
  batchEvictionIntervalSeconds: 60,
} as const;

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The limits from a KubeVirt resource as read (any shape; unreadable fields fall back to the defaults). */
export function migrationLimits(kubevirt: unknown): MigrationLimits {
  const spec = obj(obj(kubevirt).spec);
  const m = obj(obj(spec.configuration).migrations);
  const w = obj(spec.workloadUpdateStrategy);
  const setFields: string[] = [];
  const pick = <T>(field: string, value: T | undefined, fallback: T): T => {
    if (value === undefined) return fallback;
    setFields.push(field);
    return value;
  };
  const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  const interval = typeof w.batchEvictionInterval === 'string' ? parseDuration(w.batchEvictionInterval) : undefined;
  const methods = Array.isArray(w.workloadUpdateMethods) ? w.workloadUpdateMethods.map(String) : [];
  return {
    parallelMigrationsPerCluster: pick('parallelMigrationsPerCluster', count(m.parallelMigrationsPerCluster), kubevirtDefaults.parallelMigrationsPerCluster),
    parallelOutboundMigrationsPerNode: pick('parallelOutboundMigrationsPerNode', count(m.parallelOutboundMigrationsPerNode), kubevirtDefaults.parallelOutboundMigrationsPerNode),
    bandwidthPerMigration: pick('bandwidthPerMigration', parseQuantity(m.bandwidthPerMigration), kubevirtDefaults.bandwidthPerMigration),
    completionTimeoutPerGiB: pick('completionTimeoutPerGiB', count(m.completionTimeoutPerGiB), kubevirtDefaults.completionTimeoutPerGiB),
    progressTimeout: pick('progressTimeout', count(m.progressTimeout), kubevirtDefaults.progressTimeout),
    allowAutoConverge: pick('allowAutoConverge', bool(m.allowAutoConverge), kubevirtDefaults.allowAutoConverge),
    allowPostCopy: pick('allowPostCopy', bool(m.allowPostCopy), kubevirtDefaults.allowPostCopy),
    workloadUpdateMethods: methods,
    batchEvictionSize: pick('batchEvictionSize', count(w.batchEvictionSize) || undefined, kubevirtDefaults.batchEvictionSize),
    batchEvictionIntervalSeconds: pick('batchEvictionInterval', interval !== undefined && interval > 0 ? interval / 1000 : undefined, kubevirtDefaults.batchEvictionIntervalSeconds),
    setFields,
  };
}
