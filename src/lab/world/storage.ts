/**
 * The storage pack's effects (Portworx): the block StorageClass (name, parameters, annotations
 * straight from the values), the StorageCluster `portworx/px-cluster` (its annotations and
 * placement), and the Portworx pods. What each site customization protects shows here when it is
 * lost:
 * - node affinity gone: Portworx also lands on compute-only workers without drives and crash-loops;
 * - run-on-master gone: the control-plane storage nodes leave the cluster, which runs Degraded;
 * - PVC controller ports back at the defaults: on control-plane nodes 10257 is kube-controller-manager's,
 *   so the PVC controller crash-loops on "address already in use";
 * - activateLicense true: the activation job fails (no license server reachable) and a License condition says so.
 */
import type { KubeObject } from '../kube/types.js';
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes, NodeInfo } from './cluster-nodes.js';
import { nowStamp, recordEvent, type WorldContext } from './context.js';
import type { PodState } from './k8s-objects.js';
import { logfmtLine } from './logs.js';
import { timings } from './timings.js';
import type { Workloads } from './workloads.js';

const ns = 'portworx';
const kubeControllerManagerSecurePort = '10257';
const defaultPvcPorts = { port: '10252', secure: '10257' };

type MatchExpression = { key: string; operator: string; values?: string[] };

/** `requiredDuringSchedulingIgnoredDuringExecution` node affinity, evaluated on a node's labels. */
export function affinityAllows(affinity: Record<string, unknown> | undefined, labels: Record<string, string>): boolean {
  const terms = (affinity?.requiredDuringSchedulingIgnoredDuringExecution as { nodeSelectorTerms?: Array<{ matchExpressions?: MatchExpression[] }> } | undefined)?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return true;
  return terms.some((t) =>
    (t.matchExpressions ?? []).every((e) => {
      const v = labels[e.key];
      switch (e.operator) {
        case 'In':
          return v !== undefined && (e.values ?? []).includes(v);
        case 'NotIn':
          return v === undefined || !(e.values ?? []).includes(v);
        case 'Exists':
          return v !== undefined;
        case 'DoesNotExist':
          return v === undefined;
        default:
          return false;
      }
    }),
  );
}

export interface StorageFaults {
  /** Storage nodes whose Portworx is down regardless of settings (the degraded scenario). */
  offlineNodes: Set<string>;
}

export class StorageController {
  private config: ClusterConfig['storage'] | undefined;
  private className: string | undefined;
  private rolling = false;

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
    readonly faults: StorageFaults = { offlineNodes: new Set() },
  ) {}

  settled(): boolean {
    return !this.rolling;
  }

  /** Nodes Portworx is scheduled on under these settings. */
  storageNodes(c: ClusterConfig['storage']): NodeInfo[] {
    const runOnMaster = c.clusterAnnotations['portworx.io/run-on-master'] === 'true';
    return this.nodes.all().filter((n) => (runOnMaster || !n.controlPlane) && affinityAllows(c.nodeAffinity, n.labels));
  }

  /** Creates everything as the settings say, settled (scenario start). */
  seed(config: ClusterConfig): void {
    const c = config.storage;
    this.config = c;
    this.writeStorageClass(c);
    const images = pxImages(c);
    this.workloads.create({ namespace: ns, name: 'portworx-operator', kind: 'Deployment', replicas: 1, nodes: this.workerNames(), labels: { name: 'portworx-operator' }, containers: [{ name: 'portworx-operator', image: images.operator }] });
    this.workloads.create({ namespace: ns, name: c.clusterName, kind: 'DaemonSet', nodes: this.storageNodes(c).map((n) => n.name), labels: { name: 'portworx', 'operator.libopenstorage.org/driver': 'portworx', 'operator.libopenstorage.org/name': c.clusterName }, containers: [{ name: 'portworx', image: images.oci }], hostNetwork: true, health: (node) => this.pxHealth(node) });
    this.workloads.create({ namespace: ns, name: 'portworx-api', kind: 'DaemonSet', nodes: this.storageNodes(c).map((n) => n.name), labels: { name: 'portworx-api' }, containers: [{ name: 'portworx-api', image: 'registry.k8s.io/pause:3.9' }], hostNetwork: true });
    this.workloads.create({ namespace: ns, name: 'stork', kind: 'Deployment', replicas: 3, nodes: this.workerNames(), labels: { name: 'stork', tier: 'control-plane' }, containers: [{ name: 'stork', image: images.stork }] });
    this.workloads.create({ namespace: ns, name: 'px-csi-ext', kind: 'Deployment', replicas: 3, nodes: this.workerNames(), labels: { app: 'px-csi-driver' }, containers: [{ name: 'csi-external-provisioner', image: 'registry.k8s.io/sig-storage/csi-provisioner:v4.0.1' }] });
    this.workloads.create({ namespace: ns, name: 'portworx-pvc-controller', kind: 'Deployment', replicas: 3, nodes: this.nodes.controlPlane().map((n) => n.name), labels: { name: 'portworx-pvc-controller', tier: 'control-plane' }, containers: [{ name: 'portworx-pvc-controller-manager', image: images.pvc }], hostNetwork: true, health: (node) => this.pvcHealth(node) });
    this.ctx.store.upsert('storageclusters', this.storageClusterObject(c));
    this.writeLicense(c);
    this.writeStatus();
  }

  /** The storage pack was applied (helm upgrade): class, cluster, pods follow the new values. */
  apply(config: ClusterConfig): void {
    const before = this.config;
    const c = config.storage;
    this.config = c;
    this.writeStorageClass(c);
    const st = this.ctx.store.get('storageclusters', ns, c.clusterName);
    this.ctx.store.update('storageclusters', ns, c.clusterName, (o) => {
      o.metadata.annotations = { ...c.clusterAnnotations };
      o.spec = clusterSpec(c);
      o.metadata.generation = Number(o.metadata.generation ?? 1) + 1;
    });
    if (!st) this.ctx.store.upsert('storageclusters', this.storageClusterObject(c));
    this.workloads.update(ns, 'portworx-pvc-controller', { health: (node) => this.pvcHealth(node) });
    this.workloads.update(ns, 'portworx-api', { nodes: this.storageNodes(c).map((n) => n.name) });
    const images = pxImages(c);
    const versionChanged = before?.version !== c.version;
    if (versionChanged) {
      this.rolling = true;
      this.workloads.update(ns, 'portworx-operator', { containers: [{ name: 'portworx-operator', image: images.operator }] });
      this.workloads.update(ns, 'stork', { containers: [{ name: 'stork', image: images.stork }] });
      this.workloads.update(ns, 'portworx-pvc-controller', { containers: [{ name: 'portworx-pvc-controller-manager', image: images.pvc }] });
    }
    // Placement changes and a new version roll the Portworx pods one storage node at a time
    this.workloads.update(
      ns,
      c.clusterName,
      { nodes: this.storageNodes(c).map((n) => n.name), health: (node) => this.pxHealth(node), ...(versionChanged ? { containers: [{ name: 'portworx', image: images.oci }] } : {}) },
      {
        stepMs: timings.storageNodeRoll,
        done: () => {
          this.rolling = false;
          this.writeStatus();
        },
      },
    );
    this.writeLicense(c);
    this.writeStatus();
  }

  /** Re-evaluates health after a node changed (Ready/NotReady). */
  refresh(): void {
    if (!this.config) return;
    this.workloads.refresh(ns, this.config.clusterName);
    this.writeStatus();
  }

  private workerNames(): string[] {
    return this.nodes.workers().map((n) => n.name);
  }

  private pxHealth(node: string | undefined): PodState {
    const info = node ? this.nodes.get(node) : undefined;
    if (!info) return { kind: 'running' };
    if (!info.storage) {
      return { kind: 'crashLoop', exitCode: 1, restarts: 4, message: `px-runc: no usable storage devices found on ${info.name}: all drives are in use or none match the storage spec (useAll: true)` };
    }
    if (this.faults.offlineNodes.has(info.name) || info.ready !== 'True') return { kind: 'notReady', message: 'Portworx is not running on the node' };
    return { kind: 'running' };
  }

  private pvcHealth(node: string | undefined): PodState {
    const a = this.config?.clusterAnnotations ?? {};
    const secure = a['portworx.io/pvc-controller-secure-port'] ?? defaultPvcPorts.secure;
    const onControlPlane = node ? this.nodes.get(node)?.controlPlane === true : false;
    if (onControlPlane && secure === kubeControllerManagerSecurePort) {
      return { kind: 'crashLoop', exitCode: 1, restarts: 6, message: `failed to create listener: failed to listen on 0.0.0.0:${secure}: listen tcp 0.0.0.0:${secure}: bind: address already in use` };
    }
    return { kind: 'running' };
  }

  private writeStorageClass(c: ClusterConfig['storage']): void {
    if (this.className && this.className !== c.className) {
      // Helm replaces the release's StorageClass: the old name is gone
      this.ctx.store.remove('storageclasses', undefined, this.className);
    }
    this.className = c.className;
    this.ctx.store.upsert('storageclasses', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: {
        name: c.className,
        labels: { 'app.kubernetes.io/managed-by': 'Helm' },
        annotations: {
          'meta.helm.sh/release-name': 'csi-portworx-generic',
          'meta.helm.sh/release-namespace': ns,
          ...c.classAnnotations,
          ...(c.isDefaultClass ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {}),
        },
      },
      provisioner: c.provisioner,
      parameters: { ...c.classParameters },
      reclaimPolicy: c.reclaimPolicy,
      volumeBindingMode: c.volumeBindingMode,
      allowVolumeExpansion: c.allowVolumeExpansion,
    });
  }

  private writeLicense(c: ClusterConfig['storage']): void {
    const has = this.workloads.has(ns, 'px-license-activation');
    if (c.activateLicense && !has) {
      this.workloads.create({
        namespace: ns,
        name: 'px-license-activation',
        kind: 'Job',
        replicas: 1,
        nodes: this.workerNames(),
        labels: { 'job-name': 'px-license-activation' },
        containers: [{ name: 'activate', image: pxImages(c).oci }],
        health: () => ({ kind: 'failed', reason: 'Error', exitCode: 1, message: 'license activation failed: could not reach the Portworx license server' }),
      });
      const pod = this.workloads.pods(ns, 'px-license-activation')[0];
      if (pod) {
        this.ctx.logs.append(ns, pod.metadata.name, [
          logfmtLine(this.ctx.clock.now(), 'info', 'Activating Portworx Enterprise license'),
          logfmtLine(this.ctx.clock.now(), 'error', 'license activation failed', { error: 'Post "https://lic.portworx.com/api/v1/license/activate": dial tcp: lookup lic.portworx.com on 100.64.64.10:53: no such host' }),
        ]);
      }
    } else if (!c.activateLicense && has) {
      this.workloads.remove(ns, 'px-license-activation');
    }
  }

  /** Phase and conditions from what the Portworx pods are doing. */
  private writeStatus(): void {
    const c = this.config;
    if (!c) return;
    const at = nowStamp(this.ctx);
    const all = this.nodes.all();
    const wanted = new Set(this.storageNodes(c).map((n) => n.name));
    // Nodes that held storage before and are not wanted now left the cluster with their replicas
    const storageCapable = all.filter((n) => n.storage);
    const left = storageCapable.filter((n) => !wanted.has(n.name)).filter((n) => n.controlPlane || affinityAllows(c.nodeAffinity, n.labels));
    const offline = storageCapable.filter((n) => wanted.has(n.name) && (this.faults.offlineNodes.has(n.name) || n.ready !== 'True'));
    const driveless = all.filter((n) => wanted.has(n.name) && !n.storage);
    const problems: string[] = [];
    if (driveless.length > 0) problems.push(`Portworx fails to start on ${driveless.map((n) => n.name).join(', ')}: no usable storage devices`);
    if (left.length > 0) problems.push(`${left.length} storage node(s) left the cluster (${left.map((n) => n.name).join(', ')}); volumes with replicas on them are degraded`);
    if (offline.length > 0) problems.push(`${offline.length} storage node(s) offline (${offline.map((n) => n.name).join(', ')})`);
    const healthy = problems.length === 0;
    const licenseCondition = c.activateLicense
      ? [{ source: 'Portworx', type: 'License', status: 'Failed', reason: 'LicenseActivationFailed', message: 'Portworx Enterprise license activation failed: the license server is not reachable; running on the trial license, which expires in 30 days', lastTransitionTime: at }]
      : [];
    const previous = (this.ctx.store.get('storageclusters', ns, c.clusterName)?.status as { phase?: string } | undefined)?.phase;
    const st = this.ctx.store.update('storageclusters', ns, c.clusterName, (o) => {
      o.status = {
        clusterName: c.clusterName,
        clusterUid: (o.status as { clusterUid?: string } | undefined)?.clusterUid ?? this.ctx.rng.uuid(),
        phase: healthy ? 'Running' : 'Degraded',
        version: c.version,
        desiredImages: { stork: pxImages(c).stork },
        conditions: [
          { source: 'Portworx', type: 'Install', status: 'Completed', message: 'Portworx installation completed on all storage nodes', lastTransitionTime: at },
          { source: 'Portworx', type: 'RuntimeState', status: healthy ? 'Online' : 'Degraded', message: healthy ? 'Portworx is operational' : problems.join('; '), lastTransitionTime: at },
          ...licenseCondition,
        ],
        storage: { storageNodesCount: wanted.size - offline.length },
      };
    });
    if (st && previous !== undefined && previous !== (healthy ? 'Running' : 'Degraded')) {
      recordEvent(this.ctx, st as KubeObject, healthy ? 'Normal' : 'Warning', healthy ? 'ClusterOnline' : 'ClusterDegraded', healthy ? 'Storage cluster is online' : problems.join('; '), 'portworx-operator');
    }
  }

  private storageClusterObject(c: ClusterConfig['storage']): KubeObject {
    return {
      apiVersion: 'core.libopenstorage.org/v1',
      kind: 'StorageCluster',
      metadata: { name: c.clusterName, namespace: ns, annotations: { ...c.clusterAnnotations }, finalizers: ['operator.libopenstorage.org/delete'], generation: 1, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
      spec: clusterSpec(c),
      status: { phase: 'Initializing' },
    };
  }
}

function clusterSpec(c: ClusterConfig['storage']): Record<string, unknown> {
  const spec = structuredClone(c.clusterSpec);
  if (c.nodeAffinity) {
    const placement = (spec.placement ?? {}) as Record<string, unknown>;
    spec.placement = { ...placement, nodeAffinity: c.nodeAffinity };
  }
  return spec;
}

/** The pack's images, by the component they belong to. */
function pxImages(c: ClusterConfig['storage']): { oci: string; operator: string; stork: string; pvc: string } {
  const find = (part: string, fallback: string) => c.images.find((i) => i.includes(part)) ?? fallback;
  return {
    oci: find('/oci-monitor:', `docker.io/portworx/oci-monitor:${c.version}`),
    operator: find('/px-operator:', 'docker.io/portworx/px-operator:24.2.2'),
    stork: find('/stork:', 'docker.io/openstorage/stork:24.3.3'),
    pvc: find('/px-pvc-controller:', 'docker.io/portworx/px-pvc-controller:v1.32.2'),
  };
}
