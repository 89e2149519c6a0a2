/**
 * Cancelling the stuck migrations: one gate listing them all, then one journaled delete each, then
 * a bounded wait (one list call per poll) until they are gone. A migration already cancelled by an
 * earlier attempt is not listed again; one that ended by itself needs no cancel.
 */
import { formatDuration } from '../../engine/duration.js';
import { approvalFlag } from '../../engine/gate.js';
import type { PendingApproval } from '../../errors.js';
import { keyOf } from './cluster-view.js';
import type { StuckMigration } from './candidates.js';
import { isFinal } from './phases.js';
import { publish, type RecoverDeps } from './recover-context.js';
import { cancelMigrationRequest } from './recover-requests.js';
import { cancelGate } from './restart-gate.js';

export type CancelOutcome = { kind: 'none' | 'cancelled' | 'left' | 'aborted' } | { kind: 'pending'; pending: PendingApproval };

export const cancelKey = (stepId: string, m: StuckMigration): string => `${stepId}/cancel/${m.key}`;

async function settleCancel(deps: RecoverDeps, m: StuckMigration): Promise<'done' | 'not-done'> {
  const vmim = await deps.lifecycle.migration(m.namespace, m.name);
  return !vmim || vmim.metadata.deletionTimestamp || isFinal(vmim.status?.phase ?? '') ? 'done' : 'not-done';
}

async function waitUntilGone(deps: RecoverDeps, cancelled: StuckMigration[]): Promise<string[]> {
  const { ctx } = deps;
  const { clock } = ctx.effects;
  const reader = ctx.effects.kube.reader(ctx.signal);
  const wanted = new Set(cancelled.map((m) => m.key));
  const started = clock.now();
  for (;;) {
    const left = (await reader.migrations()).filter((m) => wanted.has(keyOf(m)) && !isFinal(m.status?.phase || 'Pending')).map(keyOf);
    const elapsed = clock.now() - started;
    if (left.length === 0 || elapsed >= ctx.params.cancelWait) return left;
    await clock.sleep(Math.min(ctx.params.interval, ctx.params.cancelWait - elapsed), ctx.signal);
  }
}

export async function cancelStuck(deps: RecoverDeps, all: StuckMigration[]): Promise<CancelOutcome> {
  const { ctx } = deps;
  const stuck = all.filter((m) => !ctx.mutationDone(cancelKey(ctx.step.id, m)));
  if (stuck.length === 0) return { kind: 'none' };
  const gateKey = `${ctx.step.id}/cancel-migrations`;
  deps.cancel = { migrations: stuck.map((m) => m.key), state: 'asking' };
  publish(deps);
  const ask = cancelGate(gateKey, stuck);
  const decision = await ctx.confirm(ask, { deferIfPending: true });
  if (decision.choice === 'pending') {
    deps.cancel.state = 'awaiting-approval';
    return { kind: 'pending', pending: { gate: ask.gate, title: `cancel ${stuck.length} stuck migration(s)`, flag: approvalFlag({ ...ask, key: gateKey }) } };
  }
  if (decision.choice === 'abort') return { kind: 'aborted' };
  if (decision.choice === 'skip') {
    deps.cancel.state = 'left-running';
    ctx.log(`Left ${stuck.length} stuck migration(s) running; a VM restart stops its own.`, 'warn');
    return { kind: 'left' };
  }
  deps.cancel.state = ctx.dryRun ? 'would-cancel' : 'cancelling';
  publish(deps);
  for (const m of stuck) {
    await ctx.mutate({ key: cancelKey(ctx.step.id, m), request: cancelMigrationRequest(m.namespace, m.name, m.vmi), approvedBy: gateKey, settle: () => settleCancel(deps, m) });
  }
  if (ctx.dryRun) return { kind: 'cancelled' };
  const left = await waitUntilGone(deps, stuck);
  if (left.length) ctx.log(`${left.length} cancelled migration(s) still in flight after ${formatDuration(ctx.params.cancelWait)} (${left.slice(0, 3).join(', ')}); going on: a restart stops them too.`, 'warn');
  deps.cancel.state = 'cancelled';
  publish(deps);
  return { kind: 'cancelled' };
}
