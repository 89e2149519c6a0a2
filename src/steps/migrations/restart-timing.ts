/**
 * How long a restarted VM was down, measured with the cluster's own timestamps: from the moment its
 * old VMI began shutting down (its deletionTimestamp) to the moment the new VMI entered Running (its
 * phase transition). When the wait did not catch the old VMI shutting down, the request's time stands
 * for the start; when the new VMI lists no Running transition, the time it was seen running stands
 * for the end. Pure: the recovery step feeds it what it read.
 */
import { clockTimeOf, type Clock } from '../../engine/clock.js';
import { parseTime } from './cluster-view.js';
import { restartKeys, type RecoverDeps } from './recover-context.js';
import type { RestartTiming } from './types.js';

export type { RestartTiming } from './types.js';

export interface RestartObservation {
  vm: string;
  /** When the restart request was accepted, in the clock's time. */
  requestAt: number;
  /** The old VMI's deletionTimestamp, when a read caught it shutting down. */
  deletionSeen?: string;
  /** The new VMI's Running transition, when it lists one. */
  runningTransition?: string;
  /** When the VM was seen running again (clock time); absent if it did not come back. */
  seenRunningAt?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function measureRestart(o: RestartObservation, clock: Pick<Clock, 'simulated'>): RestartTiming {
  const deleted = parseTime(o.deletionSeen);
  // A deletion stamp is whole seconds; one before the request belongs to something else.
  const fromDeletion = deleted !== undefined && deleted >= Math.floor(o.requestAt / 1000) * 1000;
  const down = fromDeletion ? deleted : o.requestAt;
  const transition = parseTime(o.runningTransition);
  const running = transition !== undefined && transition >= Math.floor(down / 1000) * 1000 ? transition : o.seenRunningAt;
  const runningFrom = running === undefined ? undefined : running === transition ? 'phase-transition' : 'observed';
  const toWall = clock.simulated?.toWall;
  return {
    vm: o.vm,
    downAt: iso(down),
    downFrom: fromDeletion ? 'vmi-deletion' : 'request',
    ...(running !== undefined ? { runningAt: iso(running), runningFrom, downtimeSeconds: Math.max(0, Math.round((running - down) / 100) / 10) } : {}),
    ...(toWall ? { wall: { downAt: iso(toWall(down)), ...(running !== undefined ? { runningAt: iso(toWall(running)) } : {}) } } : {}),
  };
}

/** What the wait after a restart saw. */
export interface BackSeen {
  back: boolean;
  state: string;
  /** The old VMI's deletionTimestamp, if a read caught it shutting down. */
  deletionSeen?: string;
  /** The new VMI's Running transition. */
  runningTransition?: string;
  /** When the wait ended (clock time). */
  seenAt: number;
}

/** Journals how long the VM was down; a later attempt's wait (after a resume) replaces it. */
export function noteRestartTiming(deps: RecoverDeps, vm: string, seen: BackSeen): void {
  const { ctx } = deps;
  const k = restartKeys(ctx.step.id, vm);
  const sent = ctx.state().mutations[k.send];
  // The restart took effect between the intent and the result; the result (the server accepted it) is
  // the closer bound, which matters against the lab's accelerated clock (kubectl's start-up is minutes there).
  const requestAt = sent ? clockTimeOf(ctx.effects.clock, Date.parse(sent.resultAt ?? sent.intentAt)) : seen.seenAt;
  const observation: RestartObservation = {
    vm,
    requestAt,
    ...(seen.deletionSeen ? { deletionSeen: seen.deletionSeen } : {}),
    ...(seen.runningTransition ? { runningTransition: seen.runningTransition } : {}),
    ...(seen.back ? { seenRunningAt: seen.seenAt } : {}),
  };
  ctx.note(k.timing, measureRestart(observation, ctx.effects.clock));
}

/** Every restart's timing journaled by a recovery step (earlier attempts included), by VM. */
export function restartTimings(notes: Record<string, unknown>): RestartTiming[] {
  return Object.entries(notes)
    .filter(([key]) => key.startsWith('timing/'))
    .map(([, value]) => value as RestartTiming)
    .sort((a, b) => a.vm.localeCompare(b.vm));
}
