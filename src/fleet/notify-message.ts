/**
 * The fleet's notification messages, built from its events and state: a stage started (how many
 * clusters, how many at a time), a stage waits for its approval (and how to give it), a stage ended
 * (its clusters by fate), the fleet ended (every cluster by fate, the exit code, what to do next).
 * The same small JSON object a session's notification is (`text` one readable paragraph, for Slack
 * or Teams), with `fleet` and `stage` instead of a session. Names and counts only. Pure.
 */
import { plainText } from '../notify/message.js';
import { fateWords } from './report-build.js';
import { failureLimit } from './state.js';
import type { FleetState } from './types.js';

export type FleetNotifyEvent = 'stage.started' | 'stage.approval' | 'stage.ended' | 'fleet.done' | 'fleet.failed' | 'fleet.stopped';

export interface FleetNotifyMessage {
  event: FleetNotifyEvent;
  fleet: string;
  target: string;
  stage?: string;
  /** The stage's (or, at the end, the fleet's) clusters by fate. */
  counts?: Record<string, number>;
  /** For `stage.ended`: done, failed or stopped. */
  outcome?: string;
  /** For the fleet's end: the exit code the fleet command ends with. */
  exitCode?: number;
  text: string;
  at: string;
}

/** What a coordinator event carries that a message needs. */
export interface FleetEventLike {
  type: string;
  stage?: unknown;
  gate?: unknown;
  outcome?: unknown;
  message?: unknown;
}

function countsOf(state: FleetState, stage?: string): Record<string, number> {
  const clusters = state.clusters.filter((c) => stage === undefined || c.stage === stage);
  const counts: Record<string, number> = {};
  for (const c of clusters) counts[fateWords[c.status]] = (counts[fateWords[c.status]] ?? 0) + 1;
  if (stage === undefined && state.leftOut.length) counts[fateWords['left-out']] = state.leftOut.length;
  return counts;
}

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([fate, n]) => `${n} ${fate}`)
    .join(', ');

/** The message for one coordinator event, or undefined for the events that are not notified (each cluster's start and end). */
export function fleetEventMessage(e: FleetEventLike, state: FleetState, how: { interactive: boolean; resume: string }, at = new Date().toISOString()): FleetNotifyMessage | undefined {
  const stageName = typeof e.stage === 'string' ? e.stage : undefined;
  const stage = state.stages.find((s) => s.name === stageName);
  const who = `upgrade-pilot fleet ${state.fleet} (to ${state.target})`;
  const base = { fleet: state.fleet, target: state.target, at };
  if (e.type === 'stage.started' && stage) {
    const limit = failureLimit(stage.failureThreshold, stage.clusters.length);
    return { ...base, event: 'stage.started', stage: stage.name, counts: countsOf(state, stage.name), text: plainText(`${who}: stage ${stage.name} started: ${stage.clusters.length} cluster(s), ${stage.maxConcurrency} at a time, stops at ${limit} failure(s).`) };
  }
  if (e.type === 'gate' && e.gate === 'stage' && stage) {
    const answer = how.interactive ? 'Answer it in the terminal running the fleet.' : `Approve it with: ${how.resume} --approve stage`;
    return { ...base, event: 'stage.approval', stage: stage.name, text: plainText(`${who}: stage ${stage.name} (${stage.clusters.length} cluster(s)) waits for your approval before it starts. ${answer}`) };
  }
  if (e.type === 'stage.ended' && stage) {
    const outcome = typeof e.outcome === 'string' ? e.outcome : stage.status;
    const counts = countsOf(state, stage.name);
    const note = outcome !== 'done' && typeof e.message === 'string' ? ` ${e.message.split('\n')[0]}.` : '';
    return { ...base, event: 'stage.ended', stage: stage.name, outcome, counts, text: plainText(`${who}: stage ${stage.name} ${outcome === 'done' ? 'done' : outcome}: ${countsText(counts)}.${note}`) };
  }
  return undefined;
}

/** The fleet command ended (every stage done, or stopped at a gate, a failure or Ctrl+C). */
export function fleetEndMessage(state: FleetState, exitCode: number, how: { resume: string; report: string }, at = new Date().toISOString()): FleetNotifyMessage {
  const counts = countsOf(state);
  const event: FleetNotifyEvent = exitCode === 0 ? 'fleet.done' : exitCode === 1 ? 'fleet.failed' : 'fleet.stopped';
  const who = `upgrade-pilot fleet ${state.fleet} (to ${state.target})`;
  const lead = event === 'fleet.done' ? `${who} finished every stage` : event === 'fleet.failed' ? `${who} stopped at a failure` : `${who} stopped`;
  const next = event === 'fleet.done' ? ` Report: ${how.report}` : ` Continue with: ${how.resume} (report: ${how.report})`;
  return { event, fleet: state.fleet, target: state.target, counts, exitCode, at, text: plainText(`${lead}: ${countsText(counts)}.${next}`) };
}
