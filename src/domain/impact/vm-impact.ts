/** What the plan predicts for each VM when the hop's pack is published: its fate, why, and its timing and limits. */

/** What each VM will go through when the pack is published (from the plan, before anything is sent). */
export interface VmImpact {
  /** `namespace/name` */
  vm: string;
  node?: string;
  /** live-migrate: moved without downtime; evict: restarted by KubeVirt; restart: stays on the old launcher until the operator restarts it. */
  fate: 'live-migrate' | 'evict' | 'restart' | 'not-running';
  reason: string;
  /** KubeVirt's `LiveMigratable=False` reason code (e.g. DisksNotLiveMigratable), when it cannot live-migrate. */
  reasonCode?: string;
  /** That reason in an operator's words: what blocks the move and what would lift it. */
  explanation?: string;
  /** The eviction strategy (the VMI's, else the cluster's) and the VM's run strategy that decided the fate. */
  evictionStrategy?: string;
  runStrategy?: string;
  /** Guest memory, bytes. */
  memoryBytes?: number;
  /** The MigrationPolicy that selects it. */
  migrationPolicy?: string;
  /** Predicted, in each hop's migration phase: seconds after the workload updater starts, and how long (median, pessimistic). */
  predicted?: { startSeconds: number; durationSeconds: { p50: number; p90: number }; downtimeSeconds?: number };
  /** Why its migration may never finish (completion timeout, dirty rate), with the remedies. */
  mayNotConverge?: string[];
  /** Its owner's limits, from the VM's annotations upgrade-pilot.io/max-downtime and upgrade-pilot.io/restart-window. */
  ownLimits?: { maxDowntimeSeconds?: number; restartWindow?: string };
  /** Its own limits (annotations) that the predicted fate breaks, or that cannot be read. */
  limitsBroken?: string[];
}
