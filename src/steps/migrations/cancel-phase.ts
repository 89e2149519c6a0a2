/**
 * Cancelling the stuck migrations: one gate listing them all, then one journaled delete each, then
 * a bounded wait (one list call per poll) until each cancel has an outcome. A delete is only the
 * request: KubeVirt's finalizer keeps the migration (with a deletionTimestamp) while it aborts,
 * then it goes. The abort can fail (`abortStatus: Failed`); that migration runs on, which is
 * reported as such, never counted as cancelled (its VM's restart stops it). A migration already
 * cancelled by an earlier attempt is not listed again; one that ended by itself needs no cancel.
 */
import { approvalFlag } from '../../engine/gate.js';
import type { PendingApproval } from '../../errors.js';
import { keyOf } from './cluster-view.js';
import type { StuckMigration } from './candidates.js';
import { isFinal } from './phases.js';
import type { Vmim } from '../../kube/schemas.js';
import { publish, type RecoverDeps } from './recover-context.js';
import type { CancelOutcomes } from './recover-types.js';
import { cancelMigrationRequest } from './recover-requests.js';
import { cancelGate } from './restart-gate.js';
import { formatDuration } from '../../text/duration.js';

export type CancelOutcome = { kind: 'none' | 'left' | 'aborted' } | { kind: 'cancelled'; outcomes: CancelOutcomes } | { kind: 'pending'; pending: PendingApproval };

export const cancelKey = (stepId: string, m: StuckMigration): string => `${stepId}/cancel/${m.key}`;

async function settleCancel(deps: RecoverDeps, m: StuckMigration): Promise<'done' | 'not-done'> {
  const vmim = await deps.lifecycle.migration(m.namespace, m.name);
  return !vmim || vmim.metadata.deletionTimestamp || isFinal(vmim.status?.phase ?? '') ? 'done' : 'not-done';
}

/** Where one cancelled migration stands, from one list read. */
export function cancelProgress(m: Vmim | undefined): 'cancelled' | 'abort-failed' | 'finished' | 'aborting' {
  if (!m) return 'cancelled';
  const phase = m.status?.phase || 'Pending';
  const abort = m.status?.migrationState?.abortStatus;
  if (phase === 'Failed' || abort === 'Succeeded') return 'cancelled';
  if (phase === 'Succeeded') return 'finished';
  if (abort === 'Failed') return 'abort-failed';
  return 'aborting';
}

async function waitForOutcomes(deps: RecoverDeps, cancelled: StuckMigration[]): Promise<CancelOutcomes> {
  const { ctx } = deps;
  const { clock } = ctx.effects;
  const reader = ctx.effects.kube.reader(ctx.signal);
  const started = clock.now();
  for (;;) {
    const byKey = new Map((await reader.migrations()).map((m) => [keyOf(m), m]));
    const out: CancelOutcomes = { cancelled: [], abortFailed: [], finished: [], stillAborting: [] };
    for (const m of cancelled) {
      const p = cancelProgress(byKey.get(m.key));
      (p === 'cancelled' ? out.cancelled : p === 'abort-failed' ? out.abortFailed : p === 'finished' ? out.finished : out.stillAborting).push(m.key);
    }
    const elapsed = clock.now() - started;
    if (out.stillAborting.length === 0 || elapsed >= ctx.params.cancelWait) return out;
    await clock.sleep(Math.min(ctx.params.interval, ctx.params.cancelWait - elapsed), ctx.signal);
  }
}

/** The restart of a VM whose migration's cancel did not take is also what stops that migration: say so at its gate. */
function noteOnRows(deps: RecoverDeps, stuck: StuckMigration[], keys: string[], why: string): void {
  for (const m of stuck.filter((x) => keys.includes(x.key))) {
    const row = deps.rows.get(m.vmi);
    if (row && !row.why.includes(m.key)) row.why = `${row.why} Its migration ${m.key} ${why}: the restart stops it.`;
  }
}

export async function cancelStuck(deps: RecoverDeps, all: StuckMigration[]): Promise<CancelOutcome> {
  const { ctx } = deps;
  // Cancelled by an earlier attempt and still there (held while aborting, or its abort failed): not
  // asked about again, but how its cancel ended is read and said again, never assumed.
  const earlier = all.filter((m) => ctx.mutationDone(cancelKey(ctx.step.id, m)));
  const stuck = all.filter((m) => !ctx.mutationDone(cancelKey(ctx.step.id, m)));
  if (stuck.length === 0) return earlier.length && !ctx.dryRun ? readOutcomes(deps, earlier) : { kind: 'none' };
  const gateKey = `${ctx.step.id}/cancel-migrations`;
  deps.cancel = { migrations: stuck.map((m) => m.key), state: 'asking' };
  publish(deps);
  const ask = cancelGate(gateKey, stuck);
  const decision = await ctx.confirm(ask, { deferIfPending: true });
  if (decision.choice === 'pending') {
    deps.cancel.state = 'awaiting-approval';
    return { kind: 'pending', pending: { gate: ask.gate, title: `cancel ${stuck.length} stuck migration(s)`, flag: approvalFlag(ask) } };
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
  if (ctx.dryRun) return { kind: 'cancelled', outcomes: { cancelled: stuck.map((m) => m.key), abortFailed: [], finished: [], stillAborting: [] } };
  return readOutcomes(deps, [...earlier, ...stuck]);
}

/** Waits (bounded) for each cancel's outcome, says the ones that did not take, and publishes them. */
async function readOutcomes(deps: RecoverDeps, cancelled: StuckMigration[]): Promise<CancelOutcome> {
  const { ctx } = deps;
  deps.cancel = { migrations: cancelled.map((m) => m.key), state: 'cancelling' };
  const outcomes = await waitForOutcomes(deps, cancelled);
  const some = (keys: string[]) => `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}`;
  if (outcomes.abortFailed.length) {
    ctx.log(`The cancel of ${outcomes.abortFailed.length} migration(s) failed: KubeVirt could not abort ${some(outcomes.abortFailed)} (abortStatus Failed); they go on until their VM is restarted.`, 'warn');
    noteOnRows(deps, cancelled, outcomes.abortFailed, 'could not be aborted (its cancel failed)');
  }
  if (outcomes.stillAborting.length) {
    ctx.log(`${outcomes.stillAborting.length} cancelled migration(s) still aborting after ${formatDuration(ctx.params.cancelWait)} (${some(outcomes.stillAborting)}); going on: a restart stops them too.`, 'warn');
    noteOnRows(deps, cancelled, outcomes.stillAborting, 'was still aborting');
  }
  deps.cancel.outcomes = outcomes;
  deps.cancel.state = outcomes.abortFailed.length ? 'abort-failed' : outcomes.stillAborting.length ? 'still-aborting' : 'cancelled';
  publish(deps);
  return { kind: 'cancelled', outcomes };
}
