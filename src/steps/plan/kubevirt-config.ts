/**
 * The KubeVirt CR's update settings, read once: the workload update methods and the cluster-wide
 * eviction strategy (which the shared typed read leaves out), the migration limits, plus the observed version.
 */
import { z } from 'zod';
import { opt } from '../../io/optional-field.js';
import type { ClusterReader } from '../../kube/reader.js';
import type { UpdateStrategy } from '../../domain/impact/impact.js';
import { migrationLimits } from '../../domain/window/limits.js';
import type { MigrationLimits } from '../../domain/window/types.js';

export const KubeVirtUpdateSchema = z.object({
  spec: opt(
    z.object({
      workloadUpdateStrategy: opt(z.object({ workloadUpdateMethods: opt(z.array(z.string())) })),
      configuration: opt(z.object({ evictionStrategy: opt(z.string()) })),
    }),
  ),
  status: opt(
    z.object({
      observedKubeVirtVersion: opt(z.string()),
      targetKubeVirtVersion: opt(z.string()),
      conditions: opt(z.array(z.object({ type: z.string(), status: z.string(), lastTransitionTime: opt(z.string()) }))),
    }),
  ),
});

export interface KubeVirtUpdateConfig extends UpdateStrategy {
  found: boolean;
  /** `spec.configuration.migrations` and the updater's batches, KubeVirt's defaults where unset. */
  limits: MigrationLimits;
  observedVersion?: string;
  /** When the last rollout ended: `Progressing` turned False with observed = target. */
  rolloutEndedAt?: string;
}

export async function readUpdateConfig(reader: ClusterReader, namespace: string, name: string, signal?: AbortSignal): Promise<KubeVirtUpdateConfig> {
  const raw = await reader.kubectl.getObject(`/apis/kubevirt.io/v1/namespaces/${namespace}/kubevirts/${name}`, 'read the KubeVirt resource', signal);
  if (raw === undefined) return { found: false, methods: [], limits: migrationLimits(undefined) };
  const parsed = KubeVirtUpdateSchema.safeParse(raw);
  const kv = parsed.success ? parsed.data : {};
  const eviction = kv.spec?.configuration?.evictionStrategy;
  const observed = kv.status?.observedKubeVirtVersion;
  const progressing = kv.status?.conditions?.find((c) => c.type === 'Progressing');
  const ended = observed && observed === kv.status?.targetKubeVirtVersion && progressing?.status === 'False' ? progressing.lastTransitionTime : undefined;
  return {
    found: true,
    limits: migrationLimits(raw),
    methods: kv.spec?.workloadUpdateStrategy?.workloadUpdateMethods ?? [],
    ...(eviction ? { clusterEvictionStrategy: eviction } : {}),
    ...(observed ? { observedVersion: observed } : {}),
    ...(ended ? { rolloutEndedAt: ended } : {}),
  };
}
