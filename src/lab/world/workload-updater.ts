/**
 * KubeVirt's workload updater (pkg/virt-controller/watch/workload-updater): once KubeVirt is
 * Deployed and rolled out, every VMI still on an older launcher is moved to the new one by the
 * methods in `spec.workloadUpdateStrategy.workloadUpdateMethods`. Each pass creates
 * `kubevirt-workload-update-*` migrations for migratable VMIs up to `parallelMigrationsPerCluster`
 * unfinished ones, and, at most once per `batchEvictionInterval`, evicts `batchEvictionSize` VMIs
 * that cannot migrate (their VM starts them again). It re-runs every 30 s while outdated VMIs
 * remain and 5 s after a migration changes. VMIs that cannot migrate and are not evicted stay
 * outdated. It also keeps the outdated label and the KubeVirt CR's
 * `outdatedVirtualMachineInstanceWorkloads` current.
 */
import type { WorldContext } from './context.js';
import type { KubevirtOperator } from './kubevirt-operator.js';
import type { MigrationController } from './migrations.js';
import { clusterLimits } from './migration-config.js';
import { timings } from './timings.js';
import type { VmController } from './vm-controller.js';

export class WorkloadUpdater {
  private lastEvictionBatch = -Infinity;
  private timer: number | undefined;
  private soon: number | undefined;

  constructor(
    private readonly ctx: WorldContext,
    private readonly kubevirt: KubevirtOperator,
    private readonly vms: VmController,
    private readonly migrations: MigrationController,
  ) {}

  start(): void {
    this.timer ??= this.ctx.clock.every(timings.workloadUpdaterPeriod, () => this.sync());
  }

  stop(): void {
    if (this.timer !== undefined) this.ctx.clock.cancel(this.timer);
    if (this.soon !== undefined) this.ctx.clock.cancel(this.soon);
    this.timer = undefined;
    this.soon = undefined;
  }

  /** A migration changed: the updater runs again after its throttle (one run covers many changes). */
  migrationChanged(): void {
    if (this.timer === undefined || this.soon !== undefined) return;
    this.soon = this.ctx.clock.after(timings.workloadUpdaterAfterChange, () => {
      this.soon = undefined;
      this.sync();
    });
  }

  /** One pass: label, count, and (when Deployed) start the next batch. */
  sync(): void {
    const current = this.kubevirt.currentLauncherImage();
    const outdated = this.vms.markOutdated(current);
    this.kubevirt.setOutdatedCount(outdated);
    this.migrations.pump();
    // As KubeVirt's updater: only once Deployed and the observed deployment is the target one.
    if (outdated === 0 || this.kubevirt.phase() !== 'Deployed' || !this.kubevirt.rolledOut()) return;

    const methods = this.methods();
    const liveMigrate = methods.includes('LiveMigrate');
    const evict = methods.includes('Evict');
    const now = this.ctx.clock.now();
    const strategy = this.strategy();
    const evictNow = evict && now - this.lastEvictionBatch >= strategy.intervalMs;
    let evictions = evictNow ? strategy.batchSize : 0;
    let migrations = Math.max(0, clusterLimits(this.ctx.store).perCluster - this.migrations.unfinished());
    if (migrations === 0 && evictions === 0) return;

    const candidates = [...this.vms.runningVmis()].filter(
      (v) => v.launcherImage !== current && !this.migrations.hasUnfinished(v.namespace, v.name) && !this.migrations.inBackoff(v.namespace, v.name),
    );
    // KubeVirt shuffles the candidates so a VMI that keeps failing does not block the others
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = this.ctx.rng.int(i + 1);
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    let evicted = false;
    for (const v of candidates) {
      if (migrations <= 0 && evictions <= 0) break;
      const migratable = !v.def.localDisk;
      if (liveMigrate && migratable) {
        if (migrations > 0 && this.migrations.create(v.namespace, v.name)) migrations -= 1;
      } else if (evict && evictions > 0) {
        this.vms.evict(v.namespace, v.name);
        evictions -= 1;
        evicted = true;
      }
    }
    if (evicted) this.lastEvictionBatch = now;
  }

  /** `batchEvictionSize` and `batchEvictionInterval` of the KubeVirt CR (KubeVirt's defaults: 10, 1m). */
  private strategy(): { batchSize: number; intervalMs: number } {
    const kv = this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt');
    const w = (kv?.spec as { workloadUpdateStrategy?: { batchEvictionSize?: unknown; batchEvictionInterval?: unknown } } | undefined)?.workloadUpdateStrategy;
    const size = typeof w?.batchEvictionSize === 'number' && w.batchEvictionSize > 0 ? w.batchEvictionSize : timings.batchEvictionSize;
    const m = typeof w?.batchEvictionInterval === 'string' ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(w.batchEvictionInterval) : null;
    const ms = m ? ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000 : 0;
    return { batchSize: size, intervalMs: ms > 0 ? ms : timings.batchEvictionInterval };
  }

  private methods(): string[] {
    const kv = this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt');
    const m = (kv?.spec as { workloadUpdateStrategy?: { workloadUpdateMethods?: unknown } } | undefined)?.workloadUpdateStrategy?.workloadUpdateMethods;
    return Array.isArray(m) ? m.map(String) : [];
  }
}
