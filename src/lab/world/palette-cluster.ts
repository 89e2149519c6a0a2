/**
 * The lab's cluster as a real Palette runs it (the palette flavor). A publish changes nothing on
 * the cluster: publishing a version the cluster has attached leaves an update notification; a new
 * version waits until it is applied. An apply attaches versions in place of others
 * (`replaceWithProfile`; without it a second version sits beside the first, as on Palette) or
 * resolves the pending update, and the agent then reconciles. A change of an OS or Kubernetes pack
 * waits with the repave `Pending` until approved; then the nodes are rebuilt one at a time. The
 * cluster object shows all of it: attached versions, per-pack conditions, conditions, repave state,
 * and an event stream.
 */
import { randomBytes } from 'node:crypto';
import { packStateLabel } from './pack-conditions.js';
import type { LabApplyEntry, LabClusterEvent, LabClusterView, LabNotification, LabPack, LabProfile, LabResult, PaletteClusterHooks } from '../palette/types.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { changedPacks, type ProfileRole, type Reconciler } from './reconcile.js';
import type { WorldContext } from './context.js';

interface Attached {
  uid: string;
  name: string;
  version: string;
  type: string;
  cloudType: string;
  packs: LabPack[];
}

/** Pack layers whose change rebuilds nodes. */
const rebuilding = new Set(['os', 'k8s']);
const MAX_EVENTS = 500;

const attachedFrom = (p: LabProfile): Attached => ({ uid: p.uid, name: p.name, version: p.published!.version, type: p.type, cloudType: p.cloudType, packs: p.published!.packs });

export interface PaletteClusterDeps {
  ctx: WorldContext;
  reconciler: Reconciler;
  nodes: ClusterNodes;
  lookup: (uid: string) => LabProfile | undefined;
  deployed: Record<ProfileRole, LabProfile>;
}

export class PaletteCluster implements PaletteClusterHooks {
  private readonly attached: Record<ProfileRole, Attached>;
  /** Versions attached beside another version of the same profile (an apply without replaceWithProfile). */
  private readonly beside: Attached[] = [];
  private readonly notes: LabNotification[] = [];
  private readonly log: LabClusterEvent[] = [];
  private repave: { state: 'Pending' | 'Approved'; role: ProfileRole; reasons: Array<{ code: string; message: string; pack: { name: string; current?: string; target?: string } }> } | undefined;
  private readonly createdAt: string;

  constructor(private readonly deps: PaletteClusterDeps) {
    this.attached = { infra: attachedFrom(deps.deployed.infra), addon: attachedFrom(deps.deployed.addon) };
    this.createdAt = new Date(deps.ctx.clock.now()).toISOString();
  }

  /** Palette's own event stream for this cluster (newest last in memory). */
  event(reason: string, message: string, severity: LabClusterEvent['severity'] = 'Info'): void {
    this.log.push({ at: new Date(this.deps.ctx.clock.now()).toISOString(), reason, message, severity });
    if (this.log.length > MAX_EVENTS) this.log.splice(0, this.log.length - MAX_EVENTS);
  }

  /** What the profiles read shows: the attached versions. */
  attachedProfiles(): Array<{ uid: string; name: string; version: string; packs: Array<{ name: string; tag: string; values: string }> }> {
    return [...(['infra', 'addon'] as const).map((r) => this.attached[r]), ...this.beside].map((a) => ({ uid: a.uid, name: a.name, version: a.version, packs: a.packs.map((p) => ({ name: p.name, tag: p.tag, values: p.values })) }));
  }

  /** A publish: an attached version that changed gets an update notification; nothing else happens. */
  onPublish(profile: LabProfile): void {
    const role = this.roleOf(profile.uid);
    if (!role || !profile.published) return;
    if (this.notes.some((n) => n.profileUid === profile.uid && !n.isDone)) return;
    this.notes.push({ uid: randomBytes(12).toString('hex'), createdAt: new Date(this.deps.ctx.clock.now()).toISOString(), message: `Cluster profile ${profile.name} ${profile.published.version} has updates`, isDone: false, profileUid: profile.uid });
    this.event('ClusterProfileUpdate', `${profile.name} ${profile.published.version} was updated: the update waits to be applied`);
  }

  view(clusterUid: string): LabClusterView | undefined {
    const { ctx, nodes } = this.deps;
    if (clusterUid !== ctx.cluster.uid) return undefined;
    const roles = ['infra', 'addon'] as const;
    const templates = [...roles.map((r) => this.attached[r]), ...this.beside].map((a) => ({ uid: a.uid, name: a.name, version: a.version, type: a.type, cloudType: a.cloudType, packs: a.packs }));
    const packs = roles.flatMap((role) => {
      const a = this.attached[role];
      return a.packs.map((p) => ({ name: p.name, tag: p.tag, profileUid: a.uid, condition: packStateLabel(this.deps.reconciler, role, a.uid, p.name, this.repave?.state === 'Pending' && this.repave.role === role) }));
    });
    const notReady = (list: Array<{ name: string; ready: string }>) => list.filter((n) => n.ready !== 'True').map((n) => n.name);
    const cpDown = notReady(nodes.controlPlane());
    const workersDown = notReady(nodes.workers());
    const condition = (type: string, down: string[]) =>
      down.length ? { type, status: 'False', reason: 'NodesNotReady', message: `Not Ready: ${down.join(', ')}` } : { type, status: 'True', reason: 'NodesReady' };
    return {
      uid: ctx.cluster.uid,
      name: ctx.cluster.name,
      state: 'Running',
      createdAt: this.createdAt,
      templates,
      packs,
      conditions: [condition('ControlPlaneReady', cpDown), condition('WorkerNodesReady', workersDown)],
      ...(this.repave ? { repave: this.repave.state } : {}),
      canBeApplied: !this.deps.reconciler.busy(),
    };
  }

  apply(clusterUid: string, entries: LabApplyEntry[], resolveNotification: boolean): LabResult {
    if (clusterUid !== this.deps.ctx.cluster.uid) return { ok: false, status: 404, code: 'ResourceNotFound', message: `Cluster '${clusterUid}' not found` };
    // Every entry is checked before anything changes: an apply is all or nothing.
    const plans: Array<{ entry: LabApplyEntry; profile: LabProfile; role: ProfileRole | undefined }> = [];
    for (const entry of entries) {
      const profile = this.deps.lookup(entry.uid);
      if (!profile) return { ok: false, status: 404, code: 'ResourceNotFound', message: `Cluster profile '${entry.uid}' not found` };
      if (!profile.published) return { ok: false, status: 400, code: 'ClusterProfileNotPublished', message: `Cluster profile '${profile.name}' has no published version` };
      if (entry.replaceWithProfile !== undefined && !this.roleOf(entry.replaceWithProfile)) {
        return { ok: false, status: 400, code: 'ClusterProfileNotAttached', message: `Cluster profile '${entry.replaceWithProfile}' is not attached to cluster '${clusterUid}'` };
      }
      plans.push({ entry, profile, role: this.roleOf(entry.replaceWithProfile ?? entry.uid) });
    }
    const notes: string[] = [];
    for (const { entry, profile, role } of plans) {
      const target = attachedFrom(profile);
      if (entry.replaceWithProfile !== undefined && role) {
        const before = this.attached[role];
        if (before.uid === target.uid && !this.pending(target.uid)) {
          notes.push(`${target.name} ${target.version} already attached`);
          continue;
        }
        this.attach(role, target, before);
        notes.push(`${target.name} ${target.version} replaces ${before.version} (${before.uid})`);
      } else if (role) {
        // The same version again: applies its pending update (when asked to resolve it).
        const pending = this.pending(target.uid);
        if (!pending || !resolveNotification) {
          notes.push(`${target.name} ${target.version}: nothing pending`);
          continue;
        }
        pending.isDone = true;
        this.attach(role, target, this.attached[role]);
        notes.push(`${target.name} ${target.version}: pending update applied`);
      } else {
        // Palette attaches a second version of the profile beside the first.
        this.beside.push(target);
        this.event('ClusterProfileAttached', `${target.name} ${target.version} attached beside the version already attached`, 'Warning');
        notes.push(`${target.name} ${target.version} attached beside the attached version (no replaceWithProfile)`);
      }
    }
    return { ok: true, note: `apply: ${notes.join('; ')}` };
  }

  approveRepave(clusterUid: string): LabResult {
    if (clusterUid !== this.deps.ctx.cluster.uid) return { ok: false, status: 404, code: 'ResourceNotFound', message: `Cluster '${clusterUid}' not found` };
    const r = this.repave;
    if (r?.state !== 'Pending') return { ok: false, status: 409, code: 'RepaveNotPending', message: `Cluster '${this.deps.ctx.cluster.name}' has no repave waiting for approval` };
    r.state = 'Approved';
    this.event('RepaveApproved', 'The node rebuild was approved: nodes are rebuilt one at a time');
    this.deps.reconciler.release(r.role);
    return { ok: true, note: `repave approved: ${r.reasons.map((x) => x.message).join('; ')}` };
  }

  repaveReasons(clusterUid: string): Array<{ code: string; message: string; pack?: { name: string; current?: string; target?: string } }> | undefined {
    if (clusterUid !== this.deps.ctx.cluster.uid) return undefined;
    return this.repave?.state === 'Pending' ? this.repave.reasons : [];
  }

  events(clusterUid: string): LabClusterEvent[] | undefined {
    return clusterUid === this.deps.ctx.cluster.uid ? [...this.log].reverse() : undefined;
  }

  notifications(clusterUid: string): LabNotification[] | undefined {
    return clusterUid === this.deps.ctx.cluster.uid ? this.notes.map((n) => ({ ...n })) : undefined;
  }

  /** A change of the profile of `role` to `target`: attached now, reconciled by the agent (after a repave approval when it rebuilds nodes). */
  private attach(role: ProfileRole, target: Attached, before: Attached): void {
    this.attached[role] = target;
    const changed = changedPacks(before.packs, target.packs);
    const rebuilds = changed.filter((name) => rebuilding.has((target.packs.find((p) => p.name === name) ?? before.packs.find((p) => p.name === name))?.layer ?? ''));
    this.event('ClusterProfileApplied', `${target.name} ${target.version} applied in place of ${before.version}: ${changed.length ? `packs ${changed.join(', ')} change` : 'no pack changes'}`);
    if (rebuilds.length) {
      const reasons = rebuilds.map((name) => {
        const current = before.packs.find((p) => p.name === name)?.tag;
        const next = target.packs.find((p) => p.name === name)?.tag;
        return { code: 'PackChanged', message: 'a node-level pack changes: every node is rebuilt with the new image', pack: { name, ...(current ? { current } : {}), ...(next ? { target: next } : {}) } };
      });
      this.repave = { state: 'Pending', role, reasons };
      this.event('RepavePending', `The change rebuilds nodes (${rebuilds.join(', ')}): waiting for the repave approval`, 'Warning');
    }
    this.deps.reconciler.enqueue(role, { uid: target.uid, name: target.name, version: target.version, packs: target.packs }, { held: rebuilds.length > 0 });
  }

  private roleOf(uid: string): ProfileRole | undefined {
    return (['infra', 'addon'] as const).find((r) => this.attached[r].uid === uid);
  }

  private pending(uid: string): LabNotification | undefined {
    return this.notes.find((n) => n.profileUid === uid && !n.isDone);
  }
}
