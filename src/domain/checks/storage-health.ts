/**
 * Whether the storage cluster is healthy, for verification and preflight alike: Portworx's
 * StorageCluster by its phase and RuntimeState condition, Rook-Ceph's CephCluster by its phase
 * (`Ready`) and Ceph's own health (`HEALTH_OK`; `HEALTH_WARN` and `HEALTH_ERR` list their checks).
 */
import type { StorageCluster } from '../../kube/schemas.js';

export type StorageClusterKind = 'StorageCluster' | 'CephCluster';

export interface StorageHealth {
  healthy: boolean;
  /** `Running`, or `Ready, HEALTH_OK` for Ceph. */
  state: string;
  /** What is wrong, one line each. */
  problems: string[];
}

export function storageHealth(kind: StorageClusterKind, cluster: StorageCluster, healthyPhases: readonly string[] = ['Running', 'Online']): StorageHealth {
  const status = cluster.status;
  const phase = status?.phase ?? 'Unknown';
  if (kind === 'CephCluster') {
    const health = status?.ceph?.health ?? 'unknown';
    const problems: string[] = [];
    if (phase !== 'Ready') problems.push(`phase ${phase}${status?.message ? ` (${status.message})` : ''}`);
    if (health !== 'HEALTH_OK') {
      const details = Object.entries(status?.ceph?.details ?? {}).map(([check, d]) => `${check}: ${d.message ?? d.severity ?? ''}`);
      problems.push(`Ceph reports ${health}${details.length ? `: ${details.join('; ')}` : ''}`);
    }
    return { healthy: problems.length === 0, state: `${phase}, ${health}`, problems };
  }
  const problems: string[] = [];
  if (!healthyPhases.includes(phase)) problems.push(`phase ${phase}`);
  const runtime = status?.conditions?.find((c) => c.type === 'RuntimeState');
  if (runtime && runtime.status !== 'Online') problems.push(`RuntimeState ${runtime.status}${runtime.message ? ` (${runtime.message})` : ''}`);
  return { healthy: problems.length === 0, state: phase, problems };
}
