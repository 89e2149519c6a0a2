/**
 * KubeVirt's migration controller: VirtualMachineInstanceMigrations go Pending → Scheduling →
 * Scheduled → PreparingTarget → TargetReady → Running → Succeeded | Failed, at most
 * `parallelMigrationsPerCluster` at a time and `parallelOutboundMigrationsPerNode` per source node;
 * the rest wait in Pending. The VMI's `status.migrationState` follows; success moves the VMI to the
 * target node and its new launcher. Under a skipped minor the migration fails with a closed client
 * socket or hangs in Running. Deleting a VMIM cancels it (the VMI stays where it is, outdated).
 */
import type { KubeObject } from '../kube/types.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { nowStamp, recordEvent, type WorldContext } from './context.js';
import { setPodState } from './k8s-objects.js';
import { launcherPodObject, migrationObject, migrationState, type MigrationStateInput } from './kubevirt-objects.js';
import { kubevirtLine } from './logs.js';
import type { PodNetwork } from './pod-network.js';
import {
  closedSocketReason,
  handlerDirtyRateLine,
  launcherMigrationFailedLines,
  launcherNetworkCacheLine,
  skippedMinor,
  skippedMinorOutcome,
  imageVersion,
} from './skip-minor.js';
import { timings } from './timings.js';
import { clusterLimits, migrationConfigFor } from './migration-config.js';
import type { KubevirtView, VmController } from './vm-controller.js';

export type MigrationPhase = 'Pending' | 'Scheduling' | 'Scheduled' | 'PreparingTarget' | 'TargetReady' | 'Running' | 'Succeeded' | 'Failed';

interface Migration {
  namespace: string;
  name: string;
  uid: string;
  vmiName: string;
  vmiUid: string;
  phase: MigrationPhase;
  sourceNode: string;
  sourcePod: string;
  targetNode?: string;
  targetPod?: string;
  targetPodUid?: string;
  startTimestamp?: string;
  outcome?: 'succeed' | 'fail' | 'stuck';
  /** Bumped when the migration ends; its pending timers then do nothing. */
  epoch: number;
}

export interface HandlerLocator {
  handlerPodOn(node: string): KubeObject | undefined;
}

const finished = (p: MigrationPhase) => p === 'Succeeded' || p === 'Failed';

/** What libvirt reports for a migration job cancelled on request; virt-launcher reads "canceled by client" as an abort that succeeded. */
const abortedReason = "Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=78, Domain=10, Message='operation aborted: migration out job: canceled by client')";
const active = (p: MigrationPhase) => !finished(p) && p !== 'Pending';

/** KubeVirt keeps this many finished migrations per VMI before garbage-collecting older ones. */
const finishedPerVmiKept = 5;

export class MigrationController {
  private readonly migrations = new Map<string, Migration>();
  /** Migrations per VMI (`namespace/name`), so per-VMI questions do not scan thousands. */
  private readonly byVmi = new Map<string, Set<Migration>>();
  private readonly backoff = new Map<string, { failures: number; until: number }>();
  private abortFails = new Set<string>();
  /** Told when a migration ends (the workload updater re-runs 5 s later). */
  onFinished: () => void = () => {};

  constructor(
    private readonly ctx: WorldContext,
    private readonly nodes: ClusterNodes,
    private readonly network: PodNetwork,
    private readonly vms: VmController,
    private readonly kubevirt: KubevirtView & HandlerLocator,
  ) {}

  /** Unfinished migrations (Pending through Running). */
  unfinished(): number {
    let n = 0;
    for (const m of this.migrations.values()) if (!finished(m.phase)) n += 1;
    return n;
  }

  hasUnfinished(namespace: string, vmiName: string): boolean {
    for (const m of this.byVmi.get(`${namespace}/${vmiName}`) ?? []) if (!finished(m.phase)) return true;
    return false;
  }

  private track(m: Migration): void {
    this.migrations.set(`${m.namespace}/${m.name}`, m);
    const key = `${m.namespace}/${m.vmiName}`;
    let set = this.byVmi.get(key);
    if (!set) this.byVmi.set(key, (set = new Set()));
    set.add(m);
  }

  private untrack(m: Migration): void {
    this.migrations.delete(`${m.namespace}/${m.name}`);
    const key = `${m.namespace}/${m.vmiName}`;
    const set = this.byVmi.get(key);
    set?.delete(m);
    if (set?.size === 0) this.byVmi.delete(key);
  }

  /** After a failed workload-update migration a VMI waits (20s, doubling, up to 5m) before the next. */
  inBackoff(namespace: string, vmiName: string): boolean {
    const b = this.backoff.get(`${namespace}/${vmiName}`);
    return b !== undefined && b.until > this.ctx.clock.now();
  }

  /** Creates a migration of a VMI, as the workload updater (or a node drain's evacuation) would. */
  create(namespace: string, vmiName: string, workloadUpdate = true): KubeObject | undefined {
    const vmi = this.ctx.store.get('virtualmachineinstances', namespace, vmiName);
    const sourcePod = this.vms.vmiLauncherPod(namespace, vmiName);
    if (!vmi || !sourcePod) return undefined;
    // The workload updater's migrations and a node drain's evacuations, named as KubeVirt names them.
    const name = `kubevirt-${workloadUpdate ? 'workload-update' : 'evacuation'}-${this.ctx.rng.suffix()}`;
    const obj = this.ctx.store.upsert('virtualmachineinstancemigrations', migrationObject(namespace, name, vmiName, nowStamp(this.ctx), workloadUpdate));
    this.track({
      namespace,
      name,
      uid: obj.metadata.uid!,
      vmiName,
      vmiUid: vmi.metadata.uid!,
      phase: 'Pending',
      sourceNode: String((vmi.status as { nodeName?: string }).nodeName ?? ''),
      sourcePod,
      epoch: 0,
    });
    recordEvent(this.ctx, vmi, 'Normal', 'SuccessfulCreate', `Created Migration ${name} for ${workloadUpdate ? 'automated workload update' : 'evacuation of a draining node'}`, workloadUpdate ? 'workload-update-controller' : 'disruptionbudget-controller');
    this.pump();
    return obj;
  }

  /**
   * A migration as a scenario starts with it: already Succeeded or Failed (history), or hanging in
   * Running after a skipped minor. The VMI's migrationState shows the last one.
   */
  seed(namespace: string, vmiName: string, state: 'Succeeded' | 'Failed' | 'Stuck', ageMs: number, past?: { reason?: string; abortStatus?: 'Succeeded' }): void {
    const vmi = this.ctx.store.get('virtualmachineinstances', namespace, vmiName);
    const currentPod = this.vms.vmiLauncherPod(namespace, vmiName);
    if (!vmi || !currentPod) return;
    const currentNode = String((vmi.status as { nodeName?: string }).nodeName ?? '');
    const otherNode = this.nodes.schedule(currentNode) ?? currentNode;
    const otherPod = `virt-launcher-${vmiName}-${this.ctx.rng.suffix()}`;
    // A migration that succeeded brought the VMI where it is now; one that failed or hangs started here
    const moved = state === 'Succeeded';
    const [sourceNode, targetNode] = moved ? [otherNode, currentNode] : [currentNode, otherNode];
    const [sourcePod, targetPod] = moved ? [otherPod, currentPod] : [currentPod, otherPod];
    const now = this.ctx.clock.now();
    const stamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const created = stamp(now - ageMs);
    const name = `kubevirt-workload-update-${this.ctx.rng.suffix()}`;
    const phase: MigrationPhase = state === 'Stuck' ? 'Running' : state;
    const obj = this.ctx.store.upsert('virtualmachineinstancemigrations', migrationObject(namespace, name, vmiName, created, true));
    // The phases of the past one took what a migration takes in the lab now (start(), run()): the
    // target pod's start-up, then the memory copy over the lab network.
    const scheduled = timings.migrationScheduling + timings.migrationTargetPodStart;
    const offsets = [0, 0, scheduled, scheduled + timings.migrationPreparingTarget, scheduled + timings.migrationPreparingTarget + timings.migrationTargetReady];
    const runningAt = offsets.at(-1)! + 1000;
    offsets.push(runningAt);
    const copyMs = ((this.vms.definition(namespace, vmiName)?.memoryGi ?? 1) * 2 ** 30 * 1000) / timings.migrationNetworkBytesPerSecond;
    const m: Migration = { namespace, name, uid: obj.metadata.uid!, vmiName, vmiUid: vmi.metadata.uid!, phase, sourceNode, sourcePod, targetNode, targetPod, startTimestamp: stamp(now - ageMs + runningAt), outcome: state === 'Stuck' ? 'stuck' : state === 'Failed' ? 'fail' : 'succeed', epoch: 0 };
    this.track(m);
    const ms: MigrationStateInput = {
      migrationUid: m.uid,
      sourceNode,
      targetNode,
      sourcePod,
      targetPod,
      startTimestamp: m.startTimestamp,
      completed: state !== 'Stuck',
      failed: state === 'Failed',
      ...(state === 'Stuck' ? {} : { endTimestamp: stamp(now - ageMs + runningAt + (state === 'Failed' ? timings.migrationFailAfter : copyMs)) }),
      ...(state === 'Failed' ? { failureReason: past?.reason ?? closedSocketReason } : {}),
      ...(state === 'Failed' && past?.abortStatus ? { abortStatus: past.abortStatus } : {}),
    };
    const phases: MigrationPhase[] = ['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', ...(state === 'Stuck' ? [] : [phase])];
    this.ctx.store.update('virtualmachineinstancemigrations', namespace, name, (o) => {
      o.status = { phase, phaseTransitionTimestamps: phases.map((p, i) => ({ phase: p, phaseTransitionTimestamp: stamp(now - ageMs + (offsets[i] ?? runningAt + copyMs)) })), migrationState: migrationState(ms) };
    });
    this.ctx.store.update('virtualmachineinstances', namespace, vmiName, (o) => {
      (o.status as Record<string, unknown>).migrationState = migrationState(ms);
      if (state === 'Stuck') (o.metadata.labels ??= {})['kubevirt.io/migrationTargetNodeName'] = targetNode;
    });
    if (state === 'Stuck') {
      // The hanging migration's target pod is still there, running the new launcher
      const created = this.ctx.store.upsert(
        'pods',
        launcherPodObject({
          vm: this.vms.definition(namespace, vmiName)!,
          vmiUid: m.vmiUid,
          name: targetPod,
          node: targetNode,
          image: this.kubevirt.currentLauncherImage(),
          podIP: this.network.podIp(targetNode),
          hostIP: this.network.nodeIp(targetNode),
          created: stamp(now - ageMs + 4000),
          state: { kind: 'running' },
          migrationJobUid: m.uid,
        }),
      );
      m.targetPodUid = created.metadata.uid!;
    }
    // A failure long past holds no back-off today; only the skipped minor's own failures leave its symptoms.
    if (state === 'Failed' && ageMs < timings.migrationBackoffMax) this.noteFailure(namespace, vmiName);
    if (state !== 'Succeeded' && !past?.reason) this.writeSkipLogs(m, state === 'Failed');
  }

  /** VMIs (`namespace/name`) whose migration's abort fails: KubeVirt reports `abortStatus: Failed` and the migration goes on. */
  setAbortFailures(vmis: Iterable<string>): void {
    this.abortFails = new Set(vmis);
  }

  /**
   * A VMIM was deleted. Its finalizer (`kubevirt.io/migrationJobFinalize`) keeps it, with its
   * deletionTimestamp, until the migration is final (kubevirt pkg/virt-controller/watch/migration):
   * before the hand-off to virt-handler (Pending, Scheduling, Scheduled) the controller fails it at
   * once; after it, the VMI's `migrationState.abortRequested` is set and virt-handler aborts
   * (`abortStatus` Aborting, then Succeeded: the migration fails and the object goes; or Failed:
   * the migration runs on and the object stays until it ends some other way).
   */
  deleted(obj: KubeObject): void {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    const m = this.migrations.get(key);
    if (!m || finished(m.phase)) {
      this.release(obj.metadata.namespace ?? '', obj.metadata.name);
      return;
    }
    this.ctx.store.update('virtualmachineinstancemigrations', m.namespace, m.name, (o) => {
      const st = (o.status ??= {}) as { conditions?: unknown[] };
      // A new KubeVirt condition gets a probe time and no transition time.
      st.conditions = [...(st.conditions ?? []), { type: 'migrationAbortRequested', status: 'True', lastProbeTime: nowStamp(this.ctx), lastTransitionTime: null }];
    });
    const vmim = this.ctx.store.get('virtualmachineinstancemigrations', m.namespace, m.name);
    if (m.phase === 'Pending' || m.phase === 'Scheduling' || m.phase === 'Scheduled') {
      if (vmim) recordEvent(this.ctx, vmim, 'Warning', 'FailedMigration', 'Migration failed due to being canceled', 'virtualmachineinstancemigration-controller');
      this.fail(m, 'Migration aborted: the VirtualMachineInstanceMigration was deleted', false, { abortStatus: 'Succeeded' });
      return;
    }
    const vmi = this.ctx.store.get('virtualmachineinstances', m.namespace, m.vmiName);
    if (vmi) recordEvent(this.ctx, vmi, 'Normal', 'Migrating', 'VirtualMachineInstance is aborting migration.', 'virt-handler');
    this.updateVmiState(m, { completed: false, failed: false, ...(m.startTimestamp ? { startTimestamp: m.startTimestamp } : {}), abortRequested: true, abortStatus: 'Aborting' });
    const epoch = m.epoch;
    this.ctx.clock.after(timings.migrationAbort, () => {
      if (m.epoch !== epoch || !this.migrations.has(key)) return;
      if (this.abortFails.has(`${m.namespace}/${m.vmiName}`)) {
        this.updateVmiState(m, { completed: false, failed: false, ...(m.startTimestamp ? { startTimestamp: m.startTimestamp } : {}), abortRequested: true, abortStatus: 'Failed' });
        const source = this.kubevirt.handlerPodOn(m.sourceNode);
        if (source) this.ctx.logs.append('kubevirt', source.metadata.name, kubevirtLine(this.ctx.clock.now(), 'virt-handler', 'error', 'Failed to abort live migration', { kind: 'VirtualMachineInstance', name: m.vmiName, namespace: m.namespace, uid: m.vmiUid, reason: 'virError(Code=55, Domain=10, Message=\'Requested operation is not valid: no job is active on the domain\')' }));
        return;
      }
      this.fail(m, abortedReason, true, { abortStatus: 'Succeeded' });
    });
  }

  /** The controller drops the finalizer: the object goes once its delete was asked for. */
  private release(namespace: string, name: string): void {
    const obj = this.ctx.store.get('virtualmachineinstancemigrations', namespace, name);
    if (!obj?.metadata.deletionTimestamp) return;
    const m = this.migrations.get(`${namespace}/${name}`);
    if (m) this.untrack(m);
    this.ctx.store.remove('virtualmachineinstancemigrations', namespace, name);
  }

  /** A migration's target pod was deleted: that migration fails (the VMI stays on its source). */
  targetPodDeleted(pod: KubeObject): boolean {
    const vmiName = pod.metadata.labels?.['vm.kubevirt.io/name'];
    for (const m of this.byVmi.get(`${pod.metadata.namespace}/${vmiName}`) ?? []) {
      if (m.targetPod !== pod.metadata.name) continue;
      if (!finished(m.phase)) this.fail(m, `Migration failed: target pod ${pod.metadata.name} was deleted`, true);
      return true;
    }
    return false;
  }

  /** Every unfinished migration of a VMI fails (the VMI is going away). */
  abortFor(namespace: string, vmiName: string, reason: string): void {
    for (const m of [...(this.byVmi.get(`${namespace}/${vmiName}`) ?? [])]) {
      if (finished(m.phase)) continue;
      this.fail(m, `Migration failed: ${reason}`, false);
    }
  }

  /** Starts waiting migrations while the cluster-wide and per-node limits allow. */
  pump(): void {
    const limits = clusterLimits(this.ctx.store);
    let running = 0;
    const perNode = new Map<string, number>();
    for (const m of this.migrations.values()) {
      if (!active(m.phase)) continue;
      running += 1;
      perNode.set(m.sourceNode, (perNode.get(m.sourceNode) ?? 0) + 1);
    }
    for (const m of this.migrations.values()) {
      if (running >= limits.perCluster) return;
      if (m.phase !== 'Pending') continue;
      if ((perNode.get(m.sourceNode) ?? 0) >= limits.perNode) continue;
      running += 1;
      perNode.set(m.sourceNode, (perNode.get(m.sourceNode) ?? 0) + 1);
      this.start(m);
    }
  }

  private start(m: Migration): void {
    const vmi = this.ctx.store.get('virtualmachineinstances', m.namespace, m.vmiName);
    const def = this.vms.definition(m.namespace, m.vmiName);
    if (!vmi || vmi.metadata.uid !== m.vmiUid || !def) {
      this.fail(m, 'Migration failed: the VMI is gone', false);
      return;
    }
    const targetNode = this.nodes.schedule(m.sourceNode);
    // No other Ready worker: it waits in Pending and the next pump tries again
    if (!targetNode) return;
    this.setPhase(m, 'Scheduling');
    const launcherImage = this.kubevirt.currentLauncherImage();
    const sourceImage = String((vmi.status as { launcherContainerImageVersion?: string }).launcherContainerImageVersion ?? '');
    m.outcome = skippedMinor(sourceImage, imageVersion(launcherImage)) ? skippedMinorOutcome(`${m.namespace}/${m.vmiName}`) : 'succeed';
    m.targetNode = targetNode;
    m.targetPod = `virt-launcher-${m.vmiName}-${this.ctx.rng.suffix()}`;
    const podIP = this.network.podIp(targetNode);
    const pod = this.ctx.store.upsert(
      'pods',
      launcherPodObject({ vm: def, vmiUid: m.vmiUid, name: m.targetPod, node: targetNode, image: launcherImage, podIP, hostIP: this.network.nodeIp(targetNode), created: nowStamp(this.ctx), state: { kind: 'pending', reason: 'ContainerCreating', message: '' }, migrationJobUid: m.uid }),
    );
    m.targetPodUid = pod.metadata.uid!;
    const epoch = m.epoch;
    const step = (ms: number, fn: () => void) => this.ctx.clock.after(ms, () => m.epoch === epoch && this.migrations.has(`${m.namespace}/${m.name}`) && fn());
    const memoryGi = def.memoryGi;
    const dirty = (def.dirtyRateMiBps ?? 0) * 2 ** 20;
    step(timings.migrationScheduling + timings.migrationTargetPodStart, () => {
      this.ctx.store.update('pods', m.namespace, m.targetPod!, (p) => setPodState(p, { kind: 'running' }, nowStamp(this.ctx)));
      this.setPhase(m, 'Scheduled');
      step(timings.migrationPreparingTarget, () => {
        this.setPhase(m, 'PreparingTarget');
        step(timings.migrationTargetReady, () => {
          this.setPhase(m, 'TargetReady');
          step(1000, () => this.run(m, podIP, launcherImage, memoryGi, dirty, step));
        });
      });
    });
  }

  private run(m: Migration, podIP: string | undefined, launcherImage: string, memoryGi: number, dirty: number, step: (ms: number, fn: () => void) => void): void {
    m.startTimestamp = nowStamp(this.ctx);
    this.setPhase(m, 'Running');
    this.updateVmiState(m, { completed: false, failed: false, startTimestamp: m.startTimestamp });
    this.ctx.store.update('virtualmachineinstances', m.namespace, m.vmiName, (o) => {
      (o.metadata.labels ??= {})['kubevirt.io/migrationTargetNodeName'] = m.targetNode!;
    });
    this.handlerLog(m, 'Starting live migration', m.targetNode!);
    if (m.outcome === 'stuck') {
      this.writeSkipLogs(m, false);
      return;
    }
    if (m.outcome === 'fail') {
      step(timings.migrationFailAfter, () => {
        this.writeSkipLogs(m, true);
        this.fail(m, closedSocketReason, true);
      });
      return;
    }
    const vmi = this.ctx.store.get('virtualmachineinstances', m.namespace, m.vmiName);
    const cfg = vmi ? migrationConfigFor(this.ctx.store, vmi) : undefined;
    const bytes = memoryGi * 2 ** 30;
    const rate = cfg?.bytesPerSecond ?? timings.migrationNetworkBytesPerSecond;
    // Auto-converge throttles the guest until its dirty rate falls under the bandwidth; post-copy always finishes.
    const helped = cfg !== undefined && (cfg.allowAutoConverge || cfg.allowPostCopy);
    const firstPass = (bytes / rate) * 1000;
    const completion = cfg ? cfg.completionTimeoutPerGiB * memoryGi * 1000 : Infinity;
    if (!helped && dirty >= rate) {
      // The first pass copies everything; after it the remaining data stops shrinking, and
      // virt-launcher aborts after progressTimeout without progress (or at the completion timeout).
      const stuck = cfg!.progressTimeout;
      const at = Math.min(firstPass + stuck * 1000, completion);
      step(at, () => this.abortedByLauncher(m, at === completion ? `Live migration is not completed after ${cfg!.completionTimeoutPerGiB * memoryGi} seconds and has been aborted` : `Live migration stuck for ${stuck} seconds and has been aborted`));
      return;
    }
    const copy = (bytes / Math.max(1, rate - (helped ? 0 : dirty))) * 1000;
    if (copy > completion && !cfg?.allowPostCopy) {
      step(completion, () => this.abortedByLauncher(m, `Live migration is not completed after ${cfg!.completionTimeoutPerGiB * memoryGi} seconds and has been aborted`));
      return;
    }
    step(copy, () => this.succeed(m, podIP, launcherImage));
  }

  /**
   * virt-launcher gave up on a migration that does not converge (kubevirt pkg/virt-launcher
   * live-migration-source.go: the progress and completion timeouts): the migration fails, the VMI
   * stays on its source and the workload updater tries again after its back-off.
   */
  private abortedByLauncher(m: Migration, reason: string): void {
    const source = this.kubevirt.handlerPodOn(m.sourceNode);
    if (source) this.ctx.logs.append('kubevirt', source.metadata.name, kubevirtLine(this.ctx.clock.now(), 'virt-handler', 'warning', reason, { kind: 'VirtualMachineInstance', name: m.vmiName, namespace: m.namespace, uid: m.vmiUid }));
    this.fail(m, reason, true, { abortStatus: 'Succeeded' });
  }

  private succeed(m: Migration, podIP: string | undefined, launcherImage: string): void {
    const at = nowStamp(this.ctx);
    m.epoch += 1;
    this.setPhase(m, 'Succeeded');
    this.updateVmiState(m, { completed: true, failed: false, ...(m.startTimestamp ? { startTimestamp: m.startTimestamp } : {}), endTimestamp: at });
    this.ctx.store.update('virtualmachineinstances', m.namespace, m.vmiName, (o) => {
      delete (o.metadata.labels ?? {})['kubevirt.io/migrationTargetNodeName'];
    });
    this.vms.migrated(m.namespace, m.vmiName, m.targetNode!, m.targetPod!, m.targetPodUid!, launcherImage, podIP);
    this.backoff.delete(`${m.namespace}/${m.vmiName}`);
    const source = m.sourcePod;
    this.ctx.store.update('pods', m.namespace, source, (p) => setPodState(p, { kind: 'succeeded' }, at));
    this.ctx.logs.append(m.namespace, source, kubevirtLine(this.ctx.clock.now(), 'virt-launcher', 'info', 'Migration has been completed', { name: m.vmiName, namespace: m.namespace, uid: m.vmiUid, pos: 'live-migration-source.go:771' }), 'compute');
    this.ctx.clock.after(timings.sourcePodCleanup, () => {
      this.ctx.store.remove('pods', m.namespace, source);
      this.ctx.logs.forget(m.namespace, source);
    });
    this.handlerLog(m, 'Live migration succeeded', m.targetNode!);
    const vmi = this.ctx.store.get('virtualmachineinstances', m.namespace, m.vmiName);
    if (vmi) recordEvent(this.ctx, vmi, 'Normal', 'Migrated', `The VirtualMachineInstance migrated to node ${m.targetNode!}.`, 'virt-handler');
    this.release(m.namespace, m.name);
    this.collectGarbage(m.namespace, m.vmiName);
    this.pump();
    this.onFinished();
  }

  private fail(m: Migration, reason: string, countsForBackoff: boolean, abort?: { abortStatus: 'Succeeded' }): void {
    const at = nowStamp(this.ctx);
    m.epoch += 1;
    // The VMI hears of a migration only at the hand-off to virt-handler (PreparingTarget on).
    const started = m.phase === 'PreparingTarget' || m.phase === 'TargetReady' || m.phase === 'Running';
    this.setPhase(m, 'Failed');
    this.removeTargetPod(m);
    if (started) {
      this.updateVmiState(m, { completed: true, failed: true, ...(m.startTimestamp ? { startTimestamp: m.startTimestamp } : {}), endTimestamp: at, failureReason: reason, ...(abort ? { abortRequested: true, abortStatus: abort.abortStatus } : {}) });
      this.ctx.store.update('virtualmachineinstances', m.namespace, m.vmiName, (o) => {
        delete (o.metadata.labels ?? {})['kubevirt.io/migrationTargetNodeName'];
      });
      const vmi = this.ctx.store.get('virtualmachineinstances', m.namespace, m.vmiName);
      // virt-handler records a failed migration under the reason Migrated (kubevirt pkg/virt-handler/vm.go).
      if (vmi) recordEvent(this.ctx, vmi, 'Warning', 'Migrated', `VirtualMachineInstance migration uid ${m.uid} failed. reason:${reason}`, 'virt-handler');
    }
    if (countsForBackoff) this.noteFailure(m.namespace, m.vmiName);
    this.release(m.namespace, m.name);
    this.collectGarbage(m.namespace, m.vmiName);
    this.pump();
    this.onFinished();
  }

  private noteFailure(namespace: string, vmiName: string): void {
    const key = `${namespace}/${vmiName}`;
    const failures = (this.backoff.get(key)?.failures ?? 0) + 1;
    const wait = Math.min(timings.migrationBackoffMax, timings.migrationBackoffInitial * 2 ** (failures - 1));
    this.backoff.set(key, { failures, until: this.ctx.clock.now() + wait });
  }

  private removeTargetPod(m: Migration): void {
    if (!m.targetPod) return;
    this.ctx.store.remove('pods', m.namespace, m.targetPod);
    this.ctx.logs.forget(m.namespace, m.targetPod);
  }

  private setPhase(m: Migration, phase: MigrationPhase): void {
    m.phase = phase;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('virtualmachineinstancemigrations', m.namespace, m.name, (o) => {
      const st = (o.status ??= {}) as { phase?: string; phaseTransitionTimestamps?: unknown[] };
      st.phase = phase;
      (st.phaseTransitionTimestamps ??= []).push({ phase, phaseTransitionTimestamp: at });
    });
  }

  private updateVmiState(m: Migration, s: Omit<MigrationStateInput, 'migrationUid' | 'sourceNode' | 'targetNode' | 'sourcePod' | 'targetPod'>): void {
    const state = migrationState({ migrationUid: m.uid, sourceNode: m.sourceNode, targetNode: m.targetNode ?? '', sourcePod: m.sourcePod, targetPod: m.targetPod ?? '', ...s });
    this.ctx.store.update('virtualmachineinstances', m.namespace, m.vmiName, (o) => {
      if (o.metadata.uid === m.vmiUid) (o.status as Record<string, unknown>).migrationState = state;
    });
    this.ctx.store.update('virtualmachineinstancemigrations', m.namespace, m.name, (o) => {
      (o.status as Record<string, unknown>).migrationState = state;
    });
  }

  /** A line in the source node's virt-handler log about this migration. */
  private handlerLog(m: Migration, msg: string, targetNode: string): void {
    const handler = this.kubevirt.handlerPodOn(m.sourceNode);
    if (!handler) return;
    this.ctx.logs.append('kubevirt', handler.metadata.name, kubevirtLine(this.ctx.clock.now(), 'virt-handler', 'info', msg, { kind: 'VirtualMachineInstance', name: m.vmiName, namespace: m.namespace, uid: m.vmiUid, targetNode }));
  }

  /** The skipped-minor symptoms in the logs of the launcher pods and the source node's virt-handler. */
  private writeSkipLogs(m: Migration, failed: boolean): void {
    const now = this.ctx.clock.now();
    const ref = { namespace: m.namespace, name: m.vmiName, uid: m.vmiUid };
    const handler = this.kubevirt.handlerPodOn(m.sourceNode);
    if (handler) this.ctx.logs.append('kubevirt', handler.metadata.name, handlerDirtyRateLine(now, ref));
    this.ctx.logs.append(m.namespace, m.sourcePod, [launcherNetworkCacheLine(now, ref), ...(failed ? launcherMigrationFailedLines(now, ref) : [])], 'compute');
    if (m.targetPod && this.ctx.store.get('pods', m.namespace, m.targetPod)) this.ctx.logs.append(m.namespace, m.targetPod, launcherNetworkCacheLine(now, ref), 'compute');
  }

  /** Keeps the newest finished migrations per VMI, as KubeVirt's garbage collection does (those being deleted are not counted). */
  private collectGarbage(namespace: string, vmiName: string): void {
    const done = [...(this.byVmi.get(`${namespace}/${vmiName}`) ?? [])].filter((m) => finished(m.phase) && !this.ctx.store.get('virtualmachineinstancemigrations', m.namespace, m.name)?.metadata.deletionTimestamp);
    if (done.length <= finishedPerVmiKept) return;
    const byAge = done
      .map((m) => ({ m, created: String(this.ctx.store.get('virtualmachineinstancemigrations', m.namespace, m.name)?.metadata.creationTimestamp ?? '') }))
      .sort((a, b) => a.created.localeCompare(b.created));
    for (const { m } of byAge.slice(0, done.length - finishedPerVmiKept)) {
      this.untrack(m);
      this.ctx.store.remove('virtualmachineinstancemigrations', m.namespace, m.name);
    }
  }
}
