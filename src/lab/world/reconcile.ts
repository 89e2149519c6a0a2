/**
 * Palette's side of a publish: the cluster's agent picks up a new version of a profile the cluster
 * uses, applies the packs that changed one after another (a helm upgrade each), waits until what
 * they started has settled (KubeVirt and CDI Deployed, storage rolled), and only then does the
 * cluster's profiles read show the new version and tags. Publishes queue: one profile reconciles
 * at a time, and a newer publish of a queued profile replaces the queued one.
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
  /** Whatever the applied packs started (rollouts) has finished. */
  settled(): boolean;
}

interface Job {
  role: ProfileRole;
  version: string;
  packs: LabPack[];
  publishedAt: number;
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
}

const samePack = (a: LabPack | undefined, b: LabPack | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  a.tag === b.tag &&
  a.values === b.values &&
  JSON.stringify(a.manifests.map((m) => [m.name, m.content])) === JSON.stringify(b.manifests.map((m) => [m.name, m.content]));

export class Reconciler {
  private readonly applied: Record<ProfileRole, AppliedProfile>;
  /** Pack contents as applied so far (ahead of `applied` while a job runs). */
  private readonly current: Record<ProfileRole, Map<string, LabPack>>;
  private readonly queue: Job[] = [];
  private running: { job: Job; record: ReconcileRecord } | undefined;
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

  /** The cluster's profiles read: what has finished reconciling. */
  deployed(): DeployedProfile[] {
    return (['infra', 'addon'] as const).map((role) => {
      const p = this.applied[role];
      return { uid: p.uid, name: p.name, version: p.version, packs: p.packs.map((k) => ({ name: k.name, tag: k.tag, values: k.values })) };
    });
  }

  /** A publish; returns false when the profile is not one this cluster uses (e.g. a reference profile). */
  onPublish(profile: LabProfile): boolean {
    const role = (['addon', 'infra'] as const).find((r) => this.applied[r].uid === profile.uid);
    if (!role || !profile.published) return false;
    const job: Job = { role, version: profile.published.version, packs: structuredClone(profile.published.packs), publishedAt: this.ctx.clock.now() };
    const queued = this.queue.findIndex((j) => j.role === role);
    if (queued >= 0) {
      for (const r of this.records) if (r.role === role && !r.startedAt) r.superseded = true;
      this.queue.splice(queued, 1, job);
    } else this.queue.push(job);
    this.records.push({ profile: profile.name, role, version: job.version, publishedAt: new Date(job.publishedAt).toISOString(), changedPacks: [] });
    if (!this.running) this.startNext();
    return true;
  }

  busy(): boolean {
    return this.running !== undefined || this.queue.length > 0;
  }

  history(): ReconcileRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  status(): { reconciling: boolean; current?: { profile: string; version: string }; queued: Array<{ role: ProfileRole; version: string }> } {
    return {
      reconciling: this.busy(),
      ...(this.running ? { current: { profile: this.applied[this.running.job.role].name, version: this.running.job.version } } : {}),
      queued: this.queue.map((j) => ({ role: j.role, version: j.version })),
    };
  }

  private startNext(): void {
    const job = this.queue.shift();
    if (!job) return;
    const record = [...this.records].reverse().find((r) => r.role === job.role && r.version === job.version && !r.startedAt && !r.superseded) ?? {
      profile: this.applied[job.role].name,
      role: job.role,
      version: job.version,
      publishedAt: new Date(job.publishedAt).toISOString(),
      changedPacks: [],
    };
    this.running = { job, record };
    this.ctx.clock.after(timings.agentPickup, () => this.applyPacks(job, record));
  }

  private applyPacks(job: Job, record: ReconcileRecord): void {
    record.startedAt = new Date(this.ctx.clock.now()).toISOString();
    const current = this.current[job.role];
    const incoming = new Map(job.packs.map((p) => [p.name, p]));
    const changed = [...job.packs.filter((p) => !samePack(current.get(p.name), p)).map((p) => p.name), ...[...current.keys()].filter((n) => !incoming.has(n))];
    record.changedPacks = changed;
    changed.forEach((name, i) => {
      this.ctx.clock.after(timings.packApply * i, () => {
        const pack = incoming.get(name);
        if (pack) current.set(name, pack);
        else current.delete(name);
        this.packGeneration += 1;
        this.applier.applyPack(job.role, name, pack);
      });
    });
    const waitSettled = (): void => {
      if (!this.applier.settled()) {
        this.ctx.clock.after(timings.settleCheck, waitSettled);
        return;
      }
      this.finish(job, record);
    };
    this.ctx.clock.after(timings.packApply * Math.max(0, changed.length - 1) + timings.settleCheck, waitSettled);
  }

  private finish(job: Job, record: ReconcileRecord): void {
    const p = this.applied[job.role];
    this.applied[job.role] = { ...p, version: job.version, packs: job.packs };
    record.finishedAt = new Date(this.ctx.clock.now()).toISOString();
    this.running = undefined;
    this.startNext();
  }
}
