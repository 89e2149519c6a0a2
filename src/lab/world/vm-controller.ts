/**
 * KubeVirt's VM controller and virt-api's restart subresource: VMs own VMIs; a VMI runs in a
 * virt-launcher pod on a node. A restart (PUT .../virtualmachines/{name}/restart, 202) shuts the
 * guest down gracefully and boots a new VMI (new uid and creationTimestamp) on the launcher the
 * running virt-controller hands out, so it is no longer outdated. RunStrategy Halted refuses, as
 * virt-api does. A secure-boot VM started while `SMM` is not among the KubeVirt feature gates fails
 * to start and crash-loops (the domain is defined without SMM, which secure-boot firmware requires).
 */
import type { KubeObject, KubeStatusError } from '../kube/types.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { nowStamp, recordEvent, type WorldContext } from './context.js';
import { kubeTimestamp } from '../kube/store.js';
import { setPodState } from './k8s-objects.js';
import { launcherPodObject, outdatedLabel, vmiObject, vmObject, vmStatus, vmTemplateSpec, type VmDefinition } from './kubevirt-objects.js';
import { kubevirtLine } from './logs.js';
import type { PodNetwork } from './pod-network.js';
import { timings } from './timings.js';

/** From a new VMI to its guest running: scheduling, the launcher pod's start, the guest's boot. */
const vmiBootMs = timings.vmiScheduling + timings.vmiLauncherStart + timings.vmiGuestBoot;

export interface KubevirtView {
  currentLauncherImage(): string;
  gates(): string[];
}

export interface MigrationAborter {
  /** Stops any migration of this VMI (its VMI is going away). */
  abortFor(namespace: string, vmiName: string, reason: string): void;
}

interface LiveVmi {
  uid: string;
  node: string;
  launcherPod: string;
  launcherImage: string;
  running: boolean;
}

interface VmRecord {
  def: VmDefinition;
  uid: string;
  vmi: LiveVmi | undefined;
  /** A restart or eviction is under way (the guest is shutting down or booting). */
  busy: boolean;
  /** Bumped whenever the VM's lifecycle restarts; stale timers compare it and stop. */
  epoch: number;
}

const secureBootError = "virError(Code=67, Domain=10, Message='unsupported configuration: Secure boot requires SMM feature enabled')";

export class VmController {
  private readonly vms = new Map<string, VmRecord>();
  private aborter: MigrationAborter | undefined;

  constructor(
    private readonly ctx: WorldContext,
    private readonly nodes: ClusterNodes,
    private readonly network: PodNetwork,
    private readonly kubevirt: KubevirtView,
    private readonly blockStorageClass: () => string,
  ) {}

  setMigrationAborter(a: MigrationAborter): void {
    this.aborter = a;
  }

  definition(namespace: string, name: string): VmDefinition | undefined {
    return this.vms.get(`${namespace}/${name}`)?.def;
  }

  /** Running VMIs: namespace, name, node, launcher image. */
  *runningVmis(): Generator<{ namespace: string; name: string; node: string; launcherImage: string; def: VmDefinition; uid: string }> {
    for (const r of this.vms.values()) {
      if (r.vmi?.running && !r.busy) yield { namespace: r.def.namespace, name: r.def.name, node: r.vmi.node, launcherImage: r.vmi.launcherImage, def: r.def, uid: r.vmi.uid };
    }
  }

  /** VMs shutting down or being restarted whose VMI is still on `node` (a drain waits for them). */
  stoppingOn(node: string): number {
    let n = 0;
    for (const r of this.vms.values()) if (r.busy && r.vmi?.node === node) n += 1;
    return n;
  }

  vmiLauncherPod(namespace: string, name: string): string | undefined {
    return this.vms.get(`${namespace}/${name}`)?.vmi?.launcherPod;
  }

  /** Creates a VM as it is now: running on a launcher (outdated or not), or stopped. */
  seed(def: VmDefinition, opts: { launcherImage: string; outdated: boolean }): void {
    const stopped = def.runStrategy === 'Halted' || def.runStrategy === 'Manual';
    // A running VM was created before its VMI booted (createVmi dates that boot).
    const created = stopped ? nowStamp(this.ctx) : kubeTimestamp(Math.floor((this.ctx.clock.now() - vmiBootMs) / 1000) * 1000);
    const node = stopped ? undefined : (def.node ?? this.nodes.schedule());
    const vm = vmObject(def, this.blockStorageClass(), created);
    if (node) vm.status = vmStatus('Running', true, created);
    const r: VmRecord = { def, uid: this.ctx.store.upsert('virtualmachines', vm).metadata.uid!, vmi: undefined, busy: false, epoch: 0 };
    this.vms.set(`${def.namespace}/${def.name}`, r);
    if (node) this.createVmi(r, node, opts.launcherImage, 'Running', opts.outdated);
  }

  /** PUT .../virtualmachines/{name}/restart */
  restart(namespace: string, name: string): { status: number } | KubeStatusError {
    const r = this.vms.get(`${namespace}/${name}`);
    if (!r) return { code: 404, reason: 'NotFound', message: `virtualmachines.kubevirt.io "${name}" not found`, details: { name, group: 'kubevirt.io', kind: 'virtualmachines' } };
    const strategy = r.def.runStrategy;
    if (strategy === 'Halted' || strategy === 'Once') return conflict(name, `RunStategy ${strategy} does not support manual restart requests`);
    if (!r.vmi) return conflict(name, 'VM is not running: Halted');
    this.cycle(r, 'restart');
    return { status: 202 };
  }

  /** The workload updater's Evict method: the VMI goes, the VM controller starts a new one. */
  evict(namespace: string, name: string): void {
    const r = this.vms.get(`${namespace}/${name}`);
    if (r?.vmi && !r.busy) this.cycle(r, 'evict');
  }

  /** A VMI was deleted through the API: its VM (RunStrategy Always) starts a new one. */
  vmiDeleted(obj: KubeObject): void {
    const r = this.vms.get(`${obj.metadata.namespace}/${obj.metadata.name}`);
    if (!r?.vmi || r.vmi.uid !== obj.metadata.uid) return;
    this.aborter?.abortFor(r.def.namespace, r.def.name, 'VMI was deleted');
    this.teardown(r);
    this.afterStop(r);
  }

  /** A VM was deleted through the API: its VMI and launcher go with it (cascading deletion). */
  vmDeleted(obj: KubeObject): void {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    const r = this.vms.get(key);
    if (!r || r.uid !== obj.metadata.uid) return;
    r.epoch += 1;
    this.aborter?.abortFor(r.def.namespace, r.def.name, 'VM was deleted');
    this.teardown(r);
    this.vms.delete(key);
    // Its finalizer (kubevirt.io/virtualMachineControllerFinalize) goes once the VMI is gone, and the VM with it.
    this.ctx.store.remove('virtualmachines', r.def.namespace, r.def.name);
  }

  /** The active launcher pod was deleted: the domain dies with it and the VMI fails. */
  launcherPodDeleted(pod: KubeObject): boolean {
    const vmName = pod.metadata.labels?.['vm.kubevirt.io/name'];
    const r = vmName ? this.vms.get(`${pod.metadata.namespace}/${vmName}`) : undefined;
    if (!r?.vmi || r.vmi.launcherPod !== pod.metadata.name) return false;
    this.ctx.logs.forget(r.def.namespace, pod.metadata.name);
    this.aborter?.abortFor(r.def.namespace, r.def.name, 'source pod was deleted');
    this.ctx.store.update('virtualmachineinstances', r.def.namespace, r.def.name, (o) => {
      (o.status as Record<string, unknown>).phase = 'Failed';
      (o.status as Record<string, unknown>).reason = 'PodTerminating';
    });
    r.vmi.running = false;
    r.busy = true;
    const epoch = ++r.epoch;
    this.ctx.clock.after(timings.vmRecreate, () => {
      if (r.epoch !== epoch) return;
      this.teardown(r);
      this.afterStop(r);
    });
    return true;
  }

  /** Labels VMIs whose launcher differs from the current one as outdated (and unlabels the rest). */
  markOutdated(currentLauncher: string): number {
    let outdated = 0;
    for (const r of this.vms.values()) {
      if (!r.vmi) continue;
      const isOld = r.vmi.launcherImage !== currentLauncher;
      if (isOld) outdated += 1;
      const obj = this.ctx.store.get('virtualmachineinstances', r.def.namespace, r.def.name);
      const has = obj?.metadata.labels?.[outdatedLabel] !== undefined;
      if (obj && has !== isOld) {
        this.ctx.store.update('virtualmachineinstances', r.def.namespace, r.def.name, (o) => {
          const labels = (o.metadata.labels ??= {});
          if (isOld) labels[outdatedLabel] = '';
          else delete labels[outdatedLabel];
        });
      }
    }
    return outdated;
  }

  /** A live migration succeeded: the VMI now runs in the target pod on the target node. */
  migrated(namespace: string, name: string, targetNode: string, targetPod: string, targetPodUid: string, launcherImage: string, podIP: string | undefined): void {
    const r = this.vms.get(`${namespace}/${name}`);
    if (!r?.vmi) return;
    this.nodes.addLoad(r.vmi.node, -1);
    this.nodes.addLoad(targetNode, 1);
    r.vmi = { ...r.vmi, node: targetNode, launcherPod: targetPod, launcherImage };
    const current = this.kubevirt.currentLauncherImage();
    this.ctx.store.update('virtualmachineinstances', namespace, name, (o) => {
      const labels = (o.metadata.labels ??= {});
      labels['kubevirt.io/nodeName'] = targetNode;
      if (launcherImage === current) delete labels[outdatedLabel];
      const st = o.status as Record<string, unknown>;
      st.nodeName = targetNode;
      st.launcherContainerImageVersion = launcherImage;
      st.activePods = { [targetPodUid]: targetNode };
      const ifaces = st.interfaces as Array<Record<string, unknown>> | undefined;
      if (ifaces?.[0] && podIP) {
        ifaces[0].ipAddress = podIP;
        ifaces[0].ipAddresses = [podIP];
      }
    });
  }

  /** Shut down (restart/evict) then start again. */
  private cycle(r: VmRecord, why: 'restart' | 'evict'): void {
    const vmi = r.vmi!;
    r.busy = true;
    const epoch = ++r.epoch;
    this.aborter?.abortFor(r.def.namespace, r.def.name, why === 'restart' ? 'VMI is shutting down for a restart' : 'VMI was evicted');
    const at = nowStamp(this.ctx);
    this.ctx.store.update('virtualmachineinstances', r.def.namespace, r.def.name, (o) => {
      o.metadata.deletionTimestamp = at;
      o.metadata.deletionGracePeriodSeconds = 180;
    });
    this.setVmStatus(r, 'Stopping', false);
    const vmObj = this.ctx.store.get('virtualmachines', r.def.namespace, r.def.name);
    if (vmObj) recordEvent(this.ctx, vmObj, 'Normal', why === 'restart' ? 'SuccessfulDelete' : 'Evicted', why === 'restart' ? `Stopped the virtual machine by deleting the virtual machine instance ${vmi.uid}` : `Evicted VMI ${r.def.name} for a workload update`, 'virtualmachine-controller');
    this.ctx.logs.append(r.def.namespace, vmi.launcherPod, kubevirtLine(this.ctx.clock.now(), 'virt-launcher', 'info', 'Signaled graceful shutdown', { name: r.def.name, namespace: r.def.namespace, uid: vmi.uid, pos: 'manager.go:1852' }), 'compute');
    const shutdown = vmi.running ? timings.vmShutdown : 2000;
    this.ctx.clock.after(shutdown, () => {
      if (r.epoch !== epoch) return;
      this.teardown(r);
      this.afterStop(r);
    });
  }

  /** Removes the VMI and its launcher pod(s). */
  private teardown(r: VmRecord): void {
    const vmi = r.vmi;
    if (!vmi) return;
    this.nodes.addLoad(vmi.node, -1);
    this.ctx.store.remove('virtualmachineinstances', r.def.namespace, r.def.name);
    for (const pod of this.ctx.store.list('pods', { namespace: r.def.namespace, labelSelector: `kubevirt.io/created-by=${vmi.uid}` })) {
      this.ctx.store.remove('pods', r.def.namespace, pod.metadata.name);
      this.ctx.logs.forget(r.def.namespace, pod.metadata.name);
    }
    r.vmi = undefined;
  }

  /** The VM controller acts on a VM whose VMI is gone. */
  private afterStop(r: VmRecord, delay: number = timings.vmRecreate): void {
    const epoch = ++r.epoch;
    if (r.def.runStrategy !== 'Always' && r.def.runStrategy !== 'RerunOnFailure') {
      r.busy = false;
      this.setVmStatus(r, 'Stopped', false);
      return;
    }
    this.setVmStatus(r, 'Starting', false);
    this.ctx.clock.after(delay, () => {
      if (r.epoch !== epoch) return;
      const node = r.def.localDisk ? r.def.node : this.nodes.schedule();
      if (!node || !this.nodes.isReady(node) || this.nodes.get(node)?.cordoned) {
        this.setVmStatus(r, 'ErrorUnschedulable', false);
        this.afterStop(r, timings.vmCrashLoopBackoff);
        return;
      }
      this.createVmi(r, node, this.kubevirt.currentLauncherImage(), 'Scheduling', false);
    });
  }

  /** A new VMI object and launcher pod; `Running` creates it settled (seeding), else it boots over time. */
  private createVmi(r: VmRecord, node: string, launcherImage: string, phase: 'Running' | 'Scheduling', outdated: boolean): void {
    const settled = phase === 'Running';
    // A VM seeded running has booted before the lab began: its VMI keeps the record of that boot
    // (created, then each phase until Running now), as a real one does.
    const now = this.ctx.clock.now();
    const created = settled ? kubeTimestamp(Math.floor((now - vmiBootMs) / 1000) * 1000) : nowStamp(this.ctx);
    const transitions = settled
      ? [
          { phase: 'Pending', at: created },
          { phase: 'Scheduling', at: created },
          { phase: 'Scheduled', at: kubeTimestamp(Math.floor((now - timings.vmiGuestBoot) / 1000) * 1000) },
          { phase: 'Running', at: nowStamp(this.ctx) },
        ]
      : undefined;
    const uid = this.ctx.rng.uuid();
    const podName = `virt-launcher-${r.def.name}-${this.ctx.rng.suffix()}`;
    const hostIP = this.network.nodeIp(node);
    const podIP = this.network.podIp(node);
    const pod = this.ctx.store.upsert(
      'pods',
      launcherPodObject({ vm: r.def, vmiUid: uid, name: podName, node, image: launcherImage, podIP, hostIP, created, state: settled ? { kind: 'running' } : { kind: 'pending', reason: 'ContainerCreating', message: '' } }),
    );
    const template = vmTemplateSpec(r.def);
    const templateLabels = (this.ctx.store.get('virtualmachines', r.def.namespace, r.def.name)?.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template?.metadata?.labels ?? {};
    this.ctx.store.upsert('virtualmachineinstances', vmiObject(r.def, r.uid, template, templateLabels, { uid, node, launcherImage, podIP, created, phase, outdated, launcherPodUid: pod.metadata.uid!, ...(transitions ? { transitions } : {}) }));
    r.vmi = { uid, node, launcherPod: podName, launcherImage, running: settled };
    this.nodes.addLoad(node, 1);
    if (settled) return;
    const epoch = r.epoch;
    const vmiPhase = (p: string, extra: (st: Record<string, unknown>) => void = () => undefined) =>
      this.ctx.store.update('virtualmachineinstances', r.def.namespace, r.def.name, (o) => {
        if (o.metadata.uid !== uid) return;
        const st = o.status as Record<string, unknown>;
        st.phase = p;
        (st.phaseTransitionTimestamps as unknown[]).push({ phase: p, phaseTransitionTimestamp: nowStamp(this.ctx) });
        extra(st);
      });
    this.ctx.clock.after(timings.vmiScheduling + timings.vmiLauncherStart, () => {
      if (r.epoch !== epoch) return;
      this.ctx.store.update('pods', r.def.namespace, podName, (p) => setPodState(p, { kind: 'running' }, nowStamp(this.ctx)));
      vmiPhase('Scheduled', (st) => {
        st.nodeName = node;
      });
      if (r.def.secureBoot && !this.kubevirt.gates().includes('SMM')) {
        this.ctx.clock.after(3000, () => r.epoch === epoch && this.failSecureBoot(r, uid, podName));
        return;
      }
      this.ctx.clock.after(timings.vmiGuestBoot, () => {
        if (r.epoch !== epoch) return;
        vmiPhase('Running', (st) => {
          st.conditions = (st.conditions as Array<Record<string, unknown>>).map((c) => (c.type === 'Ready' ? { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: nowStamp(this.ctx) } : c));
          (st.conditions as unknown[]).push({ type: 'AgentConnected', status: 'True', lastProbeTime: nowStamp(this.ctx), lastTransitionTime: null });
          st.interfaces = [{ name: 'default', interfaceName: 'eth0', ipAddress: podIP, ipAddresses: podIP ? [podIP] : [], infoSource: 'domain, guest-agent', queueCount: 1 }];
        });
        if (r.vmi) r.vmi.running = true;
        r.busy = false;
        this.setVmStatus(r, 'Running', true);
        this.ctx.logs.append(r.def.namespace, podName, kubevirtLine(this.ctx.clock.now(), 'virt-launcher', 'info', 'Domain started.', { name: r.def.name, namespace: r.def.namespace, uid, pos: 'manager.go:1109' }), 'compute');
      });
    });
  }

  /** The domain cannot be defined: secure-boot firmware without SMM. The VM crash-loops. */
  private failSecureBoot(r: VmRecord, uid: string, podName: string): void {
    const at = nowStamp(this.ctx);
    const message = `server error. command SyncVMI failed: "LibvirtError(Code=67, Domain=10, Message='unsupported configuration: Secure boot requires SMM feature enabled')"`;
    this.ctx.logs.append(
      r.def.namespace,
      podName,
      [
        kubevirtLine(this.ctx.clock.now(), 'virt-launcher', 'error', 'Failed to sync vmi', { name: r.def.name, namespace: r.def.namespace, uid, reason: secureBootError, pos: 'server.go:202' }),
        kubevirtLine(this.ctx.clock.now(), 'virt-launcher', 'error', 'Defining the VirtualMachineInstance failed.', { name: r.def.name, namespace: r.def.namespace, uid, reason: secureBootError, pos: 'manager.go:1036' }),
      ],
      'compute',
    );
    this.ctx.store.update('virtualmachineinstances', r.def.namespace, r.def.name, (o) => {
      if (o.metadata.uid !== uid) return;
      const st = o.status as Record<string, unknown>;
      st.phase = 'Failed';
      st.reason = 'SyncFailed';
      (st.conditions as unknown[]).push({ type: 'Synchronized', status: 'False', lastProbeTime: null, lastTransitionTime: at, reason: 'Synchronizing with the Domain failed.', message });
    });
    this.ctx.store.update('pods', r.def.namespace, podName, (p) => setPodState(p, { kind: 'failed', reason: 'Error', message: 'failed to define the domain', exitCode: 1 }, at));
    if (r.vmi) r.vmi.running = false;
    r.busy = false;
    this.setVmStatus(r, 'CrashLoopBackOff', false, { reason: 'FailedCreate', message });
    const vmObj = this.ctx.store.get('virtualmachines', r.def.namespace, r.def.name);
    if (vmObj) recordEvent(this.ctx, vmObj, 'Warning', 'SyncFailed', message, 'virt-handler');
    const epoch = r.epoch;
    // The VM controller's crash-loop back-off: try again later (and succeed once SMM is enabled)
    this.ctx.clock.after(timings.vmCrashLoopBackoff, () => {
      if (r.epoch !== epoch || r.busy) return;
      this.teardown(r);
      this.afterStop(r, 0);
    });
  }

  private setVmStatus(r: VmRecord, printable: string, ready: boolean, failure?: { reason: string; message: string }): void {
    const at = nowStamp(this.ctx);
    this.ctx.store.update('virtualmachines', r.def.namespace, r.def.name, (o) => {
      o.status = vmStatus(printable, ready, at, failure);
    });
  }
}

function conflict(name: string, why: string): KubeStatusError {
  return {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on virtualmachine.kubevirt.io "${name}": ${why}`,
    details: { name, group: 'kubevirt.io', kind: 'virtualmachine' },
  };
}
