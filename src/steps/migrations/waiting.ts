/**
 * What the migration watch is waiting for, in words (pure). After the packs are Ready the watch can
 * sit for minutes with nothing in flight: KubeVirt's workload updater moves nothing until
 * virt-operator reports the hop's version deployed. The watch says which of these it waits for,
 * how long it has waited since the hop was sent against what the plan predicted for that part,
 * and - once past the plan's pessimistic bound - what to look at and how to stop without harm.
 */
import { durationRange, formatDuration, roughDuration } from '../../text/duration.js';
import type { KubevirtProgress, MigrationWait, WaitingFor } from './monitor-types.js';

export interface WaitInput {
  kubevirt: KubevirtProgress;
  /** Outdated VMIs the workload updater will move, and migrations in flight. */
  movable: number;
  inFlight: number;
  waitedMs: number;
  rollout?: { p50Seconds: number; p90Seconds: number };
}

const bare = (v: string) => v.replace(/^v/, '');

/** The wait, or nothing when the watch is not waiting (migrations move, or nothing is left to move). */
export function migrationWait(input: WaitInput): MigrationWait | undefined {
  const kv = input.kubevirt;
  if (!kv.found || input.inFlight > 0) return undefined;
  const [namespace, name] = kv.ref.split('/') as [string, string];
  const want = kv.expected ?? kv.target;
  let what: WaitingFor;
  let text: string;
  if (!kv.settled && kv.expected && kv.target && bare(kv.target) !== bare(kv.expected)) {
    what = 'kubevirt-operator';
    text = `waiting for KubeVirt to report ${want}: the new virt-operator has not taken over yet (KubeVirt's target is still ${kv.target}, ${kv.phase || 'no phase'}); Palette applies the pack first`;
  } else if (!kv.settled) {
    what = 'kubevirt-rollout';
    text = `waiting for KubeVirt to report ${want}: virt-operator is rolling out (it reports ${kv.observed || 'no version'}, ${kv.phase || 'no phase'}${kv.conditions.length ? `; ${kv.conditions.join(', ')}` : ''})`;
  } else if (input.movable > 0) {
    what = 'workload-updater';
    text = `waiting for KubeVirt's workload updater to start moving ${input.movable} outdated VMI(s) (KubeVirt ${kv.observed} is deployed)`;
  } else {
    return undefined;
  }
  const overdue = input.rollout !== undefined && input.waitedMs > input.rollout.p90Seconds * 1000;
  return {
    for: what,
    text,
    waitedMs: input.waitedMs,
    ...(input.rollout ? { predicted: input.rollout } : {}),
    overdue,
    checks: [`kubectl -n ${namespace} rollout status deploy/virt-operator`, `kubectl -n ${namespace} get kubevirt ${name} -o yaml   (status.conditions: why Progressing, Degraded)`, `kubectl -n ${namespace} get pods   (Pending, CrashLoopBackOff, ImagePullBackOff?)`],
    stop: 'To stop safely: q (Ctrl+C in plain mode) saves the session, nothing half-sent; KubeVirt goes on by itself (the rollout, then the migrations); upgrade-pilot resume watches again.',
  };
}

/** How long, against the plan ("3m05s lab time since the hop was sent; the plan's pack rollout: p50 10m, p90 20m"). */
export function waitedLine(w: MigrationWait, labTime = false): string {
  const waited = `${formatDuration(w.waitedMs)}${labTime ? ' lab time' : ''} since the hop was sent`;
  const against = w.predicted ? `; the plan's pack rollout: p50 ${roughDuration(w.predicted.p50Seconds)}, p90 ${roughDuration(w.predicted.p90Seconds)}${w.overdue ? ': PAST its p90' : ''}` : '';
  return `${waited}${against}`;
}

/** The warning said once when the wait passes the plan's p90: what to check, how to stop. */
export function overdueWarning(w: MigrationWait): string {
  const predicted = w.predicted ? ` (the plan's pack rollout: ${durationRange(w.predicted.p50Seconds, w.predicted.p90Seconds)})` : '';
  return `Still ${w.text.replace(/^waiting/, 'waiting')} after ${roughDuration(w.waitedMs / 1000)}, past the plan's p90${predicted}. Check: ${w.checks.join('; ')}. ${w.stop}`;
}

/** The wait at the head of the watch's headline: whole minutes, so plain mode prints it at most once a minute. */
export function waitHeadline(w: MigrationWait): string {
  const against = w.predicted ? `, the plan's pack rollout p50 ${roughDuration(w.predicted.p50Seconds)}, p90 ${roughDuration(w.predicted.p90Seconds)}${w.overdue ? ': PAST its p90' : ''}` : '';
  return `${w.text} (${roughDuration(w.waitedMs / 1000)} since the hop was sent${against})`;
}
