/**
 * One VM through recovery: settle what an earlier attempt left half-done, ask at its own gate,
 * look again before sending (the decision may have taken minutes), restart it once through the
 * journal, then wait (bounded) until it runs again on the current launcher.
 */
import { approvalFlag } from '../../engine/gate.js';
import type { PendingApproval } from '../../errors.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import type { RestartCandidate } from './candidates.js';
import { backOnCurrentLauncher, identityOf, restartTookEffect, runningSince, type LifecycleReader, type VmiIdentity, type VmiLifecycle } from './lifecycle.js';
import { publish, notesOf, restartKeys, setRow, skippedThisAttempt, type RecoverDeps } from './recover-context.js';
import { restartRequest } from './recover-requests.js';
import { restartGate } from './restart-gate.js';
import { ownerVerdict } from './restart-owner.js';
import { latestPlan } from '../contracts.js';
import { noteRestartTiming, type BackSeen } from './restart-timing.js';
import { formatDuration } from '../../text/duration.js';

export type RestartResult = 'restarted' | 'would-restart' | 'skipped' | 'aborted' | 'pending' | 'outstanding' | 'up-to-date' | 'not-back';

export async function settleRestart(lifecycle: LifecycleReader, c: RestartCandidate, before: VmiIdentity | undefined): Promise<'done' | 'not-done'> {
  const [vmi, vm] = await Promise.all([lifecycle.vmi(c.namespace, c.name), lifecycle.vm(c.namespace, c.name)]);
  return restartTookEffect(before, vmi, vm).done ? 'done' : 'not-done';
}

export async function waitUntilBack(deps: RecoverDeps, c: RestartCandidate, before: VmiIdentity | undefined): Promise<BackSeen> {
  const { clock } = deps.ctx.effects;
  const started = clock.now();
  let deletionSeen: string | undefined;
  for (;;) {
    const vmi = await deps.lifecycle.vmi(c.namespace, c.name);
    // The old VMI shutting down marks when the downtime began (the report's measure).
    deletionSeen ??= vmi?.metadata.deletionTimestamp;
    const seen = backOnCurrentLauncher(before, vmi);
    const now = clock.now();
    const elapsedMs = now - started;
    if (seen.back || elapsedMs >= deps.ctx.params.restartWait) {
      delete deps.waiting;
      const running = seen.back ? runningSince(vmi) : undefined;
      return { ...seen, seenAt: now, ...(deletionSeen ? { deletionSeen } : {}), ...(running ? { runningTransition: running } : {}) };
    }
    deps.waiting = { vm: c.vm, state: seen.state, elapsedMs, limitMs: deps.ctx.params.restartWait };
    publish(deps);
    await clock.sleep(Math.min(deps.ctx.params.interval, deps.ctx.params.restartWait - elapsedMs), deps.ctx.signal);
  }
}

async function afterSend(deps: RecoverDeps, c: RestartCandidate, before: VmiIdentity | undefined): Promise<RestartResult> {
  setRow(deps, c.vm, 'restarting');
  publish(deps);
  const seen = await waitUntilBack(deps, c, before);
  noteRestartTiming(deps, c.vm, seen);
  if (seen.back) {
    setRow(deps, c.vm, 'restarted', seen.state);
    return 'restarted';
  }
  setRow(deps, c.vm, 'not-back', `after ${formatDuration(deps.ctx.params.restartWait)}: ${seen.state}`);
  return 'not-back';
}

export interface RestartStep {
  result: RestartResult;
  pending?: PendingApproval;
}

export interface RestartTurn {
  why: string;
  position: { index: number; total: number };
  /** Set when the VM is not offered now (an earlier attempt offered it): only its journal is honoured, it is not asked about. */
  notOfferedNow?: string;
}

type Keys = ReturnType<typeof restartKeys>;

/** What earlier attempts journaled for this VM decides first: a restart sent (or half-sent), or a skip. */
async function fromJournal(deps: RecoverDeps, c: RestartCandidate, k: Keys, before: VmiIdentity | undefined): Promise<RestartStep | undefined> {
  const { ctx, lifecycle } = deps;
  const record = ctx.state().mutations[k.send];
  if (record?.outcome === 'recorded') {
    setRow(deps, c.vm, 'would-restart');
    return { result: 'would-restart' };
  }
  if (record?.outcome && record.outcome !== 'failed') return { result: await afterSend(deps, c, before) };
  if (record && !ctx.dryRun && (await settleRestart(lifecycle, c, before)) === 'done') {
    // An earlier attempt sent it and stopped before journaling the result: record it, never send it again.
    await ctx.mutate({ key: k.send, request: restartRequest(c.namespace, c.name, deps.program), approvedBy: k.gate, settle: () => settleRestart(lifecycle, c, before) });
    return { result: await afterSend(deps, c, before) };
  }
  if (skippedThisAttempt(ctx, k.skipped)) {
    setRow(deps, c.vm, 'skipped', 'skipped earlier in this attempt');
    return { result: 'skipped' };
  }
  return undefined;
}

const notRunning = (vmi: VmiLifecycle | undefined): string | undefined => {
  if (!vmi) return 'no VMI';
  if (vmi.metadata.deletionTimestamp) return 'shutting down';
  const phase = vmi.status?.phase ?? 'unknown';
  return phase === 'Running' ? undefined : phase;
};

/** Approved: look again (the decision may have taken minutes), then restart only what still runs, outdated, as the same VMI. */
async function send(deps: RecoverDeps, c: RestartCandidate, k: Keys): Promise<RestartStep> {
  const { ctx, lifecycle } = deps;
  const request = restartRequest(c.namespace, c.name, deps.program);
  if (ctx.dryRun) {
    await ctx.mutate({ key: k.send, request, approvedBy: k.gate });
    setRow(deps, c.vm, 'would-restart');
    return { result: 'would-restart' };
  }
  const vmi = await lifecycle.vmi(c.namespace, c.name);
  const stopped = notRunning(vmi);
  if (stopped || !vmi) {
    setRow(deps, c.vm, 'outstanding', `no longer running (${stopped ?? 'no VMI'}) when approved: not restarted`);
    return { result: 'outstanding' };
  }
  if (vmi.metadata.labels?.[OUTDATED_LABEL] === undefined) {
    setRow(deps, c.vm, 'up-to-date', 'already on the current launcher when approved: no restart needed');
    return { result: 'up-to-date' };
  }
  const identity = identityOf(vmi);
  // Journaled before the intent, so a resume can tell the old VMI from the new one.
  ctx.note(k.before, identity);
  setRow(deps, c.vm, 'restarting');
  publish(deps);
  await ctx.mutate({ key: k.send, request, approvedBy: k.gate, settle: () => settleRestart(lifecycle, c, identity) });
  return { result: await afterSend(deps, c, identity) };
}

export async function restartOne(deps: RecoverDeps, c: RestartCandidate, turn: RestartTurn): Promise<RestartStep> {
  const { ctx } = deps;
  const k = restartKeys(ctx.step.id, c.vm, deps.scope);
  const journaled = await fromJournal(deps, c, k, notesOf(ctx)[k.before] as VmiIdentity | undefined);
  if (journaled) return journaled;
  if (turn.notOfferedNow) {
    setRow(deps, c.vm, 'outstanding', turn.notOfferedNow);
    return { result: 'outstanding' };
  }

  const planned = latestPlan(ctx)?.impact?.find((i) => i.vm === c.vm);
  const owner = ownerVerdict(planned, ctx.effects.clock.now());
  const predicted = planned?.fate === 'restart' ? planned.predicted?.durationSeconds : undefined;
  const ask = restartGate(c, { key: k.gate, why: turn.why, confirmByName: ctx.params.confirmByName, restartWaitMs: ctx.params.restartWait, baseline: deps.baseline, position: turn.position, ...(owner ? { owner } : {}), ...(predicted ? { predicted } : {}) });
  setRow(deps, c.vm, 'asking');
  publish(deps);
  const decision = await ctx.confirm(ask, { deferIfPending: true });
  if (decision.choice === 'pending') {
    setRow(deps, c.vm, 'awaiting-approval');
    return { result: 'pending', pending: { gate: 'restart', title: `restart VM ${c.vm}${owner?.outside ? ` (${owner.outside})` : ''}`, flag: approvalFlag(ask) } };
  }
  if (decision.choice === 'abort') return { result: 'aborted' };
  if (decision.choice === 'skip') {
    ctx.note(k.skipped, { at: decision.at, by: decision.by, attempt: ctx.step.attempts });
    setRow(deps, c.vm, 'skipped');
    return { result: 'skipped' };
  }
  return send(deps, c, k);
}
