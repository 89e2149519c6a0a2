/**
 * The cluster's agent applying a profile change: it picks up a new version of a profile the
 * cluster uses, applies the packs that changed one after another (a helm upgrade each), waits until
 * what they started has settled (KubeVirt and CDI Deployed, storage rolled, nodes rebuilt), and only
 * then does the cluster count the version as deployed. Changes queue: one profile reconciles at a
 * time, and a newer change of a queued profile replaces the queued one.
 *
 * What starts a change is the flavor's: on the spec's service a publish (`onPublish`); on a real
 * Palette an apply to the cluster (`enqueue`), which may be held until a node rebuild is approved
 * (`release`). A pack the applier refuses (`failure`) stops the change where it is, in Error.
 */
import type { DeployedProfile, LabPack, LabProfile } from '../palette/types.js';
import type { WorldContext } from './context.js';
import { timings } from './timings.js';

export type ProfileRole = 'addon' | 'infra';

export interface AppliedProfile {
  uid: string;
  name: string;
  role: ProfileRole;
  version: string;
  packs: LabPack[];
}

export interface PackApplier {
  /** One pack's new content reached the cluster (undefined: the pack was removed). */
  applyPack(role: ProfileRole, name: string, pack: LabPack | undefined): void;
  /** Whatever the applied packs started (rollouts, node rebuilds) has finished. */
  settled(): boolean;
  /** Why this pack's upgrade fails (a scenario's fault), or undefined when it goes through. */
  failure?(role: ProfileRole, name: string, pack: LabPack | undefined): string | undefined;
  /** A change finished: every pack applied and settled. */
  finished?(role: ProfileRole, name: string, version: string): void;
}

interface Job {
  role: ProfileRole;
  uid: string;
  name: string;
  version: string;
  packs: LabPack[];
  publishedAt: number;
  /** Waits for `release` before the agent picks it up (a node rebuild not yet approved). */
  held: boolean;
}

export interface ReconcileRecord {
  profile: string;
  role: ProfileRole;
  version: string;
  publishedAt: string;
  /** Replaced by a newer publish of the same profile before the agent got to it. */
  superseded?: boolean;
  startedAt?: string;
  finishedAt?: string;
  changedPacks: string[];
  /** The pack whose upgrade failed, and why: the change stops there. */
  error?: { pack: string; message: string };
}

/** Where the running change of a profile stands, for the cluster's per-pack status. */
export interface JobProgress {
  uid: string;
  phase: 'queued' | 'held' | 'pickup' | 'applying' | 'failed';
  changed: string[];
  applied: ReadonlySet<string>;
  error?: { pack: string; message: string };
}

const samePack = (a: LabPack | undefined, b: LabPack | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  a.tag === b.tag &&
  a.values === b.values &&
  JSON.stringify(a.manifests.map((m) => [m.name, m.content])) === JSON.stringify(b.manifests.map((m) => [m.name, m.content]));

/** The names of the packs that differ between two sets (changed, added or removed). */
export function changedPacks(from: readonly LabPack[], to: readonly LabPack[]): string[] {
  const before = new Map(from.map((p) => [p.name, p]));
  const after = new Set(to.map((p) => p.name));
  return [...to.filter((p) => !samePack(before.get(p.name), p)).map((p) => p.name), ...[...before.keys()].filter((n) => !after.has(n))];
}

interface Running {
  job: Job;
  record: ReconcileRecord;
  phase: JobProgress['phase'];
  changed: string[];
  applied: Set<string>;
}

export class Reconciler {
  private readonly applied: Record<ProfileRole, AppliedProfile>;
  /** Pack contents as applied so far (ahead of `applied` while a job runs). */
  private readonly current: Record<ProfileRole, Map<string, LabPack>>;
  private readonly queue: Job[] = [];
  private running: Running | undefined;
  private readonly records: ReconcileRecord[] = [];
  /** Bumped whenever an applied pack changes (the world caches what the packs configure). */
  private packGeneration = 0;

  constructor(
    private readonly ctx: WorldContext,
    deployed: Record<ProfileRole, AppliedProfile>,
    private readonly applier: PackApplier,
  ) {
    this.applied = { addon: structuredClone(deployed.addon), infra: structuredClone(deployed.infra) };
    this.current = {
      addon: new Map(this.applied.addon.packs.map((p) => [p.name, p])),
      infra: new Map(this.applied.infra.packs.map((p) => [p.name, p])),
    };
  }

  generation(): number {
    return this.packGeneration;
  }

  /** Every pack as currently applied to the cluster, infra first. */
  currentPacks(): LabPack[] {
    return [...this.current.infra.values(), ...this.current.addon.values()];
  }

  /** What has finished reconciling, per role. */
  appliedProfile(role: ProfileRole): AppliedProfile {
    return this.applied[role];
  }

  /** The cluster's profiles read: what has finished reconciling. */
  deployed(): DeployedProfile[] {
    return (['infra', 'addon'] as const).map((role) => {
      const p = this.applied[role];
      return { uid: p.uid, name: p.name, version: p.version, packs: p.packs.map((k) => ({ name: k.name, tag: k.tag, values: k.values })) };
    });
  }

  /** The spec's service: a publish; returns false when the profile is not one this cluster uses (e.g. a reference profile). */
  onPublish(profile: LabProfile): boolean {
    const role = (['addon', 'infra'] as const).find((r) => this.applied[r].uid === profile.uid);
    if (!role || !profile.published) return false;
    this.enqueue(role, { uid: profile.uid, name: profile.name, version: profile.published.version, packs: profile.published.packs });
    return true;
  }

  /** A change of a role's profile to reconcile (a publish on the spec's service, an apply on Palette). */
  enqueue(role: ProfileRole, to: { uid: string; name: string; version: string; packs: readonly LabPack[] }, opts: { held?: boolean } = {}): void {
    const job: Job = { role, uid: to.uid, name: to.name, version: to.version, packs: structuredClone([...to.packs]), publishedAt: this.ctx.clock.now(), held: opts.held ?? false };
    const queued = this.queue.findIndex((j) => j.role === role);
    if (queued >= 0) {
      for (const r of this.records) if (r.role === role && !r.startedAt) r.superseded = true;
      this.queue.splice(queued, 1, job);
    } else this.queue.push(job);
    this.records.push({ profile: to.name, role, version: job.version, publishedAt: new Date(job.publishedAt).toISOString(), changedPacks: [] });
    if (!this.running) this.startNext();
  }

  /** Lets a held change go on (its node rebuild was approved). */
  release(role: ProfileRole): boolean {
    const queued = this.queue.find((j) => j.role === role && j.held);
    if (queued) queued.held = false;
    const r = this.running;
    if (r?.job.role === role && r.phase === 'held') {
      r.job.held = false;
      this.pickUp(r);
      return true;
    }
    return queued !== undefined;
  }

  /**
   * The cause of a failed pack was fixed: the agent's next reconcile picks the change up again and
   * applies what it had not applied yet (the packs already upgraded stay). False when nothing failed.
   */
  retryFailed(): boolean {
    const r = this.running;
    if (r?.phase !== 'failed') return false;
    delete r.record.error;
    this.pickUp(r);
    return true;
  }

  busy(): boolean {
    return this.running !== undefined || this.queue.length > 0;
  }

  /** Where the change of a role stands (undefined: nothing pending for it). */
  progress(role: ProfileRole): JobProgress | undefined {
    const r = this.running;
    if (r?.job.role === role) return { uid: r.job.uid, phase: r.phase, changed: r.changed, applied: r.applied, ...(r.record.error ? { error: r.record.error } : {}) };
    const q = this.queue.find((j) => j.role === role);
    return q ? { uid: q.uid, phase: q.held ? 'held' : 'queued', changed: [], applied: new Set() } : undefined;
  }

  history(): ReconcileRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  status(): { reconciling: boolean; current?: { profile: string; version: string }; queued: Array<{ role: ProfileRole; version: string }> } {
    return {
      reconciling: this.busy(),
      ...(this.running ? { current: { profile: this.running.job.name, version: this.running.job.version } } : {}),
      queued: this.queue.map((j) => ({ role: j.role, version: j.version })),
    };
  }

  private startNext(): void {
    const job = this.queue.shift();
    if (!job) return;
    const record = [...this.records].reverse().find((r) => r.role === job.role && r.version === job.version && !r.startedAt && !r.superseded) ?? {
      profile: job.name,
      role: job.role,
      version: job.version,
      publishedAt: new Date(job.publishedAt).toISOString(),
      changedPacks: [],
    };
    const running: Running = { job, record, phase: job.held ? 'held' : 'pickup', changed: [], applied: new Set() };
    this.running = running;
    if (!job.held) this.pickUp(running);
  }

  private pickUp(r: Running): void {
    r.phase = 'pickup';
    this.ctx.clock.after(timings.agentPickup, () => this.applyPacks(r));
  }

  private applyPacks(r: Running): void {
    const { job, record } = r;
    record.startedAt = new Date(this.ctx.clock.now()).toISOString();
    r.phase = 'applying';
    const current = this.current[job.role];
    const incoming = new Map(job.packs.map((p) => [p.name, p]));
    const changed = changedPacks([...current.values()], job.packs);
    record.changedPacks = changed;
    r.changed = changed;
    changed.forEach((name, i) => {
      this.ctx.clock.after(timings.packApply * i, () => {
        if (r.phase === 'failed') return;
        const pack = incoming.get(name);
        const failure = this.applier.failure?.(job.role, name, pack);
        if (failure) {
          // The helm upgrade failed: the agent stops this change here and reports the pack in Error.
          record.error = { pack: name, message: failure };
          r.phase = 'failed';
          return;
        }
        if (pack) current.set(name, pack);
        else current.delete(name);
        r.applied.add(name);
        this.packGeneration += 1;
        this.applier.applyPack(job.role, name, pack);
      });
    });
    const waitSettled = (): void => {
      if (r.phase === 'failed') return;
      if (!this.applier.settled()) {
        this.ctx.clock.after(timings.settleCheck, waitSettled);
        return;
      }
      this.finish(job, record);
    };
    this.ctx.clock.after(timings.packApply * Math.max(0, changed.length - 1) + timings.settleCheck, waitSettled);
  }

  private finish(job: Job, record: ReconcileRecord): void {
    this.applied[job.role] = { uid: job.uid, name: job.name, role: job.role, version: job.version, packs: job.packs };
    record.finishedAt = new Date(this.ctx.clock.now()).toISOString();
    this.running = undefined;
    this.applier.finished?.(job.role, job.name, job.version);
    this.startNext();
  }
}
