/**
 * The shapes of the window estimate (issue 27): KubeVirt's migration limits as the cluster has them,
 * the bandwidth a migration gets, each VM's predicted timing, and a hop's duration as a range.
 */

/** KubeVirt's `spec.configuration.migrations` with its defaults where unset, plus the updater's batches. */
export interface MigrationLimits {
  parallelMigrationsPerCluster: number;
  parallelOutboundMigrationsPerNode: number;
  /** Bytes per second one migration may use; 0 = unlimited (KubeVirt's default). */
  bandwidthPerMigration: number;
  /** Seconds per GiB of guest memory before KubeVirt aborts the migration. */
  completionTimeoutPerGiB: number;
  /** Seconds without progress before KubeVirt aborts the migration. */
  progressTimeout: number;
  allowAutoConverge: boolean;
  allowPostCopy: boolean;
  /** The workload updater: `spec.workloadUpdateStrategy`. */
  workloadUpdateMethods: string[];
  batchEvictionSize: number;
  batchEvictionIntervalSeconds: number;
  /** Which fields the cluster set (the others are KubeVirt's defaults), for the plan's wording. */
  setFields: string[];
}

/** A MigrationPolicy (`migrations.kubevirt.io/v1alpha1`): what it overrides and whom it selects. */
export interface MigrationPolicyView {
  name: string;
  allowAutoConverge?: boolean;
  allowPostCopy?: boolean;
  bandwidthPerMigration?: number;
  completionTimeoutPerGiB?: number;
  namespaceSelector: Record<string, string>;
  vmiSelector: Record<string, string>;
}

/** The limits one VM's migration runs under: the cluster's, overridden by the policy that selects it. */
export interface VmMigrationLimits {
  policy?: string;
  bandwidthPerMigration: number;
  completionTimeoutPerGiB: number;
  allowAutoConverge: boolean;
  allowPostCopy: boolean;
}

/** A median and a pessimistic value (the 90th percentile), in seconds. */
export interface SecondsRange {
  p50: number;
  p90: number;
}

/** Where the transfer rate comes from: the cluster's own finished migrations, or its limits (or an assumption). */
export interface BandwidthEstimate {
  /** Bytes per second one migration moves. */
  bytesPerSecond: SecondsRange;
  /** Seconds from a migration's creation to its memory copy (target pod scheduled and started). */
  overheadSeconds: SecondsRange;
  source: 'finished-migrations' | 'limit' | 'assumed';
  samples: number;
  text: string;
}

/** What a part of a hop's duration is, for `plan --json` and the report. */
export interface EtaPart {
  /** restarts: the VM restarts at the gates, one after another (the operator's answers not counted). */
  what: 'pack-rollout' | 'migrations' | 'restarts';
  p50Seconds: number;
  p90Seconds: number;
  /** In words: where the figure comes from. */
  basis: string;
}

export interface HopEta {
  p50Seconds: number;
  p90Seconds: number;
  parts: EtaPart[];
  /** One line for gates and the plan ("about 18-25 min: 40 VMs migrate, 5 at a time; ..."). */
  summary: string;
}

/** One VM's predicted timing in a hop, from the start of the migration phase. */
export interface VmTiming {
  /** Seconds after the workload updater starts (median schedule). */
  startSeconds: number;
  durationSeconds: SecondsRange;
  /** Downtime a restart or an eviction costs (shutdown and boot); 0 for a live migration. */
  downtimeSeconds?: number;
}

/** A migration that may never finish, and why. */
export interface ConvergenceRisk {
  kind: 'completion-timeout' | 'dirty-rate';
  text: string;
}

/** Room to move when a hop rebuilds nodes: per node drained in turn, the VMs that fit nowhere else. */
export interface HopRoom {
  /** The changed packs whose layer makes Palette rebuild the nodes (os, k8s). */
  rebuilds: string[];
  nodes: Array<{ node: string; leaving: number; unplaced: Array<{ vm: string; cpu: number; memoryBytes: number; why: string }>; boundToNode?: string[] }>;
  /** One line: which nodes are short of room, or that every VM fits. */
  summary: string;
  /** How the placement was judged, in words. */
  basis: string;
}
