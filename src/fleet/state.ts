/** Folds the fleet journal into its state: pure, so status, report and resume read the same thing. */
import type { ClusterOutcome, ClusterState, ClusterStatus, FleetEvent, FleetState, StageState } from './types.js';

const statusOf: Record<ClusterOutcome, ClusterStatus> = { done: 'done', failed: 'failed', gate: 'gate', interrupted: 'stopped', error: 'failed', unwatched: 'unwatched' };

export function foldFleet(events: readonly FleetEvent[]): FleetState | undefined {
  const first = events[0];
  if (!first || first.type !== 'fleet.planned') return undefined;
  const planned: FleetState = {
    fleet: first.fleet,
    file: first.file,
    digest: first.digest,
    target: first.target,
    plannedAt: first.at,
    plannedBy: first.by,
    stages: first.stages.map((s) => ({ ...s, status: 'pending' })),
    clusters: first.clusters.map((c): ClusterState => ({ ...c, status: 'pending', attempts: 0 })),
    leftOut: first.leftOut,
    runs: [],
  };
  return applyFleetEvents(planned, events, 1);
}

/**
 * `before` with `events` (from index `from`) applied, as a new state: `before` is left as it was, and
 * every stage and cluster no event touches is the same object in both. The coordinator keeps the
 * state as of its last record and applies each new record to it: refolding the whole journal made
 * every cluster of the fleet anew for each record (a fleet of 200 clusters writes some 600).
 */
export function applyFleetEvents(before: FleetState, events: readonly FleetEvent[], from = 0): FleetState {
  const state: FleetState = { ...before, stages: [...before.stages], clusters: [...before.clusters], runs: [...before.runs] };
  const own = new Set<object>();
  /** The state's own copy of the item named `name`, made on first change. */
  const writable = <T extends { name: string }>(list: T[], name: string): T | undefined => {
    const i = list.findIndex((x) => x.name === name);
    if (i === -1) return undefined;
    if (!own.has(list[i]!)) {
      list[i] = { ...list[i]! };
      own.add(list[i]!);
    }
    return list[i];
  };
  const cluster = (name: string): ClusterState | undefined => writable(state.clusters, name);
  const stage = (name: string): StageState | undefined => writable(state.stages, name);
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    switch (e.type) {
      case 'fleet.planned':
        break;
      case 'fleet.run':
        state.approvals = e.approvals;
        state.runs.push({ at: e.at, by: e.by, command: e.command, added: e.added, revoked: e.revoked });
        delete state.stopped;
        break;
      case 'stage.halting': {
        const s = stage(e.stage);
        if (s) s.halting = { why: e.why, carrying: e.carrying, at: e.at };
        break;
      }
      case 'stage.approved': {
        const s = stage(e.stage);
        if (s) s.approvedBy = `${e.by} (${e.how})`;
        break;
      }
      case 'stage.started': {
        const s = stage(e.stage);
        if (s) {
          // A stage resumed in its soak goes on soaking (its clusters are done).
          s.status = s.soak ? 'soaking' : 'running';
          s.startedAt ??= e.at;
          delete s.message;
          delete s.halting;
        }
        break;
      }
      case 'stage.soak.started': {
        const s = stage(e.stage);
        if (s) {
          s.status = 'soaking';
          s.soak = { until: e.until, untilWall: e.untilWall };
          for (const c of state.clusters) if (c.stage === e.stage && c.unhealthy) delete cluster(c.name)!.unhealthy;
        }
        break;
      }
      case 'cluster.unhealthy': {
        const c = cluster(e.cluster);
        if (c) c.unhealthy = e.evidence;
        break;
      }
      case 'stage.ended': {
        const s = stage(e.stage);
        if (s) {
          s.status = e.outcome;
          s.endedAt = e.at;
          delete s.halting;
          if (e.message) s.message = e.message;
          // A soak that ended (done, or failed by a cluster's health) is over: a resume after a
          // failure soaks again in full. Stopped (Ctrl+C) keeps it: a resume soaks what is left.
          if (e.outcome !== 'stopped') delete s.soak;
        }
        break;
      }
      case 'cluster.started': {
        const c = cluster(e.cluster);
        if (c) {
          c.status = 'running';
          c.session = e.session;
          c.attempts = e.attempt;
          c.startedAt ??= e.at;
          delete c.endedAt;
          delete c.message;
          delete c.unwatched;
          delete c.gateFlags;
        }
        break;
      }
      case 'cluster.ended': {
        const c = cluster(e.cluster);
        if (c) {
          c.status = statusOf[e.outcome];
          c.endedAt = e.at;
          if (e.message) c.message = e.message;
          if (e.outcome === 'unwatched' && e.motion) c.unwatched = { ...e.motion, since: e.at };
          if (e.flags?.length) c.gateFlags = e.flags;
        }
        break;
      }
      case 'cluster.skipped': {
        const c = cluster(e.cluster);
        if (c) {
          c.status = 'skipped';
          c.skipReason = `${e.reason} (${e.by})`;
        }
        break;
      }
      case 'cluster.vanished': {
        const c = cluster(e.cluster);
        if (c) c.status = 'vanished';
        break;
      }
      case 'fleet.stopped':
        state.stopped = { at: e.at, reason: e.reason, ...(e.by ? { by: e.by } : {}), ...(e.mode ? { mode: e.mode } : {}), ...(e.how ? { how: e.how } : {}) };
        break;
    }
  }
  return state;
}

/** Whether the cluster is finished for the fleet: upgraded, left out by the operator, or gone from Palette. */
export const isSettled = (c: ClusterState) => c.status === 'done' || c.status === 'skipped' || c.status === 'vanished';

/** How many failures stop a stage of `total` clusters (`10%` of 8 is 1: at least one). */
export function failureLimit(threshold: number | string, total: number): number {
  if (typeof threshold === 'number') return threshold;
  const pct = Number(threshold.replace('%', ''));
  return Math.max(1, Math.ceil((pct / 100) * total));
}
