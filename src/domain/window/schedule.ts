/**
 * When each VM moves, scheduled as KubeVirt schedules it (pure; seconds from the moment the
 * workload updater first acts, i.e. when the KubeVirt rollout is done):
 *
 * - The workload updater (kubevirt pkg/virt-controller/watch/workload-updater) syncs at once, then
 *   every 30 s while outdated VMIs remain, and 5 s after any migration changes. Each sync creates
 *   `parallelMigrationsPerCluster` minus the unfinished migrations, and, at most once per
 *   `batchEvictionInterval`, evicts `batchEvictionSize` VMIs that cannot migrate.
 * - The migration controller runs at most `parallelMigrationsPerCluster` at once and
 *   `parallelOutboundMigrationsPerNode` from one source node; the others wait Pending, in order.
 * - A migration takes its overhead (target pod scheduled and started) and then its copy time.
 */

export interface MigrationJob {
  vm: string;
  /** Source node. */
  node: string;
  overheadSeconds: number;
  copySeconds: number;
}

export interface EvictionJob {
  vm: string;
  /** Shutdown and boot on the new launcher: the VM's downtime. */
  downSeconds: number;
}

export interface SchedulerLimits {
  perCluster: number;
  perNode: number;
  batchSize: number;
  batchIntervalSeconds: number;
  /** The updater's periodic re-run while work remains (KubeVirt: 30 s). */
  resyncSeconds?: number;
  /** The updater's re-run after a migration changed (KubeVirt: 5 s, its throttle). */
  afterChangeSeconds?: number;
}

export interface ScheduledJob {
  vm: string;
  kind: 'migrate' | 'evict';
  /** When the updater created the migration or evicted the VMI. */
  createdAt: number;
  /** When the migration left Pending (for an eviction: createdAt). */
  startedAt: number;
  /** When the VM runs on the new launcher again. */
  endsAt: number;
}

export interface Schedule {
  jobs: ScheduledJob[];
  /** When the last VM is on the new launcher (0 when nothing moves). */
  endSeconds: number;
  /** The most migrations that ran at once. */
  peakParallel: number;
}

interface Running {
  job: MigrationJob;
  createdAt: number;
  startedAt: number;
  endsAt: number;
}

export function scheduleMoves(migrations: readonly MigrationJob[], evictions: readonly EvictionJob[], limits: SchedulerLimits): Schedule {
  const resync = limits.resyncSeconds ?? 30;
  const afterChange = limits.afterChangeSeconds ?? 5;
  const perCluster = Math.max(1, limits.perCluster);
  const perNode = Math.max(1, limits.perNode);
  // The next migration and eviction the updater takes (indices, not shifting the lists: linear in the VMs).
  let nextMigration = 0;
  let nextEviction = 0;
  const workLeft = () => nextMigration < migrations.length || nextEviction < evictions.length;
  const pending: Array<{ job: MigrationJob; createdAt: number }> = [];
  const running: Running[] = [];
  const out: ScheduledJob[] = [];
  const outbound = new Map<string, number>();
  let lastBatch = -Infinity;
  let peak = 0;
  let now = 0;
  // The updater's work queue holds its one key once: a re-run asked for earlier than the one waiting wins.
  let nextSync = 0;

  const pump = () => {
    for (let i = 0; i < pending.length && running.length < perCluster; ) {
      const p = pending[i]!;
      if ((outbound.get(p.job.node) ?? 0) >= perNode) {
        i += 1;
        continue;
      }
      pending.splice(i, 1);
      outbound.set(p.job.node, (outbound.get(p.job.node) ?? 0) + 1);
      running.push({ job: p.job, createdAt: p.createdAt, startedAt: now, endsAt: now + p.job.overheadSeconds + p.job.copySeconds });
      peak = Math.max(peak, running.length);
    }
  };
  const sync = () => {
    if (nextEviction < evictions.length && now - lastBatch >= limits.batchIntervalSeconds) {
      lastBatch = now;
      const end = Math.min(evictions.length, nextEviction + Math.max(1, limits.batchSize));
      for (; nextEviction < end; nextEviction++) {
        const e = evictions[nextEviction]!;
        out.push({ vm: e.vm, kind: 'evict', createdAt: now, startedAt: now, endsAt: now + e.downSeconds });
      }
    }
    const room = perCluster - pending.length - running.length;
    for (let n = 0; n < room && nextMigration < migrations.length; n++) pending.push({ job: migrations[nextMigration++]!, createdAt: now });
    pump();
    if (workLeft()) addSync(now + resync);
  };
  const addSync = (t: number) => {
    nextSync = Math.min(nextSync, t);
  };

  for (;;) {
    const nextEnd = running.reduce((a, r) => Math.min(a, r.endsAt), Infinity);
    if (nextSync === Infinity && nextEnd === Infinity) break;
    if (nextEnd <= nextSync) {
      now = nextEnd;
      const done = running.filter((r) => r.endsAt === now);
      for (const r of done) {
        running.splice(running.indexOf(r), 1);
        outbound.set(r.job.node, (outbound.get(r.job.node) ?? 1) - 1);
        out.push({ vm: r.job.vm, kind: 'migrate', createdAt: r.createdAt, startedAt: r.startedAt, endsAt: r.endsAt });
      }
      pump();
      if (workLeft()) addSync(now + afterChange);
    } else {
      now = nextSync;
      nextSync = Infinity;
      sync();
    }
  }
  const endSeconds = out.reduce((a, j) => Math.max(a, j.endsAt), 0);
  return { jobs: out, endSeconds, peakParallel: peak };
}
