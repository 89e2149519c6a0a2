/**
 * The simulated cluster behind both lab APIs. It owns the objects the Kubernetes double serves and
 * reacts through the doubles' hooks: a publish (Palette hook) makes the cluster reconcile; deleting
 * a migration cancels it; the restart subresource restarts a VM; pod logs come from here. Time is
 * the lab's SimClock, so tests jump ahead with `clock.advance` and the demo runs `--speed` times
 * faster than real time.
 */
import { parse } from 'yaml';
import type { KubeLabHooks, KubeObject, ResourceStoreApi } from '../kube/types.js';
import type { DeployedProfile, LabPack, LabProfile, PaletteLabHooks } from '../palette/types.js';
import type { SimClock } from '../sim-clock.js';
import { labSite } from '../data/site.js';
import { readClusterConfig, type ClusterConfig, type MacroContext } from './applied-config.js';
import { CiliumComponents } from './cilium.js';
import { ClusterNodes } from './cluster-nodes.js';
import type { ClusterIdentity, WorldContext } from './context.js';
import { setPodState, type NodeReadiness } from './k8s-objects.js';
import { KubevirtOperator } from './kubevirt-operator.js';
import { outdatedLabel } from './kubevirt-objects.js';
import { LoadBalancerController } from './load-balancer.js';
import { klogLine, PodLogs } from './logs.js';
import { MigrationController } from './migrations.js';
import { MonitoringComponents } from './monitoring.js';
import { NodeRoller } from './node-roll.js';
import { PaletteCluster } from './palette-cluster.js';
import { PlatformComponents } from './platform-components.js';
import { PodNetwork } from './pod-network.js';
import { Random } from './random.js';
import { Reconciler, type AppliedProfile, type ProfileRole, type ReconcileRecord } from './reconcile.js';
import { ServiceCatalog } from './services.js';
import { handlerDirtyRateLine, imageVersion, skippedMinor } from './skip-minor.js';
import { RookCephController } from './rook-ceph.js';
import { StorageController } from './storage.js';
import { timings } from './timings.js';
import { VmController } from './vm-controller.js';
import { WorkloadUpdater } from './workload-updater.js';
import { Workloads } from './workloads.js';

export interface WorldOptions {
  clock: SimClock;
  store: ResourceStoreApi;
  seed: number;
  cluster: ClusterIdentity;
  /** The profiles deployed on the cluster (their published content is what runs). */
  deployed: { addon: LabProfile; infra: LabProfile };
  /**
   * `spec` (default): a publish reaches the cluster by itself. `palette`: as a real Palette, a
   * published version reaches it only when applied; node rebuilds wait for approval.
   */
  flavor?: 'spec' | 'palette';
  /** Profiles by uid (the palette flavor's apply names versions by uid). */
  lookup?: (uid: string) => LabProfile | undefined;
  /** Packs whose upgrade fails (`name@tag` → the helm error): the change stops there, in Error. */
  packFailures?: Record<string, string>;
  /**
   * This cluster's values of a profile version's variables (the lab Palette's, set by an apply or
   * `PATCH /v1/spectroclusters/{uid}/variables`): `{{.spectro.var.NAME}}` in the packs of the
   * attached version renders with them, as Palette renders values before Helm sees them.
   */
  variableValues?: (profileUid: string) => Record<string, string> | undefined;
}

export interface WorldSummary {
  simTime: string;
  speed: number;
  reconcile: ReturnType<Reconciler['status']>;
  reconciliations: ReconcileRecord[];
  deployedProfiles: Array<{ name: string; version: string; packs: Record<string, string> }>;
  kubevirt: { phase: string; observedVersion: string; targetVersion: string; outdatedVMIs: number };
  cdi: { phase: string; observedVersion: string };
  storageCluster: { phase: string };
  migrations: Record<string, number>;
  vms: { total: number; running: number; outdated: number };
  nodes: { total: number; notReady: string[] };
  loadBalancerAddresses: Record<string, string>;
}

export class World {
  readonly ctx: WorldContext;
  readonly network = new PodNetwork();
  readonly nodes: ClusterNodes;
  readonly workloads: Workloads;
  readonly services: ServiceCatalog;
  readonly loadBalancer: LoadBalancerController;
  readonly storage: StorageController;
  readonly rook: RookCephController;
  readonly cilium: CiliumComponents;
  readonly monitoring: MonitoringComponents;
  readonly platform: PlatformComponents;
  readonly kubevirt: KubevirtOperator;
  readonly vms: VmController;
  readonly migrations: MigrationController;
  readonly updater: WorkloadUpdater;
  readonly reconciler: Reconciler;
  readonly roller: NodeRoller;
  /** The palette flavor's cluster (apply, repave, events); undefined in the spec flavor. */
  readonly palette: PaletteCluster | undefined;
  readonly kubeHooks: KubeLabHooks;
  /** API groups this cluster has no CRDs for (a scenario without Multus). */
  readonly absentGroups = new Set<string>();
  readonly paletteHooks: PaletteLabHooks;
  private readonly timers: number[] = [];
  private cachedConfig: { generation: number; config: ClusterConfig } | undefined;

  constructor(private readonly opts: WorldOptions) {
    const { clock, store, cluster } = opts;
    const logs = new PodLogs((ns, name) => store.get('pods', ns, name));
    this.ctx = { clock, store, rng: new Random(opts.seed), logs, cluster };
    this.nodes = new ClusterNodes(this.ctx, this.network);
    this.workloads = new Workloads(this.ctx, this.network);
    this.services = new ServiceCatalog(this.ctx, this.network);
    this.loadBalancer = new LoadBalancerController(this.ctx);
    this.storage = new StorageController(this.ctx, this.workloads, this.nodes);
    this.rook = new RookCephController(this.ctx, this.workloads, this.nodes);
    this.monitoring = new MonitoringComponents(this.ctx, this.workloads, this.nodes);
    this.platform = new PlatformComponents(this.ctx, this.workloads, this.nodes);

    const applied = (role: ProfileRole, p: LabProfile): AppliedProfile => {
      if (!p.published) throw new Error(`deployed profile ${p.name} has no published version`);
      return { uid: p.uid, name: p.name, role, version: p.published.version, packs: p.published.packs };
    };
    const failures = opts.packFailures ?? {};
    this.reconciler = new Reconciler(this.ctx, { addon: applied('addon', opts.deployed.addon), infra: applied('infra', opts.deployed.infra) }, {
      applyPack: (role, name, pack) => this.applyPack(role, name, pack),
      settled: () => this.kubevirt.settled() && this.storage.settled() && this.rook.settled() && !this.roller.busy(),
      failure: (_role, name, pack) => {
        const why = pack ? failures[`${name}@${pack.tag}`] : undefined;
        if (why) this.palette?.event('PackError', `${name} ${pack?.tag ?? ''}: ${why}`, 'Error');
        return why;
      },
      finished: (_role, name, version) => this.palette?.event('ClusterProfileReady', `${name} ${version}: every pack deployed and settled`),
    });
    const initial = this.config();
    this.cilium = new CiliumComponents(this.ctx, this.workloads, this.nodes, this.macros().podCidr, labSite.nodeNetwork);
    this.kubevirt = new KubevirtOperator(this.ctx, this.workloads, this.nodes, { launcherChanged: () => this.updater.sync(), deployed: () => this.updater.sync() }, initial);
    this.vms = new VmController(this.ctx, this.nodes, this.network, this.kubevirt, () => this.config().blockClass);
    this.migrations = new MigrationController(this.ctx, this.nodes, this.network, this.vms, this.kubevirt);
    this.vms.setMigrationAborter(this.migrations);
    this.updater = new WorkloadUpdater(this.ctx, this.kubevirt, this.vms, this.migrations);
    this.migrations.onFinished = () => this.updater.migrationChanged();
    this.palette =
      opts.flavor === 'palette'
        ? new PaletteCluster({ ctx: this.ctx, reconciler: this.reconciler, nodes: this.nodes, lookup: opts.lookup ?? (() => undefined), deployed: opts.deployed })
        : undefined;
    this.roller = new NodeRoller(this.ctx, this.nodes, this.vms, this.migrations, {
      setNodeReady: (name, ready) => this.setNodeReady(name, ready),
      event: (reason, message, severity) => this.palette?.event(reason, message, severity),
    });

    this.kubeHooks = {
      now: () => this.ctx.clock.now(),
      afterDelete: (resource, obj) => this.afterDelete(resource, obj),
      subresource: (req) => (req.resource === 'virtualmachines' && req.subresource === 'restart' && req.method === 'PUT' ? this.vms.restart(req.namespace ?? '', req.name) : undefined),
      logs: (namespace, pod, o) => this.ctx.logs.read(namespace, pod, o.container),
    };
    const paletteCluster = this.palette;
    this.paletteHooks = paletteCluster
      ? {
          onPublish: (profile) => paletteCluster.onPublish(profile),
          // Palette's profiles read lists what is attached, whether or not it has rolled out.
          clusterProfiles: (uid): DeployedProfile[] | undefined => (uid === cluster.uid ? paletteCluster.attachedProfiles() : undefined),
          cluster: paletteCluster,
        }
      : {
          onPublish: (profile) => {
            this.reconciler.onPublish(profile);
          },
          clusterProfiles: (uid): DeployedProfile[] | undefined => (uid === cluster.uid ? this.reconciler.deployed() : undefined),
        };
  }

  /** What the applied packs configure, right now. */
  config(): ClusterConfig {
    const generation = this.reconciler.generation();
    if (this.cachedConfig?.generation !== generation) this.cachedConfig = { generation, config: readClusterConfig(this.reconciler.currentPacks(), this.macros()) };
    return this.cachedConfig.config;
  }

  /** Starts the periodic controllers (after seeding). */
  start(): void {
    this.updater.start();
    this.updater.sync();
    this.timers.push(this.ctx.clock.every(timings.crashLoopPeriod, () => this.workloads.tickCrashLoops()));
    this.timers.push(this.ctx.clock.every(timings.statsPeriod, () => this.logSkippedMinorStats()));
  }

  stop(): void {
    this.updater.stop();
    for (const t of this.timers) this.ctx.clock.cancel(t);
    this.timers.length = 0;
  }

  /** A node stops (or resumes) reporting: its pods turn unready, storage on it goes offline. */
  setNodeReady(name: string, ready: NodeReadiness): void {
    this.nodes.setReady(name, ready);
    const at = new Date(this.ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (const pod of this.ctx.store.list('pods', { fieldSelector: `spec.nodeName=${name}` })) {
      if ((pod.status as { phase?: string }).phase !== 'Running') continue;
      this.ctx.store.update('pods', pod.metadata.namespace, pod.metadata.name, (p) =>
        setPodState(p, ready === 'True' ? { kind: 'running' } : { kind: 'notReady', message: 'node is not ready' }, at),
      );
    }
    this.storage.refresh();
    this.rook.refresh();
  }

  /**
   * What KubeVirt's `kubevirt_vmi_dirty_rate_bytes_per_second` gauge says of each running VMI
   * (virt-handler's domain stats; labels namespace, name, node): the scenario's rate for a busy
   * guest, a few MiB/s for an idle one.
   */
  dirtyRates(): Array<{ namespace: string; name: string; node: string; bytesPerSecond: number }> {
    return [...this.vms.runningVmis()].map((v) => ({ namespace: v.namespace, name: v.name, node: v.node, bytesPerSecond: (v.def.dirtyRateMiBps ?? 2) * 2 ** 20 }));
  }

  summary(): WorldSummary {
    const kv = this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt')?.status as Record<string, unknown> | undefined;
    const cdi = this.ctx.store.get('cdis', undefined, 'cdi')?.status as Record<string, unknown> | undefined;
    const stc = (this.ctx.store.list('storageclusters')[0] ?? this.ctx.store.list('cephclusters')[0])?.status as Record<string, unknown> | undefined;
    const migrations: Record<string, number> = {};
    for (const m of this.ctx.store.list('virtualmachineinstancemigrations')) {
      const phase = String((m.status as { phase?: string } | undefined)?.phase ?? 'Pending');
      migrations[phase] = (migrations[phase] ?? 0) + 1;
    }
    const vmis = this.ctx.store.list('virtualmachineinstances');
    return {
      simTime: new Date(this.ctx.clock.now()).toISOString(),
      speed: this.ctx.clock.getSpeed(),
      reconcile: this.reconciler.status(),
      reconciliations: this.reconciler.history(),
      deployedProfiles: this.reconciler.deployed().map((p) => ({ name: p.name, version: p.version, packs: Object.fromEntries(p.packs.map((k) => [k.name, k.tag])) })),
      kubevirt: { phase: String(kv?.phase ?? ''), observedVersion: String(kv?.observedKubeVirtVersion ?? ''), targetVersion: String(kv?.targetKubeVirtVersion ?? ''), outdatedVMIs: Number(kv?.outdatedVirtualMachineInstanceWorkloads ?? 0) },
      cdi: { phase: String(cdi?.phase ?? ''), observedVersion: String(cdi?.observedVersion ?? '') },
      storageCluster: { phase: String(stc?.phase ?? '') },
      migrations,
      vms: {
        total: this.ctx.store.count('virtualmachines'),
        running: vmis.filter((v) => (v.status as { phase?: string }).phase === 'Running').length,
        outdated: vmis.filter((v) => v.metadata.labels?.[outdatedLabel] !== undefined).length,
      },
      nodes: { total: this.nodes.names().length, notReady: this.nodes.all().filter((n) => n.ready !== 'True').map((n) => n.name) },
      loadBalancerAddresses: Object.fromEntries(this.loadBalancer.holders()),
    };
  }

  private macros(): MacroContext {
    const packs = this.reconciler.currentPacks();
    const k8s = packs.find((p) => p.name === 'kubernetes');
    const podCidr = String((parse(k8s?.values ?? '') as { pack?: { podCIDR?: string } } | null)?.pack?.podCIDR ?? labSite.podCidr);
    return { clusterUid: this.ctx.cluster.uid, clusterName: this.ctx.cluster.name, kubernetesVersion: k8s?.tag ?? '1.32.2', podCidr, variables: labSite.profileVariables, spectroVars: this.spectroVars() };
  }

  /**
   * The values `{{.spectro.var.NAME}}` renders with: for each version attached (on Palette, what the
   * apply attached; the packs rolling out are its), the cluster's value, else the declared default,
   * else nothing (a version whose values were not given renders the reference empty).
   */
  private spectroVars(): Record<string, string> {
    const attached = this.palette ? this.palette.attachedProfiles() : this.reconciler.deployed();
    const out: Record<string, string> = {};
    for (const p of attached) {
      const values = this.opts.variableValues?.(p.uid) ?? {};
      for (const v of this.opts.lookup?.(p.uid)?.variables ?? []) out[v.name] = values[v.name] ?? v.defaultValue ?? '';
    }
    return out;
  }

  /** A pack of a published profile reaches the cluster (the agent's helm upgrade). */
  private applyPack(role: ProfileRole, name: string, pack: LabPack | undefined): void {
    const config = this.config();
    this.palette?.event(pack ? 'PackDeploying' : 'PackRemoved', pack ? `${role} pack ${name} ${pack.tag}: helm upgrade applied, waiting for its workloads` : `${role} pack ${name} removed`);
    const agentPod = this.workloads.pods(this.ctx.cluster.agentNamespace, 'cluster-management-agent')[0];
    if (agentPod) {
      this.ctx.logs.append(
        this.ctx.cluster.agentNamespace,
        agentPod.metadata.name,
        klogLine(this.ctx.clock.now(), 'info', 'pack_reconciler.go:214', pack ? `applying ${role} pack ${name} ${pack.tag}` : `removing ${role} pack ${name}`),
      );
    }
    switch (name) {
      case 'lb-metallb-helm':
        this.platform.apply(config);
        this.loadBalancer.reconcile(config);
        break;
      case 'nginx':
        this.services.applyPacks(config);
        this.platform.apply(config);
        this.loadBalancer.reconcile(config);
        break;
      case 'virtual-machine-orchestrator':
        this.kubevirt.apply(config);
        this.services.applyPacks(config);
        this.platform.apply(config);
        this.loadBalancer.reconcile(config);
        break;
      case 'prometheus-operator':
        this.monitoring.apply(config);
        break;
      case 'cni-cilium-oss':
        this.cilium.apply(config);
        break;
      case 'csi-portworx-generic':
        this.storage.apply(config);
        break;
      case 'csi-rook-ceph-helm':
        this.rook.apply(config);
        break;
      case 'kubernetes':
        // A new Kubernetes version rebuilds every node (on Palette, once the repave was approved).
        if (pack && this.nodes.all().some((n) => this.nodeKubelet(n.name) !== `v${pack.tag}`)) this.roller.roll(pack.tag, `kubernetes ${pack.tag}`);
        break;
      default:
        // The OS pack: the lab keeps one OS image, so a change of its values rebuilds nothing
        break;
    }
  }

  private nodeKubelet(name: string): string {
    const node = this.ctx.store.get('nodes', undefined, name);
    return String((node?.status as { nodeInfo?: { kubeletVersion?: string } } | undefined)?.nodeInfo?.kubeletVersion ?? '');
  }

  private afterDelete(resource: string, obj: KubeObject): void {
    switch (resource) {
      case 'virtualmachineinstancemigrations':
        this.migrations.deleted(obj);
        return;
      case 'virtualmachineinstances':
        this.vms.vmiDeleted(obj);
        return;
      case 'virtualmachines':
        this.vms.vmDeleted(obj);
        return;
      case 'pods':
        if (obj.metadata.labels?.['kubevirt.io'] === 'virt-launcher') {
          if (!this.vms.launcherPodDeleted(obj)) {
            this.migrations.targetPodDeleted(obj);
            this.ctx.logs.forget(obj.metadata.namespace ?? '', obj.metadata.name);
          }
          return;
        }
        this.workloads.podDeleted(obj);
        return;
      case 'services':
        this.loadBalancer.reconcile(this.config());
        return;
      default:
        return;
    }
  }

  /** virt-handler's periodic dirty-rate query fails on every VMI whose launcher is two minors behind. */
  private logSkippedMinorStats(): void {
    const handlerVersion = new Map<string, string>();
    for (const pod of this.workloads.pods('kubevirt', 'virt-handler')) {
      const node = (pod.spec as { nodeName?: string }).nodeName;
      const image = (pod.spec as { containers: Array<{ image: string }> }).containers[0]?.image ?? '';
      if (node) handlerVersion.set(node, imageVersion(image));
    }
    const now = this.ctx.clock.now();
    for (const v of this.vms.runningVmis()) {
      const version = handlerVersion.get(v.node);
      if (!version || !skippedMinor(v.launcherImage, version)) continue;
      const handler = this.kubevirt.handlerPodOn(v.node);
      if (handler) this.ctx.logs.append('kubevirt', handler.metadata.name, handlerDirtyRateLine(now, { namespace: v.namespace, name: v.name, uid: v.uid }));
    }
  }
}
