/**
 * The Rook-Ceph storage pack's effects (csi-rook-ceph-helm), as far as the runbook looks at them:
 * the StorageClass of each block pool (name, annotations, parameters straight from the values), the
 * CephCluster `rook-ceph/rook-ceph` (placement in its spec; `status.phase` and `status.ceph.health`),
 * the operator, the mons, the manager and an OSD per storage node. What a lost customization does:
 * - control-plane toleration gone: the OSDs on the control-plane nodes cannot be scheduled, and
 *   Ceph reports HEALTH_WARN with those OSDs down;
 * - class name back at the default: the release's StorageClass is renamed (the old one is gone).
 */
import type { KubeObject } from '../kube/types.js';
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { nowStamp, recordEvent, type WorldContext } from './context.js';
import type { PodState } from './k8s-objects.js';
import { timings } from './timings.js';
import type { Workloads } from './workloads.js';

type Rook = ClusterConfig['rook'];

const controlPlaneTaint = 'node-role.kubernetes.io/control-plane';

/** Whether the placement's tolerations let pods onto control-plane nodes. */
export function toleratesControlPlane(placement: Record<string, unknown>): boolean {
  const list = placement.tolerations;
  if (!Array.isArray(list)) return false;
  return list.some((t) => {
    const tol = (t ?? {}) as { key?: string; operator?: string };
    return (tol.key === controlPlaneTaint && (tol.operator === 'Exists' || tol.operator === undefined)) || (tol.key === undefined && tol.operator === 'Exists');
  });
}

export class RookCephController {
  private config: Rook | undefined;
  private classNames: string[] = [];
  private rolling = false;

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
  ) {}

  settled(): boolean {
    return !this.rolling;
  }

  seed(config: ClusterConfig): void {
    const c = config.rook;
    this.config = c;
    const ns = c.namespace;
    const cps = this.nodes.controlPlane().map((n) => n.name);
    const images = rookImages(c);
    this.writeClasses(c);
    this.workloads.create({ namespace: ns, name: 'rook-ceph-operator', kind: 'Deployment', replicas: 1, nodes: this.nodes.workers().map((n) => n.name), labels: { app: 'rook-ceph-operator' }, containers: [{ name: 'rook-ceph-operator', image: images.rook }] });
    this.workloads.create({ namespace: ns, name: 'rook-ceph-mon', kind: 'StatefulSet', replicas: 3, nodes: cps, labels: { app: 'rook-ceph-mon', rook_cluster: ns }, containers: [{ name: 'mon', image: images.ceph }] });
    this.workloads.create({ namespace: ns, name: 'rook-ceph-mgr', kind: 'Deployment', replicas: 1, nodes: cps, labels: { app: 'rook-ceph-mgr', rook_cluster: ns }, containers: [{ name: 'mgr', image: images.ceph }] });
    this.workloads.create({ namespace: ns, name: 'rook-ceph-osd', kind: 'DaemonSet', nodes: this.storageNodes().map((n) => n.name), labels: { app: 'rook-ceph-osd', rook_cluster: ns }, containers: [{ name: 'osd', image: images.ceph }], health: (node) => this.osdHealth(node) });
    this.workloads.create({ namespace: ns, name: 'csi-rbdplugin', kind: 'DaemonSet', nodes: this.nodes.names(), labels: { app: 'csi-rbdplugin' }, containers: [{ name: 'csi-rbdplugin', image: images.csi }], hostNetwork: true });
    this.ctx.store.upsert('cephclusters', this.clusterObject(c));
    this.writeStatus();
  }

  apply(config: ClusterConfig): void {
    const before = this.config;
    const c = config.rook;
    this.config = c;
    this.writeClasses(c);
    this.ctx.store.update('cephclusters', c.namespace, c.clusterName, (o) => {
      o.spec = clusterSpec(c);
      o.metadata.generation = Number(o.metadata.generation ?? 1) + 1;
    });
    const images = rookImages(c);
    const versionChanged = before?.version !== c.version;
    if (versionChanged) {
      this.rolling = true;
      this.workloads.update(c.namespace, 'rook-ceph-operator', { containers: [{ name: 'rook-ceph-operator', image: images.rook }] });
      this.workloads.update(c.namespace, 'csi-rbdplugin', { containers: [{ name: 'csi-rbdplugin', image: images.csi }] });
    }
    // Placement changes and a new version roll the OSDs one storage node at a time
    this.workloads.update(
      c.namespace,
      'rook-ceph-osd',
      { nodes: this.storageNodes().map((n) => n.name), health: (node) => this.osdHealth(node), ...(versionChanged ? { containers: [{ name: 'osd', image: images.ceph }] } : {}) },
      {
        stepMs: timings.storageNodeRoll,
        done: () => {
          this.rolling = false;
          this.writeStatus();
        },
      },
    );
    this.writeStatus();
  }

  refresh(): void {
    if (!this.config) return;
    this.workloads.refresh(this.config.namespace, 'rook-ceph-osd');
    this.writeStatus();
  }

  /** Nodes with drives: every one of them should run an OSD. */
  private storageNodes() {
    return this.nodes.all().filter((n) => n.storage);
  }

  private osdHealth(node: string | undefined): PodState {
    const info = node ? this.nodes.get(node) : undefined;
    if (!info) return { kind: 'running' };
    if (info.controlPlane && !toleratesControlPlane(this.config?.placement ?? {})) {
      return { kind: 'pending', reason: 'Unschedulable', message: `0/1 nodes are available: 1 node(s) had untolerated taint {${controlPlaneTaint}: }` };
    }
    if (info.ready !== 'True') return { kind: 'notReady', message: 'node is not ready' };
    return { kind: 'running' };
  }

  private writeClasses(c: Rook): void {
    const wanted = c.classes.map((k) => k.name);
    // Helm replaces the release's StorageClasses: a renamed one is gone under its old name
    for (const old of this.classNames) if (!wanted.includes(old)) this.ctx.store.remove('storageclasses', undefined, old);
    this.classNames = wanted;
    for (const k of c.classes) {
      this.ctx.store.upsert('storageclasses', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: {
          name: k.name,
          labels: { 'app.kubernetes.io/managed-by': 'Helm' },
          annotations: { 'meta.helm.sh/release-name': 'csi-rook-ceph-helm', 'meta.helm.sh/release-namespace': c.namespace, ...k.annotations, ...(k.isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {}) },
        },
        provisioner: `${c.namespace}.rbd.csi.ceph.com`,
        parameters: { clusterID: c.namespace, pool: 'ceph-blockpool', ...k.parameters },
        reclaimPolicy: k.reclaimPolicy,
        volumeBindingMode: k.volumeBindingMode,
        allowVolumeExpansion: k.allowVolumeExpansion,
      });
    }
  }

  /** Rook's phase stays Ready while Ceph itself reports what is missing. */
  private writeStatus(): void {
    const c = this.config;
    if (!c) return;
    const wanted = this.storageNodes();
    const down = wanted.filter((n) => this.osdHealth(n.name).kind !== 'running');
    const health = down.length === 0 ? 'HEALTH_OK' : 'HEALTH_WARN';
    const details = down.length === 0 ? {} : { OSD_DOWN: { message: `${down.length} osds down (${down.map((n) => n.name).join(', ')})`, severity: 'HEALTH_WARN' } };
    const previous = (this.ctx.store.get('cephclusters', c.namespace, c.clusterName)?.status as { ceph?: { health?: string } } | undefined)?.ceph?.health;
    const at = nowStamp(this.ctx);
    const obj = this.ctx.store.update('cephclusters', c.namespace, c.clusterName, (o) => {
      o.status = {
        phase: 'Ready',
        state: 'Created',
        message: 'Cluster created successfully',
        version: { image: rookImages(c).ceph, version: '19.2.0-0' },
        ceph: { health, details, lastChecked: at, capacity: { bytesTotal: 6 * 2 ** 40, bytesUsed: 2 ** 40 } },
        conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterCreated', message: 'Cluster created successfully', lastTransitionTime: at }],
      };
    });
    if (obj && previous !== undefined && previous !== health) {
      recordEvent(this.ctx, obj as KubeObject, health === 'HEALTH_OK' ? 'Normal' : 'Warning', health === 'HEALTH_OK' ? 'ReconcileSucceeded' : 'CephHealthWarn', health === 'HEALTH_OK' ? 'Ceph is healthy' : Object.values(details).map((d) => d.message).join('; '), 'rook-ceph-operator');
    }
  }

  private clusterObject(c: Rook): KubeObject {
    return {
      apiVersion: 'ceph.rook.io/v1',
      kind: 'CephCluster',
      metadata: { name: c.clusterName, namespace: c.namespace, finalizers: ['cephcluster.ceph.rook.io'], generation: 1, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
      spec: clusterSpec(c),
      status: { phase: 'Progressing' },
    };
  }
}

function clusterSpec(c: Rook): Record<string, unknown> {
  return { cephVersion: { image: rookImages(c).ceph }, dataDirHostPath: '/var/lib/rook', mon: { count: 3 }, placement: { all: structuredClone(c.placement) } };
}

function rookImages(c: Rook): { rook: string; ceph: string; csi: string } {
  const find = (part: string, fallback: string) => c.images.find((i) => i.includes(part)) ?? fallback;
  return { rook: find('/rook/ceph:', 'docker.io/rook/ceph:v1.16.3'), ceph: find('/ceph/ceph:', 'quay.io/ceph/ceph:v19.2.0'), csi: find('/cephcsi:', 'quay.io/cephcsi/cephcsi:v3.13.0') };
}
