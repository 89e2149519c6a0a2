/**
 * One VM through recovery: settle what an earlier attempt left half-done, ask at its own gate,
 * look again before sending (the decision may have taken minutes), restart it once through the
 * journal, then wait (bounded) until it runs again on the current launcher.
 */
import { formatDuration } from '../../engine/duration.js';
import { approvalFlag } from '../../engine/gate.js';
import type { PendingApproval } from '../../errors.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import type { RestartCandidate } from './candidates.js';
import { backOnCurrentLauncher, identityOf, restartTookEffect, type LifecycleReader, type VmiIdentity } from './lifecycle.js';
import { publish, notesOf, restartKeys, setRow, type RecoverDeps } from './recover-context.js';
import { restartRequest } from './recover-requests.js';
import { restartGate } from './restart-gate.js';

export type RestartResult = 'restarted' | 'would-restart' | 'skipped' | 'aborted' | 'pending' | 'outstanding' | 'up-to-date' | 'not-back';

export async function settleRestart(lifecycle: LifecycleReader, c: RestartCandidate, before: VmiIdentity | undefined): Promise<'done' | 'not-done'> {
  const [vmi, vm] = await Promise.all([lifecycle.vmi(c.namespace, c.name), lifecycle.vm(c.namespace, c.name)]);
  return restartTookEffect(before, vmi, vm).done ? 'done' : 'not-done';
}

export async function waitUntilBack(deps: RecoverDeps, c: RestartCandidate, before: VmiIdentity | undefined): Promise<{ back: boolean; state: string }> {
  const { clock } = deps.ctx.effects;
  const started = clock.now();
  for (;;) {
    const seen = backOnCurrentLauncher(before, await deps.lifecycle.vmi(c.namespace, c.name));
    const elapsedMs = clock.now() - started;
    if (seen.back || elapsedMs >= deps.ctx.params.restartWait) {
      delete deps.waiting;
      return seen;
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

export async function restartOne(deps: RecoverDeps, c: RestartCandidate, turn: RestartTurn): Promise<RestartStep> {
  const { why, position } = turn;
  const { ctx, lifecycle } = deps;
  const k = restartKeys(ctx.step.id, c.vm);
  const notes = notesOf(ctx);
  const before = notes[k.before] as VmiIdentity | undefined;
  const request = restartRequest(c.namespace, c.name, deps.program);
  const record = ctx.state().mutations[k.send];

  if (record?.outcome === 'recorded') {
    setRow(deps, c.vm, 'would-restart');
    return { result: 'would-restart' };
  }
  if (record?.outcome && record.outcome !== 'failed') return { result: await afterSend(deps, c, before) };
  if (record && !ctx.dryRun && (await settleRestart(lifecycle, c, before)) === 'done') {
    // An earlier attempt sent it and stopped before journaling the result: record it, never send it again.
    await ctx.mutate({ key: k.send, request, approvedBy: k.gate, settle: () => settleRestart(lifecycle, c, before) });
    return { result: await afterSend(deps, c, before) };
  }
  if (notes[k.skipped]) {
    setRow(deps, c.vm, 'skipped', 'skipped earlier in this session');
    return { result: 'skipped' };
  }
  if (turn.notOfferedNow) {
    setRow(deps, c.vm, 'outstanding', turn.notOfferedNow);
    return { result: 'outstanding' };
  }

  const ask = restartGate(c, { key: k.gate, why, confirmByName: ctx.params.confirmByName, restartWaitMs: ctx.params.restartWait, baseline: deps.baseline, position });
  setRow(deps, c.vm, 'asking');
  publish(deps);
  const decision = await ctx.confirm(ask, { deferIfPending: true });
  if (decision.choice === 'pending') {
    setRow(deps, c.vm, 'awaiting-approval');
    return { result: 'pending', pending: { gate: 'restart', title: `restart VM ${c.vm}`, flag: approvalFlag({ ...ask, key: k.gate }) } };
  }
  if (decision.choice === 'abort') return { result: 'aborted' };
  if (decision.choice === 'skip') {
    ctx.note(k.skipped, { at: decision.at, by: decision.by });
    setRow(deps, c.vm, 'skipped');
    return { result: 'skipped' };
  }

  if (ctx.dryRun) {
    await ctx.mutate({ key: k.send, request, approvedBy: k.gate });
    setRow(deps, c.vm, 'would-restart');
    return { result: 'would-restart' };
  }
  // The decision may have taken minutes: restart only what still runs, outdated, as the same VMI.
  const vmi = await lifecycle.vmi(c.namespace, c.name);
  if (!vmi || vmi.metadata.deletionTimestamp || vmi.status?.phase !== 'Running') {
    setRow(deps, c.vm, 'outstanding', `no longer running (${vmi ? (vmi.metadata.deletionTimestamp ? 'shutting down' : (vmi.status?.phase ?? 'unknown')) : 'no VMI'}) when approved: not restarted`);
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
