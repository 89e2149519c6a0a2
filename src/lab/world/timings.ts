/**
 * How long things take in the simulated cluster, in simulated milliseconds. Chosen to be close to a
 * small real cluster so that polling intervals and timeouts tuned against the lab make sense on a
 * real one; the lab's `--speed` (default 60) compresses them.
 */
const s = 1000;
const min = 60 * s;

export const timings = {
  /** Palette's agent notices a published profile the cluster uses. */
  agentPickup: 30 * s,
  /** Between two packs of one profile being applied (helm upgrade of each). */
  packApply: 20 * s,
  /** How often the agent checks whether the applied packs have settled. */
  settleCheck: 5 * s,

  /** KubeVirt operator: one control-plane deployment replaced (virt-operator, virt-api, virt-controller). */
  kubevirtDeploymentRoll: 30 * s,
  /** KubeVirt operator: one batch of virt-handler pods (a canary node first, then 10% of nodes). */
  handlerBatch: 30 * s,
  /** CDI operator: its four deployments replaced, one after another. */
  cdiDeploymentRoll: 20 * s,

  /** The workload updater re-runs while outdated VMIs remain (KubeVirt: 30s). */
  workloadUpdaterPeriod: 30 * s,
  /** KubeVirt's defaults for the workload update strategy. */
  batchEvictionInterval: 1 * min,
  batchEvictionSize: 10,
  /** Backoff before a workload-update migration of a VMI whose last one failed: doubles up to the cap. */
  migrationBackoffInitial: 20 * s,
  migrationBackoffMax: 5 * min,

  /** Migration phases: scheduling the target pod, starting it, preparing the target domain. */
  migrationScheduling: 3 * s,
  migrationTargetPodStart: 12 * s,
  migrationPreparingTarget: 3 * s,
  migrationTargetReady: 2 * s,
  /**
   * What one migration moves per second over the lab's network (memory copy = guest memory over
   * this, capped by `bandwidthPerMigration`): a shared 10 GbE pod network carrying a few at once.
   */
  migrationNetworkBytesPerSecond: 200 * 2 ** 20,
  /** After a migration changes, the workload updater runs again (KubeVirt's re-enqueue throttle). */
  workloadUpdaterAfterChange: 5 * s,
  /** A migration that fails after a skipped minor fails this long into Running. */
  migrationFailAfter: 8 * s,
  /** virt-handler aborting a running migration after its VMIM was deleted (libvirt's job cancel). */
  migrationAbort: 4 * s,
  /** The source launcher pod of a finished migration is removed after this. */
  sourcePodCleanup: 1 * min,

  /** Graceful shutdown of a VM's guest on restart/stop. */
  vmShutdown: 30 * s,
  /** VM controller: from stopped to a new VMI object. */
  vmRecreate: 5 * s,
  /** VMI start: Scheduling → Scheduled (launcher pod running) → Running (guest up). */
  vmiScheduling: 3 * s,
  vmiLauncherStart: 10 * s,
  vmiGuestBoot: 15 * s,
  /** A VM whose guest failed to start is retried after this (VM CrashLoopBackOff). */
  vmCrashLoopBackoff: 5 * min,

  /** Replacing one pod of an ordinary workload (delete, schedule, start, ready). */
  podReplace: 8 * s,
  /** A repave: one drained node re-imaged and back Ready (Palette rebuilds nodes one at a time). */
  nodeRebuild: 2 * min,
  /** Portworx rolling upgrade: one storage node at a time. */
  storageNodeRoll: 20 * s,
  /** How often crash-looping containers restart (their restartCount grows). */
  crashLoopPeriod: 5 * min,
  /** Periodic log lines (e.g. virt-handler's dirty-rate stats errors). */
  statsPeriod: 1 * min,
} as const;
