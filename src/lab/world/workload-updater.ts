/**
 * KubeVirt's workload updater: once KubeVirt is Deployed, every VMI still on an older launcher is
 * moved to the new one by the methods in `spec.workloadUpdateStrategy.workloadUpdateMethods`:
 * LiveMigrate creates `kubevirt-workload-update-*` migrations for migratable VMIs, Evict shuts down
 * the others (their VM starts them again). Both go in batches of `batchEvictionSize` per
 * `batchEvictionInterval`; it re-runs every 30s while outdated VMIs remain. VMIs that cannot
 * migrate and are not evicted stay outdated. It also keeps the outdated label and the KubeVirt
 * CR's `outdatedVirtualMachineInstanceWorkloads` current.
 */
import type { WorldContext } from './context.js';
import type { KubevirtOperator } from './kubevirt-operator.js';
import type { MigrationController } from './migrations.js';
import { timings } from './timings.js';
import type { VmController } from './vm-controller.js';

export class WorkloadUpdater {
  private windowStart = -Infinity;
  private usedInWindow = 0;
  private timer: number | undefined;

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
    this.timer = undefined;
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
    if (now - this.windowStart >= timings.batchEvictionInterval) {
      this.windowStart = now;
      this.usedInWindow = 0;
    }
    let allowance = timings.batchEvictionSize - this.usedInWindow;
    if (allowance <= 0) return;

    const candidates = [...this.vms.runningVmis()].filter(
      (v) => v.launcherImage !== current && !this.migrations.hasUnfinished(v.namespace, v.name) && !this.migrations.inBackoff(v.namespace, v.name),
    );
    // KubeVirt shuffles the candidates so a VMI that keeps failing does not block the others
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = this.ctx.rng.int(i + 1);
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    for (const v of candidates) {
      if (allowance <= 0) break;
      const migratable = !v.def.localDisk;
      if (liveMigrate && migratable) {
        if (this.migrations.create(v.namespace, v.name)) allowance -= 1;
      } else if (evict) {
        this.vms.evict(v.namespace, v.name);
        allowance -= 1;
      }
    }
    this.usedInWindow = timings.batchEvictionSize - allowance;
  }

  private methods(): string[] {
    const kv = this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt');
    const m = (kv?.spec as { workloadUpdateStrategy?: { workloadUpdateMethods?: unknown } } | undefined)?.workloadUpdateStrategy?.workloadUpdateMethods;
    return Array.isArray(m) ? m.map(String) : [];
  }
}
