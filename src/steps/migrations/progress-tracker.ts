/**
 * The monitor's memory between polls: when it last saw progress, how many polls in a row found
 * nothing left to move, and the outdated count over time. Progress means the work shrank (fewer
 * outdated VMIs, another migration succeeded) or KubeVirt moved on; migrations that keep being
 * created and failing are activity, not progress. Pure, so the verdicts are tested with tables.
 */
import type { PollAssessment } from './assess.js';
import type { HistoryPoint, StallReason } from './monitor-types.js';
import { formatDuration } from '../../text/duration.js';

export interface TrackerOptions {
  /** No progress for this long while work remains: stalled. */
  stallAfter: number;
  /** Polls in a row that must find nothing left to move before the monitor calls it done. */
  confirmPolls: number;
  /** Points kept for the outdated-over-time line; older ones are thinned, never dropped wholesale. */
  historyPoints: number;
}

export interface TrackerState {
  startedAt: number;
  lastProgressAt: number;
  fewestOutdated?: number;
  succeeded?: number;
  kubevirtKey?: string;
  settledPolls: number;
  polls: number;
  history: HistoryPoint[];
}

export type Verdict = { kind: 'wait' } | { kind: 'completed' } | { kind: 'stalled'; reasons: StallReason[] };

export const startTracker = (now: number): TrackerState => ({ startedAt: now, lastProgressAt: now, settledPolls: 0, polls: 0, history: [] });

function thin(history: HistoryPoint[], max: number): HistoryPoint[] {
  if (history.length <= max) return history;
  return history.filter((_, i) => i % 2 === 0 || i === history.length - 1);
}

function madeProgress(prev: TrackerState, poll: PollAssessment, kubevirtKey: string): boolean {
  if (prev.polls === 0) return false;
  if (prev.fewestOutdated !== undefined && poll.outdated.length < prev.fewestOutdated) return true;
  if (prev.succeeded !== undefined && poll.succeeded > prev.succeeded) return true;
  return prev.kubevirtKey !== kubevirtKey;
}

export function noProgressReason(poll: PollAssessment, forMs: number): StallReason {
  const moving = poll.outdated.filter((o) => o.willMove).length;
  const parts = [`${poll.outdated.length} VMI(s) still outdated (${moving} KubeVirt should move)`, `${poll.inFlight} migration(s) in flight`];
  if (!poll.kubevirt.settled) parts.push(`KubeVirt ${poll.kubevirt.phase || 'unknown'} at ${poll.kubevirt.observed || '?'}${poll.kubevirt.expected ? ` (expected ${poll.kubevirt.expected})` : ''}`);
  return { kind: 'no-progress', text: `No progress for ${formatDuration(forMs)}: ${parts.join(', ')}` };
}

export function track(prev: TrackerState, poll: PollAssessment, now: number, opts: TrackerOptions): { state: TrackerState; verdict: Verdict } {
  const kubevirtKey = `${poll.kubevirt.phase}|${poll.kubevirt.observed}|${poll.kubevirt.target}`;
  const progressed = madeProgress(prev, poll, kubevirtKey);
  const state: TrackerState = {
    ...prev,
    lastProgressAt: progressed ? now : prev.lastProgressAt,
    fewestOutdated: Math.min(prev.fewestOutdated ?? Infinity, poll.outdated.length),
    succeeded: poll.succeeded,
    kubevirtKey,
    polls: prev.polls + 1,
    settledPolls: poll.settled ? prev.settledPolls + 1 : 0,
    history: thin([...prev.history, { atMs: now - prev.startedAt, outdated: poll.outdated.length, inFlight: poll.inFlight }], opts.historyPoints),
  };
  // Stuck or repeatedly failing VMIs end the watch only once nothing else can still move by itself:
  // one flaky VMI must not stop a rollout that is progressing everywhere else.
  if (poll.stall.length > 0 && poll.movable === 0) return { state, verdict: { kind: 'stalled', reasons: poll.stall } };
  if (poll.settled) return { state, verdict: state.settledPolls >= opts.confirmPolls ? { kind: 'completed' } : { kind: 'wait' } };
  const quiet = now - state.lastProgressAt;
  if (quiet >= opts.stallAfter) return { state, verdict: { kind: 'stalled', reasons: [noProgressReason(poll, quiet), ...poll.stall] } };
  return { state, verdict: { kind: 'wait' } };
}
