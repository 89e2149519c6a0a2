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
  /** Since the hop was sent. */
  waitedMs: number;
  /** Since the watch first saw KubeVirt report the hop's version (0 when it has not). */
  deployedForMs: number;
  rollout?: { p50Seconds: number; p90Seconds: number };
}

/**
 * KubeVirt's workload updater starts moving VMIs soon after virt-operator reports the new version
 * (it re-runs every 30 seconds); a few minutes without a migration is not how it behaves.
 */
export const updaterStart = { p50Seconds: 30, p90Seconds: 300 };

const bare = (v: string) => v.replace(/^v/, '');

/** The wait, or nothing when the watch is not waiting (migrations move, or nothing is left to move). */
export function migrationWait(input: WaitInput): MigrationWait | undefined {
  const kv = input.kubevirt;
  if (!kv.found || input.inFlight > 0) return undefined;
  const [namespace, name] = kv.ref.split('/') as [string, string];
  const want = kv.expected ?? kv.target;
  const stop = 'To stop safely: q (Ctrl+C in plain mode) saves the session, nothing half-sent; KubeVirt goes on by itself (the rollout, then the migrations); upgrade-pilot resume watches again.';
  const rolloutChecks = [`kubectl -n ${namespace} rollout status deploy/virt-operator`, `kubectl -n ${namespace} get kubevirt ${name} -o yaml   (status.conditions: why Progressing, Degraded)`, `kubectl -n ${namespace} get pods   (Pending, CrashLoopBackOff, ImagePullBackOff?)`];
  const rollout = (what: WaitingFor, text: string): MigrationWait => ({
    for: what,
    text,
    waitedMs: input.waitedMs,
    since: 'the hop was sent',
    ...(input.rollout ? { predicted: input.rollout, against: "the plan's pack rollout" } : {}),
    overdue: input.rollout !== undefined && input.waitedMs > input.rollout.p90Seconds * 1000,
    checks: rolloutChecks,
    stop,
  });
  if (!kv.settled && kv.expected && kv.target && bare(kv.target) !== bare(kv.expected)) {
    return rollout('kubevirt-operator', `waiting for KubeVirt to report ${want}: the new virt-operator has not taken over yet (KubeVirt's target is still ${kv.target}, ${kv.phase || 'no phase'}); Palette applies the pack first`);
  }
  if (!kv.settled) {
    return rollout('kubevirt-rollout', `waiting for KubeVirt to report ${want}: virt-operator is rolling out (it reports ${kv.observed || 'no version'}, ${kv.phase || 'no phase'}${kv.conditions.length ? `; ${kv.conditions.join(', ')}` : ''})`);
  }
  if (input.movable === 0) return undefined;
  return {
    for: 'workload-updater',
    text: `waiting for KubeVirt's workload updater to start moving ${input.movable} outdated VMI(s) (KubeVirt ${kv.observed} is deployed)`,
    waitedMs: input.deployedForMs,
    since: `KubeVirt reported ${kv.observed}`,
    predicted: updaterStart,
    against: 'the workload updater usually starts',
    overdue: input.deployedForMs > updaterStart.p90Seconds * 1000,
    checks: [
      `kubectl -n ${namespace} get kubevirt ${name} -o yaml   (spec.workloadUpdateStrategy; status.outdatedVirtualMachineInstanceWorkloads)`,
      'kubectl get vmim -A   (migrations created and failing at once?)',
      `kubectl -n ${namespace} logs -l kubevirt.io=virt-controller --tail=200   (the workload updater's messages)`,
    ],
    stop,
  };
}

/** How long, against what is expected ("3m05s lab time since the hop was sent; the plan's pack rollout: p50 10m, p90 20m"). */
export function waitedLine(w: MigrationWait, labTime = false): string {
  const waited = `${formatDuration(w.waitedMs)}${labTime ? ' lab time' : ''} since ${w.since}`;
  const against = w.predicted ? `; ${w.against}: p50 ${roughDuration(w.predicted.p50Seconds)}, p90 ${roughDuration(w.predicted.p90Seconds)}${w.overdue ? ': PAST its p90' : ''}` : '';
  return `${waited}${against}`;
}

/** The warning said once when the wait passes the p90: what to check, how to stop. */
export function overdueWarning(w: MigrationWait): string {
  const predicted = w.predicted ? ` (${w.against}: ${durationRange(w.predicted.p50Seconds, w.predicted.p90Seconds)})` : '';
  return `Still ${w.text} after ${roughDuration(w.waitedMs / 1000)} since ${w.since}, past the p90${predicted}. Check: ${w.checks.join('; ')}. ${w.stop}`;
}

/** The wait at the head of the watch's headline: whole minutes, so plain mode prints it at most once a minute. */
export function waitHeadline(w: MigrationWait): string {
  const against = w.predicted ? `, ${w.against} p50 ${roughDuration(w.predicted.p50Seconds)}, p90 ${roughDuration(w.predicted.p90Seconds)}${w.overdue ? ': PAST its p90' : ''}` : '';
  return `${w.text} (${roughDuration(w.waitedMs / 1000)} since ${w.since}${against})`;
}
