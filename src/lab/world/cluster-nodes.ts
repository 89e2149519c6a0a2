/**
 * The cluster's nodes: which are control plane, which are Ready, which take VMs, and a scheduler
 * that places a VMI on the least loaded schedulable worker (as the Kubernetes scheduler's spreading
 * would for equally sized nodes).
 */
import { nowStamp, type WorldContext } from './context.js';
import { nodeConditions, nodeObject, type NodeCapacity, type NodeReadiness } from './k8s-objects.js';
import type { PodNetwork } from './pod-network.js';

export interface NodeInfo {
  name: string;
  controlPlane: boolean;
  ip: string;
  podCIDR: string;
  ready: NodeReadiness;
  /** Compute-only nodes without drives carry `px/enabled=false`. */
  storage: boolean;
  labels: Record<string, string>;
  /** Cordoned (`spec.unschedulable`): a drain is under way; nothing new is placed here. */
  cordoned?: boolean;
}

export class ClusterNodes {
  private readonly nodes = new Map<string, NodeInfo>();
  /** VMIs per node, kept by the VM controller for placement. */
  private readonly load = new Map<string, number>();

  constructor(
    private readonly ctx: WorldContext,
    private readonly network: PodNetwork,
  ) {}

  add(name: string, opts: { controlPlane: boolean; storage: boolean; ready?: NodeReadiness; kubeletVersion: string; labels?: Record<string, string>; capacity?: NodeCapacity | undefined }): NodeInfo {
    const { ip, podCIDR } = this.network.addNode(name);
    const labels = { ...(opts.storage ? {} : { 'px/enabled': 'false' }), ...opts.labels };
    const info: NodeInfo = { name, controlPlane: opts.controlPlane, ip, podCIDR, ready: opts.ready ?? 'True', storage: opts.storage, labels };
    this.nodes.set(name, info);
    this.ctx.store.upsert('nodes', nodeObject({ name, controlPlane: opts.controlPlane, ip, podCIDR, kubeletVersion: opts.kubeletVersion, labels, ready: info.ready, created: nowStamp(this.ctx), ...(opts.capacity ? { capacity: opts.capacity } : {}) }));
    return info;
  }

  get(name: string): NodeInfo | undefined {
    return this.nodes.get(name);
  }

  all(): NodeInfo[] {
    return [...this.nodes.values()];
  }

  names(): string[] {
    return [...this.nodes.keys()];
  }

  controlPlane(): NodeInfo[] {
    return this.all().filter((n) => n.controlPlane);
  }

  workers(): NodeInfo[] {
    return this.all().filter((n) => !n.controlPlane);
  }

  isReady(name: string): boolean {
    return this.nodes.get(name)?.ready === 'True';
  }

  /** Marks a node Ready, NotReady or Unknown (kubelet stopped reporting). */
  setReady(name: string, ready: NodeReadiness): void {
    const info = this.nodes.get(name);
    if (!info) return;
    info.ready = ready;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('nodes', undefined, name, (n) => {
      (n.status as Record<string, unknown>).conditions = nodeConditions(ready, at);
      const spec = n.spec as { taints?: Array<Record<string, unknown>> };
      const others = (spec.taints ?? []).filter((t) => t.key !== 'node.kubernetes.io/unreachable');
      spec.taints = ready === 'True' ? others : [...others, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at }];
      if (spec.taints.length === 0) delete spec.taints;
    });
  }

  /** `kubectl cordon` / `uncordon`: while cordoned the scheduler places nothing here. */
  cordon(name: string, on: boolean): void {
    const info = this.nodes.get(name);
    if (!info) return;
    info.cordoned = on;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('nodes', undefined, name, (n) => {
      const spec = n.spec as { unschedulable?: boolean; taints?: Array<Record<string, unknown>> };
      const others = (spec.taints ?? []).filter((t) => t.key !== 'node.kubernetes.io/unschedulable');
      spec.taints = on ? [...others, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at }] : others;
      if (spec.taints.length === 0) delete spec.taints;
      if (on) spec.unschedulable = true;
      else delete spec.unschedulable;
    });
  }

  /** A rebuilt node comes back with the new Kubernetes version. */
  setKubeletVersion(name: string, version: string): void {
    this.ctx.store.update('nodes', undefined, name, (n) => {
      const status = n.status as { nodeInfo?: Record<string, unknown> };
      status.nodeInfo = { ...status.nodeInfo, kubeletVersion: version, kubeProxyVersion: version };
    });
  }

  addLoad(node: string, delta: number): void {
    this.load.set(node, Math.max(0, (this.load.get(node) ?? 0) + delta));
  }

  /** Where a new or migrating VMI goes: a Ready worker other than `exclude`, least loaded first. */
  schedule(exclude?: string): string | undefined {
    let best: string | undefined;
    let bestLoad = Infinity;
    for (const n of this.nodes.values()) {
      if (n.controlPlane || n.ready !== 'True' || n.cordoned || n.name === exclude) continue;
      const l = this.load.get(n.name) ?? 0;
      if (l < bestLoad) {
        best = n.name;
        bestLoad = l;
      }
    }
    return best;
  }
}
