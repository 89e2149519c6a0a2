/**
 * A node rebuild (Palette's repave, after a new Kubernetes or OS pack): one node at a time, control
 * plane first, each node is cordoned and drained - a VM that can live-migrate is evacuated by a
 * migration, one that cannot is shut down (its VM starts it again elsewhere, or on its own node once
 * that is back when its disk is local) - then rebuilt (NotReady for a while) and back Ready with the
 * new kubelet version, uncordoned. The next node starts only then.
 */
import type { ClusterNodes } from './cluster-nodes.js';
import { recordEvent, type WorldContext } from './context.js';
import type { NodeReadiness } from './k8s-objects.js';
import type { MigrationController } from './migrations.js';
import { timings } from './timings.js';
import type { VmController } from './vm-controller.js';

export interface NodeRollHooks {
  setNodeReady(name: string, ready: NodeReadiness): void;
  /** A line for Palette's event stream (the cluster object's events). */
  event(reason: string, message: string, severity?: 'Info' | 'Warning'): void;
}

export class NodeRoller {
  private rolling = false;
  private readonly done: string[] = [];

  constructor(
    private readonly ctx: WorldContext,
    private readonly nodes: ClusterNodes,
    private readonly vms: VmController,
    private readonly migrations: MigrationController,
    private readonly hooks: NodeRollHooks,
  ) {}

  busy(): boolean {
    return this.rolling;
  }

  /** Nodes rebuilt so far (all rolls), in order. */
  rebuilt(): string[] {
    return [...this.done];
  }

  /** Rebuilds every node, one at a time, onto Kubernetes `version` (e.g. `1.32.3`). */
  roll(version: string, why: string): void {
    if (this.rolling) return;
    this.rolling = true;
    const order = [...this.nodes.controlPlane(), ...this.nodes.workers()].map((n) => n.name);
    this.hooks.event('RepaveStarted', `Rebuilding ${order.length} node(s) one at a time: ${why}`);
    const next = (i: number): void => {
      const name = order[i];
      if (name === undefined) {
        this.rolling = false;
        this.hooks.event('RepaveCompleted', `All ${order.length} node(s) rebuilt on Kubernetes ${version}`);
        return;
      }
      this.rebuild(name, version, () => next(i + 1));
    };
    next(0);
  }

  private rebuild(name: string, version: string, then: () => void): void {
    this.nodes.cordon(name, true);
    this.hooks.event('NodeDraining', `Draining ${name} before it is rebuilt`);
    this.nodeEvent(name, 'NodeNotSchedulable', `Node ${name} status is now: NodeNotSchedulable`);
    const evacuate = (): number => {
      const here = [...this.vms.runningVmis()].filter((x) => x.node === name);
      for (const v of here) {
        // A drain keeps evicting until the node is empty: a failed migration is tried again.
        if (this.migrations.hasUnfinished(v.namespace, v.name)) continue;
        if (!v.def.localDisk && this.migrations.create(v.namespace, v.name, false)) continue;
        // It cannot live-migrate: the drain evicts it and its VM starts it again where it can.
        this.vms.evict(v.namespace, v.name);
      }
      return here.length + this.vms.stoppingOn(name);
    };
    evacuate();
    const waitDrained = (): void => {
      if (evacuate() > 0) {
        this.ctx.clock.after(timings.settleCheck, waitDrained);
        return;
      }
      this.hooks.setNodeReady(name, 'Unknown');
      this.hooks.event('NodeRebuilding', `${name} drained; rebuilding it on Kubernetes ${version}`);
      this.ctx.clock.after(timings.nodeRebuild, () => {
        this.nodes.setKubeletVersion(name, `v${version}`);
        this.hooks.setNodeReady(name, 'True');
        this.nodes.cordon(name, false);
        this.done.push(name);
        this.nodeEvent(name, 'NodeReady', `Node ${name} status is now: NodeReady`);
        this.hooks.event('NodeRebuilt', `${name} is back, Ready on Kubernetes ${version}`);
        this.ctx.clock.after(timings.settleCheck, then);
      });
    };
    this.ctx.clock.after(timings.settleCheck, waitDrained);
  }

  private nodeEvent(name: string, reason: string, message: string): void {
    const node = this.ctx.store.get('nodes', undefined, name);
    if (node) recordEvent(this.ctx, node, 'Normal', reason, message, 'node-controller');
  }
}
