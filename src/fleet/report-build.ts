/**
 * Fleet journal + each cluster's session report → the fleet report's data. Pure: the fleet journal
 * says when each cluster ran, how it ended and who approved each stage; the session reports say what
 * happened inside (versions, VMs, downtime, gate decisions), so nothing is counted twice or guessed.
 */
import type { ReportData, ReportVm } from '../report/model.js';
import { approvalsText, stagePolicyText, stageWhere } from './approvals.js';
import { decisionOf, verificationOf } from './report-who.js';
import { sanitizeText } from '../text/sanitize.js';
import type { FleetClusterRow, FleetReport, FleetStageRow } from './report-schema.js';
import { foldFleet } from './state.js';
import { fleetTimeline } from './report-timeline.js';
import type { ClusterState, ClusterStatus, FleetEvent } from './types.js';

export interface FleetReportInput {
  events: readonly FleetEvent[];
  /** The session report of a cluster's session, when the session exists. */
  sessionReport(id: string): ReportData | undefined;
  /** The flags that name this fleet on a command line (`--fleet FILE [--state-dir DIR]`), for the commands to go on. */
  fleetFlags: string;
  now?: Date;
}

/** What happened to the cluster, in the words the report uses. */
export const fateWords: Record<ClusterStatus, string> = {
  done: 'upgraded',
  failed: 'failed',
  gate: 'waiting at a gate',
  stopped: 'stopped safely (session saved)',
  unwatched: 'applied, rollout continues unwatched',
  running: 'in flight when the fleet stopped',
  pending: 'untouched',
  skipped: 'skipped',
  'left-out': 'left out',
  vanished: 'gone from Palette (reported, not failed)',
};

const seconds = (a?: string | null, b?: string | null) => (a && b ? Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 1000)) : null);
const clean = (s: string) => sanitizeText(s, { max: 2_000 });

/** "flag --approve stage" / "key y" / anything else: a rule of the tool. */
function approvalWho(how: string): { by: 'key' | 'flag' | 'policy'; detail: string } {
  if (how.startsWith('flag ')) return { by: 'flag', detail: how.slice(5) };
  if (how.startsWith('key ')) return { by: 'key', detail: how.slice(4) };
  return { by: 'policy', detail: how };
}

/** Each VM's fate in the latest hop it appears in (a VM migrated in hop 1 and restarted in hop 2 is restarted). */
export function vmSummary(vms: readonly ReportVm[]): NonNullable<FleetClusterRow['vms']> {
  const latest = new Map<string, ReportVm>();
  for (const vm of vms) {
    const prior = latest.get(vm.name);
    if (!prior || (vm.hop ?? 0) >= (prior.hop ?? 0)) latest.set(vm.name, vm);
  }
  const all = [...latest.values()];
  const restarts = vms.filter((v) => v.fate === 'restarted');
  const downtimes = restarts.map((v) => v.downtimeSeconds ?? 0);
  const outstanding = all.filter((v) => v.fate === 'outstanding' || v.fate === 'would-restart');
  return {
    migrated: all.filter((v) => v.fate === 'live-migrated' || v.fate === 'evicted').length,
    restarted: all.filter((v) => v.fate === 'restarted').length,
    outstanding: outstanding.length,
    restartedVms: all.filter((v) => v.fate === 'restarted').map((v) => v.name),
    outstandingVms: outstanding.map((v) => ({ name: v.name, ...(v.reason ? { reason: v.reason } : {}) })),
    downtimeSeconds: Math.round(downtimes.reduce((a, b) => a + b, 0) * 10) / 10,
    maxDowntimeSeconds: downtimes.length ? Math.max(...downtimes) : 0,
  };
}

function versionsOf(r: ReportData, status: ClusterStatus): FleetClusterRow['versions'] {
  const hops = r.hops.map((h) => ({ from: h.from, to: h.to }));
  const from = hops[0]?.from ?? null;
  // A cluster that never had a change sent runs what it ran; one stopped half-way is what its profiles say.
  const sentAny = r.requests.some((q) => q.outcome === 'sent' || q.outcome === 'settled');
  const to = status === 'done' ? (hops.at(-1)?.to ?? from) : sentAny ? null : from;
  return {
    from,
    to,
    hops,
    profilesBefore: r.profiles.before.map((p) => ({ name: p.name, version: p.version })),
    profilesAfter: r.profiles.after.map((p) => ({ name: p.name, version: p.version })),
  };
}

function runsOf(events: readonly FleetEvent[], cluster: string): FleetClusterRow['runs'] {
  const runs: FleetClusterRow['runs'] = [];
  const sessions: string[] = [];
  let by: string | undefined;
  for (const e of events) {
    if (e.type === 'fleet.run') by = e.by;
    if (e.type === 'cluster.started' && e.cluster === cluster) {
      // The same start recorded twice (a retry's journals before this fix named its session again once it opened): one run.
      const open = runs.at(-1);
      if (open && open.endedAt === null && !e.resumed && open.attempt === e.attempt && sessions.at(-1) === e.session) continue;
      runs.push({ attempt: e.attempt, resumed: e.resumed, at: e.at, endedAt: null, outcome: null, ...(by ? { by } : {}) });
      sessions.push(e.session);
    }
    if (e.type === 'cluster.ended' && e.cluster === cluster) {
      const open = runs.at(-1);
      if (open && open.endedAt === null) Object.assign(open, { endedAt: e.at, outcome: e.outcome, ...(e.message ? { message: clean(e.message) } : {}) });
    }
  }
  return runs;
}

function clusterRow(c: ClusterState, input: FleetReportInput, report: ReportData | undefined): FleetClusterRow {
  const decisions = report ? report.decisions.map((d) => decisionOf(d, report)) : [];
  const skipped = input.events.filter((e): e is Extract<FleetEvent, { type: 'cluster.skipped' }> => e.type === 'cluster.skipped' && e.cluster === c.name).at(-1);
  const stoppable = c.status === 'failed' || c.status === 'stopped' || c.status === 'gate' || c.status === 'running' || c.status === 'unwatched';
  const resume = !stoppable ? undefined : c.status === 'failed' ? `upgrade-pilot fleet retry ${c.name} ${input.fleetFlags}` : `upgrade-pilot fleet resume ${input.fleetFlags}`;
  const why = c.skipReason ?? c.message ?? (c.status === 'failed' ? (report?.outcome.reason ?? null) : null);
  const runs = runsOf(input.events, c.name);
  return {
    cluster: c.name,
    uid: c.uid,
    stage: c.stage,
    status: c.status,
    fate: fateWords[c.status],
    attempts: c.attempts,
    retries: Math.max(0, c.attempts - 1),
    session: c.session ?? null,
    ...(resume ? { resume } : {}),
    startedAt: c.startedAt ?? null,
    endedAt: c.endedAt ?? null,
    durationSeconds: seconds(c.startedAt, c.endedAt),
    why: why === null ? null : clean(why),
    ...(skipped ? { skip: { reason: clean(skipped.reason), by: skipped.by, at: skipped.at } } : {}),
    ...(c.unhealthy?.length ? { unhealthy: c.unhealthy.map(clean) } : {}),
    ...(c.unwatched ? { unwatched: { ...c.unwatched, watchAgain: `upgrade-pilot fleet resume ${input.fleetFlags}` } } : {}),
    verification: verificationOf(report, decisions, c.stage),
    ...(report ? { versions: versionsOf(report, c.status), vms: vmSummary(report.vms) } : {}),
    decisions,
    runs,
    labTime: report?.labTime ?? false,
  };
}

const countBy = (rows: FleetClusterRow[]) => rows.reduce<Record<string, number>>((n, r) => ((n[r.fate] = (n[r.fate] ?? 0) + 1), n), {});

export function buildFleetReport(input: FleetReportInput): FleetReport {
  const state = foldFleet(input.events);
  if (!state) throw new Error('the fleet journal holds no plan');
  const planned = state.clusters.map((c) => clusterRow(c, input, c.session ? input.sessionReport(c.session) : undefined));
  const leftOut: FleetClusterRow[] = state.leftOut.map((l) => ({
    cluster: l.name,
    uid: l.uid,
    stage: null,
    status: 'left-out',
    fate: fateWords['left-out'],
    attempts: 0,
    retries: 0,
    session: null,
    startedAt: null,
    endedAt: null,
    durationSeconds: null,
    why: clean(l.reason),
    verification: { ran: false, text: 'left out' },
    decisions: [],
    runs: [],
    labTime: false,
  }));
  const approvals = input.events.filter((e): e is Extract<FleetEvent, { type: 'stage.approved' }> => e.type === 'stage.approved');
  const stages = state.stages.map((s): FleetStageRow => {
    const rows = planned.filter((r) => r.stage === s.name);
    const approved = approvals.filter((a) => a.stage === s.name).at(-1);
    const sum = (k: 'migrated' | 'restarted' | 'outstanding' | 'downtimeSeconds') => rows.reduce((n, r) => n + (r.vms?.[k] ?? 0), 0);
    return {
      name: s.name,
      status: s.status,
      clusters: s.clusters,
      maxConcurrency: s.maxConcurrency,
      failureThreshold: s.failureThreshold,
      approves: s.approve ?? [],
      restarts: s.restarts ?? 'ask',
      policy: stagePolicyText(s, state.approvals?.revoked ?? []),
      where: stageWhere(s) ?? null,
      halts: input.events.filter((e): e is Extract<FleetEvent, { type: 'stage.halting' }> => e.type === 'stage.halting' && e.stage === s.name).map((e) => ({ at: e.at, why: clean(e.why), carried: e.carrying })),
      approval: approved ? { ...approvalWho(approved.how), operator: approved.by, at: approved.at } : null,
      needsApproval: s.approval,
      startedAt: s.startedAt ?? null,
      endedAt: s.endedAt ?? null,
      durationSeconds: seconds(s.startedAt, s.endedAt),
      message: s.message ? clean(s.message) : null,
      counts: countBy(rows),
      vms: { migrated: sum('migrated'), restarted: sum('restarted'), outstanding: sum('outstanding'), downtimeSeconds: Math.round(sum('downtimeSeconds') * 10) / 10 },
    };
  });
  const started = stages.map((s) => s.startedAt).filter((t): t is string => t !== null).sort();
  const stillRunning = stages.some((s) => s.status === 'running');
  const ended = stillRunning ? [] : stages.map((s) => s.endedAt).filter((t): t is string => t !== null).sort();
  const clusters = [...planned, ...leftOut];
  const report: Omit<FleetReport, 'timeline'> = {
    schema: 1,
    generatedAt: (input.now ?? new Date()).toISOString(),
    fleet: state.fleet,
    target: state.target,
    file: state.file,
    plannedAt: state.plannedAt,
    plannedBy: state.plannedBy,
    approvals: state.approvals ? { flags: approvalsText(state.approvals), revoked: state.approvals.revoked, runs: state.runs } : null,
    stopped: state.stopped ? { at: state.stopped.at, reason: clean(state.stopped.reason), ...(state.stopped.by ? { by: state.stopped.by } : {}), ...(state.stopped.mode ? { mode: state.stopped.mode } : {}) } : null,
    startedAt: started[0] ?? null,
    endedAt: ended.at(-1) ?? null,
    durationSeconds: seconds(started[0], ended.at(-1)),
    counts: countBy(clusters),
    stages,
    clusters,
  };
  return { ...report, timeline: fleetTimeline(input.events, report) };
}
