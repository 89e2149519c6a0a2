/**
 * The fleet plan's time: each stage's clusters laid out as the coordinator starts them (in the
 * plan's order, `maxConcurrency` at a time; one at a time until the fleet's first cluster has
 * finished; inside the stage's window only, when the cluster's p90 fits in what is left of it), the
 * stage's soak after, the stages one after another. Done twice, with each cluster's p50 and its p90
 * (the window's fit is always judged on the p90, as the coordinator judges it). What no one can
 * predict is said, not guessed: the stage approvals and the operator's answers at the gates. Pure.
 */
import type { RestartWindow } from '../domain/impact/vm-limits.js';
import { closesAt, fitInWindow, stageWindow, type StageWindowSpec } from './window.js';

export interface ClusterPrediction {
  name: string;
  p50Ms: number;
  p90Ms: number;
  /** Where it comes from, for the operator ("its own plan: 1 hop, 7 VMs move, 1 restart"). */
  basis: string;
}

export interface StagePlanInput {
  name: string;
  clusters: string[];
  maxConcurrency: number;
  soakMs?: number;
  window?: StageWindowSpec;
}

export interface StageTime {
  name: string;
  clusters: number;
  maxConcurrency: number;
  /** From the stage's start to its last cluster's end (waits for the window included), before the soak. */
  p50Ms: number;
  p90Ms: number;
  soakMs: number;
  /** When it would start and end (soak included), on the fleet's clock; p90. */
  startsAt: number;
  endsAt: number;
  window?: { text: string; fits: boolean; openings: number; longestMs?: number };
  /** Clusters with no prediction of their own, timed as the longest of the others. */
  borrowed: string[];
}

export interface FleetTime {
  stages: StageTime[];
  /** Every stage one after the other, soaks included, from `now`: p50 and p90. */
  p50Ms: number;
  p90Ms: number;
  endsAt: number;
  /** A stage whose clusters cannot fit any opening of its window: named, with the longest opening. */
  never?: { stage: string; cluster: string; longestMs: number };
}

interface Lane {
  durations: Map<string, { p50: number; p90: number }>;
}

/** One stage laid out from `start`, with `pick` choosing p50 or p90 as each cluster's duration; returns its end and the openings used. */
function layout(s: StagePlanInput, lane: Lane, start: number, pick: 'p50' | 'p90', firstDone: boolean, window: RestartWindow | undefined): { end: number; openings: Set<number>; never?: { cluster: string; longestMs: number } } {
  const ends: number[] = [];
  const openings = new Set<number>();
  let now = start;
  let done = firstDone;
  for (const name of s.clusters) {
    const d = lane.durations.get(name)!;
    const cap = done ? s.maxConcurrency : 1;
    while (ends.length >= cap) {
      ends.sort((a, b) => a - b);
      now = Math.max(now, ends.shift()!);
      done = true;
    }
    let at = now;
    if (window) {
      const fit = fitInWindow(window, now, d.p90);
      if (fit.kind === 'never') return { end: now, openings, never: { cluster: name, longestMs: fit.longestMs } };
      if (fit.kind === 'wait') at = fit.at;
      // An opening is known by when it closes.
      openings.add(fit.kind === 'now' ? fit.closesAt : (closesAt(window, fit.at) ?? fit.at));
    }
    ends.push(at + d[pick]);
  }
  return { end: Math.max(start, ...ends), openings };
}

export function fleetTime(stages: readonly StagePlanInput[], predictions: readonly ClusterPrediction[], now: number): FleetTime {
  const own = new Map(predictions.map((p) => [p.name, p]));
  const longest = [...predictions].sort((a, b) => b.p90Ms - a.p90Ms)[0];
  const lane: Lane = { durations: new Map() };
  const out: StageTime[] = [];
  let p50At = now;
  let p90At = now;
  let never: FleetTime['never'];
  for (const [i, s] of stages.entries()) {
    const borrowed: string[] = [];
    for (const name of s.clusters) {
      const p = own.get(name);
      if (p) lane.durations.set(name, { p50: p.p50Ms, p90: p.p90Ms });
      else {
        borrowed.push(name);
        lane.durations.set(name, { p50: longest?.p50Ms ?? 0, p90: longest?.p90Ms ?? 0 });
      }
    }
    const parsed = s.window ? stageWindow(s.window) : undefined;
    const window = typeof parsed === 'object' ? parsed : undefined;
    // The fleet's first cluster runs alone until it has finished: only the first stage with clusters is before that.
    const firstDone = stages.slice(0, i).some((x) => x.clusters.length > 0);
    const p90 = layout(s, lane, p90At, 'p90', firstDone, window);
    // A window no opening of which holds a cluster is the same for p50 (the fit is judged on the p90): not scanned twice.
    const p50 = p90.never ? p90 : layout(s, lane, p50At, 'p50', firstDone, window);
    if (p90.never && !never) never = { stage: s.name, ...p90.never };
    const soakMs = s.soakMs ?? 0;
    out.push({
      name: s.name,
      clusters: s.clusters.length,
      maxConcurrency: s.maxConcurrency,
      p50Ms: p50.end - p50At,
      p90Ms: p90.end - p90At,
      soakMs,
      startsAt: p90At,
      endsAt: p90.end + soakMs,
      ...(window ? { window: { text: window.text, fits: !p90.never, openings: p90.openings.size, ...(p90.never ? { longestMs: p90.never.longestMs } : {}) } } : {}),
      borrowed,
    });
    p50At = p50.end + soakMs;
    p90At = p90.end + soakMs;
  }
  return { stages: out, p50Ms: p50At - now, p90Ms: p90At - now, endsAt: p90At, ...(never ? { never } : {}) };
}
