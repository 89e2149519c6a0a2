/**
 * One poll, judged: the table rows, counts per phase, which outdated VMIs can still move by
 * themselves, the KubeVirt CR's progress, and the two stall signals a single poll can show
 * (a migration Running past its limit, a still-outdated VMI whose migrations failed repeatedly).
 * Pure: the monitor step feeds it reads and a clock; the tests feed it tables.
 */
import type { KubeVirt, Vmi, Vmim } from '../../kube/schemas.js';
import type { VmImpact } from '../../domain/impact/vm-impact.js';
import { predictImpact } from '../../domain/impact/impact.js';
import { imageTag, keyOf, liveMigratable, parseTime, vmiKeyOf, type KubevirtRef, type MigrationView } from './cluster-view.js';
import type { KubevirtProgress, MigrationProblem, MigrationRow, OutdatedVmi, StallReason } from './monitor-types.js';
import { countPhases, failuresSinceSuccess, isInFlight, phaseOf } from './phases.js';
import { formatDuration } from '../../text/duration.js';

export interface MonitorLimits {
  /** A migration Running longer than this is stuck. */
  migrationLimit: number;
  /** A still-outdated VMI with this many failed migrations will not move by itself. */
  failureLimit: number;
}

export interface PollAssessment {
  rows: MigrationRow[];
  counts: Record<string, number>;
  inFlight: number;
  succeeded: number;
  outdated: OutdatedVmi[];
  kubevirt: KubevirtProgress;
  problems: MigrationProblem[];
  /** Stuck migrations and repeated failures, so far. */
  stall: StallReason[];
  /** Outdated VMIs that can still move by themselves (the workload updater will move them, and they are neither stuck nor failing repeatedly). */
  movable: number;
  /** Nothing outdated can still move by itself: no migration in flight, only VMIs nothing will move left, KubeVirt settled. */
  settled: boolean;
  affectedNodes: string[];
}

const sinceMs = (now: number, ts: string | undefined): number => {
  const t = parseTime(ts);
  return t === undefined ? 0 : Math.max(0, now - t);
};

/** Conditions in a state worth showing (Available=False, Progressing=True, Degraded=True). */
function notableConditions(kv: KubeVirt | undefined): string[] {
  const resting: Record<string, string> = { Available: 'True', Progressing: 'False', Degraded: 'False' };
  return (kv?.status?.conditions ?? []).filter((c) => resting[c.type] !== undefined && resting[c.type] !== c.status).map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`);
}

const sameVersion = (a: string, b: string) => a.replace(/^v/, '') === b.replace(/^v/, '');

export function kubevirtProgress(kv: KubeVirt | undefined, ref: KubevirtRef, expected?: string): KubevirtProgress {
  const phase = kv?.status?.phase ?? '';
  const observed = kv?.status?.observedKubeVirtVersion ?? '';
  const target = kv?.status?.targetKubeVirtVersion ?? '';
  // Without the CR there is nothing to wait for; the screen says it was not found.
  const settled = !kv || (phase === 'Deployed' && observed === target && (!expected || sameVersion(observed, expected)));
  return {
    ref: `${ref.namespace}/${ref.name}`,
    found: kv !== undefined,
    phase,
    observed,
    target,
    ...(expected ? { expected } : {}),
    ...(kv?.status?.outdatedVirtualMachineInstanceWorkloads !== undefined ? { outdatedWorkloads: kv.status.outdatedVirtualMachineInstanceWorkloads } : {}),
    conditions: notableConditions(kv),
    settled,
  };
}

function row(m: Vmim, now: number, nodeOfVmi: Map<string, string>): MigrationRow {
  const phase = phaseOf(m);
  const ms = m.status?.migrationState;
  const vmi = vmiKeyOf(m);
  const r: MigrationRow = {
    key: keyOf(m),
    vmi,
    source: ms?.sourceNode || nodeOfVmi.get(vmi) || '?',
    target: ms?.targetNode || '—',
    phase,
    ageMs: sinceMs(now, m.metadata.creationTimestamp),
  };
  if (phase === 'Running') r.runningMs = sinceMs(now, ms?.startTimestamp ?? m.metadata.creationTimestamp);
  if (phase === 'Failed' && ms?.failureReason) r.reason = ms.failureReason;
  return r;
}

function outdatedVmi(v: Vmi, fate: VmImpact | undefined): OutdatedVmi {
  const lm = liveMigratable(v);
  const launcher = imageTag(v.status?.launcherContainerImageVersion);
  const willMove = fate?.fate === 'live-migrate' || fate?.fate === 'evict';
  return {
    vmi: keyOf(v),
    node: v.status?.nodeName ?? '?',
    migratable: lm.migratable,
    ...(lm.reason ? { notMigratableReason: lm.reason } : {}),
    ...(launcher ? { launcher } : {}),
    willMove,
    ...(!willMove && fate ? { staysBecause: fate.reason } : {}),
  };
}

/**
 * What the workload updater will do with each outdated VMI, by the same rules the plan predicted
 * with (its methods: LiveMigrate for migratable VMIs, Evict for the others). An empty list of
 * methods, as KubeVirt reads it, moves nothing.
 */
function fates(view: MigrationView): Map<string, VmImpact> {
  const methods = view.kubevirt?.spec?.workloadUpdateStrategy?.workloadUpdateMethods ?? [];
  return new Map(predictImpact({ methods }, [], view.outdated).map((i) => [i.vm, i]));
}

/** Problems first (Running longest, then failed), then the rest in flight, then finished: what an operator looks at first. */
const rank = (r: MigrationRow): number => (r.phase === 'Running' ? 0 : r.phase === 'Failed' ? 1 : isInFlight(r.phase) ? 2 : 3);

export function sortRows(rows: MigrationRow[]): MigrationRow[] {
  return rows.sort((a, b) => rank(a) - rank(b) || (b.runningMs ?? b.ageMs) - (a.runningMs ?? a.ageMs) || a.key.localeCompare(b.key));
}

/**
 * `since`: when this session began (cluster clock). The table (and its counts) show the session's
 * migrations and any still in flight, not the finished ones KubeVirt keeps from days before; the
 * judgement (stuck, failing repeatedly) reads them all.
 */
export function assessPoll(view: MigrationView, now: number, limits: MonitorLimits, ref: KubevirtRef, expected?: string, since?: number): PollAssessment {
  const nodeOfVmi = new Map(view.outdated.map((v) => [keyOf(v), v.status?.nodeName ?? '?']));
  const outdatedKeys = new Set(nodeOfVmi.keys());
  const all = sortRows(view.migrations.map((m) => row(m, now, nodeOfVmi)));
  const rows = since === undefined ? all : all.filter((r) => isInFlight(r.phase) || r.ageMs <= now - since);
  const counts = countPhases(rows.map((r) => r.phase));
  const inFlight = rows.filter((r) => isInFlight(r.phase)).length;
  const fate = fates(view);
  const outdated = view.outdated.map((v) => outdatedVmi(v, fate.get(keyOf(v)))).sort((a, b) => a.vmi.localeCompare(b.vmi));
  const kubevirt = kubevirtProgress(view.kubevirt, ref, expected);

  const problems: MigrationProblem[] = [];
  const stall: StallReason[] = [];
  for (const r of all) {
    if (r.phase === 'Running' && (r.runningMs ?? 0) > limits.migrationLimit) {
      problems.push({ kind: 'stuck', vmi: r.vmi, migration: r.key, phase: r.phase, source: r.source, target: r.target, ageMs: r.runningMs ?? r.ageMs });
      stall.push({ kind: 'migration-too-long', vmi: r.vmi, text: `${r.vmi}: migration ${r.key} Running for ${formatDuration(r.runningMs ?? 0)} (limit ${formatDuration(limits.migrationLimit)})` });
    }
  }
  // Failures matter while their VMI is still outdated, and only those since its last success.
  const failures = failuresSinceSuccess(
    all.filter((r) => outdatedKeys.has(r.vmi)),
    { vmi: (r) => r.vmi, phase: (r) => r.phase, created: (r) => now - r.ageMs },
  );
  for (const [vmi, failed] of [...failures].sort((a, b) => a[0].localeCompare(b[0]))) {
    const latest = [...failed].sort((a, b) => a.ageMs - b.ageMs)[0]!;
    for (const f of failed) problems.push({ kind: 'failed', vmi, migration: f.key, phase: f.phase, source: f.source, target: f.target, ageMs: f.ageMs, ...(f.reason ? { reason: f.reason } : {}) });
    if (failed.length >= limits.failureLimit) {
      stall.push({ kind: 'failures', vmi, text: `${vmi}: ${failed.length} failed migration(s)${latest.reason ? `, the latest: ${latest.reason}` : ''}` });
    }
  }

  const affected = new Set<string>();
  for (const p of problems) {
    for (const n of [p.source, p.target, nodeOfVmi.get(p.vmi)]) if (n && n !== '?' && n !== '—') affected.add(n);
  }
  const blocked = new Set(stall.map((s) => s.vmi));
  const movable = outdated.filter((o) => o.willMove && !blocked.has(o.vmi)).length;
  // The CR counts outdated VMIs too; labels can lag it, so it may not claim more than the labels show.
  const labelsCaughtUp = kubevirt.outdatedWorkloads === undefined || kubevirt.outdatedWorkloads <= outdated.length;
  const settled = inFlight === 0 && outdated.every((o) => !o.willMove) && kubevirt.settled && labelsCaughtUp;
  return { rows, counts, inFlight, succeeded: counts.Succeeded ?? 0, outdated, kubevirt, problems, stall, movable, settled, affectedNodes: [...affected].sort() };
}
