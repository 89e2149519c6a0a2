/**
 * The `recover` step (spec 9.1.4): list the VMIs carrying the outdated-launcher label, cancel the
 * stuck migrations behind one gate, then restart each VM behind its own gate (Skip focused),
 * waiting after each restart until the VM runs again on the current launcher. Nothing is restarted
 * without a yes for that VM, never a VM that was not running at the baseline, never twice: each
 * restart is journaled (intent, result), and an intent without a result is settled by reading the
 * VM before anything is asked or sent again. Plain mode restarts what the flags approve and stops
 * (exit 3) listing every VM still awaiting approval. A rehearsal shows every gate and records.
 */
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { GateStopError, StepFailedError, StoppedError, type PendingApproval } from '../../errors.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import { cancelStuck } from './cancel-phase.js';
import { migrationsToCancel, type NotOffered } from './candidates.js';
import { keyOf } from './cluster-view.js';
import { LifecycleReader } from './lifecycle.js';
import { notesOf, publish, restartKeys, setRow, skippedThisAttempt, type RecoverDeps } from './recover-context.js';
import { buildOffers, type Offer, type Offers } from './recover-offers.js';
import { restartProgram } from './recover-requests.js';
import type { RecoverOutput, RecoverVmRow } from './recover-types.js';
import { restartOne } from './restart-one.js';
import { restartTimings } from './restart-timing.js';
import { firstFew } from '../../text/first-few.js';
import { recoverCard } from '../cards.js';

/** The cancels that did not take, and why: never reported as cancelled. */
function cancelFailures(deps: RecoverDeps): NonNullable<RecoverOutput['cancelFailed']> {
  const o = deps.cancel?.outcomes;
  if (!o) return [];
  return [
    ...o.abortFailed.map((migration) => ({ migration, why: 'KubeVirt could not abort it (abortStatus Failed): it goes on until its VM is restarted' })),
    ...o.stillAborting.map((migration) => ({ migration, why: 'still aborting when the wait ended' })),
  ];
}

function outputOf(deps: RecoverDeps, notOffered: NotOffered[], cancelled: string[], aborted: boolean): RecoverOutput {
  const rows = [...deps.rows.values()];
  const cancelFailed = cancelFailures(deps);
  const with_ = (...states: RecoverVmRow['state'][]) => rows.filter((r) => states.includes(r.state)).map((r) => r.vm).sort();
  return {
    restarted: with_('restarted', 'not-back'),
    outstanding: with_('skipped', 'outstanding', 'pending', 'asking', 'awaiting-approval'),
    skipped: with_('skipped'),
    wouldRestart: with_('would-restart'),
    cancelled,
    ...(cancelFailed.length ? { cancelFailed } : {}),
    notOffered,
    vms: rows.slice(0, 500),
    baseline: deps.baseline,
    program: deps.program,
    rehearsal: deps.ctx.dryRun,
    aborted,
    timings: restartTimings(notesOf(deps.ctx)),
  };
}

function summaryOf(out: RecoverOutput): string {
  if (out.rehearsal) return `rehearsal: would cancel ${out.cancelled.length} migration(s) and restart ${out.wouldRestart.length} VM(s); nothing was sent${out.outstanding.length ? `; ${out.outstanding.length} would stay outstanding` : ''}`;
  const parts = [`restarted ${out.restarted.length} VM(s)${out.restarted.length ? ` (${firstFew(out.restarted)})` : ''}`];
  if (out.cancelFailed?.length) parts.unshift(`the cancel of ${out.cancelFailed.length} migration(s) did not take (${firstFew(out.cancelFailed.map((f) => f.migration))})`);
  if (out.cancelled.length) parts.unshift(`cancelled ${out.cancelled.length} migration(s)`);
  if (out.outstanding.length) parts.push(`${out.outstanding.length} outstanding on the old launcher (${firstFew(out.outstanding)})`);
  return parts.join('; ');
}

type Turns = { kind: 'done'; pending: PendingApproval[] } | { kind: 'aborted' } | { kind: 'not-back'; offer: Offer };

/** One gate per VM, in order; stops at an abort or a VM that does not come back. */
async function restartEach(deps: RecoverDeps, offers: Offers): Promise<Turns> {
  const { ctx } = deps;
  const pending: PendingApproval[] = [];
  for (const [i, o] of offers.all.entries()) {
    const k = restartKeys(ctx.step.id, o.c.vm);
    const journaled = ctx.state().mutations[k.send] !== undefined || skippedThisAttempt(ctx, k.skipped);
    const refused = offers.notOffered.find((n) => n.vm === o.c.vm)?.reason;
    // Offered by an earlier attempt but not now: its journal is honoured, it is never asked about again.
    const notOfferedNow = offers.offeredNow.has(o.c.vm) ? undefined : (refused ?? 'no longer on the old launcher');
    if (notOfferedNow && !journaled) {
      setRow(deps, o.c.vm, refused ? 'outstanding' : 'up-to-date', notOfferedNow);
      continue;
    }
    const turn = await restartOne(deps, o.c, { why: deps.rows.get(o.c.vm)?.why ?? o.why, position: { index: i + 1, total: offers.all.length }, ...(notOfferedNow ? { notOfferedNow } : {}) });
    publish(deps);
    if (turn.pending) pending.push(turn.pending);
    if (turn.result === 'aborted') return { kind: 'aborted' };
    if (turn.result === 'not-back') return { kind: 'not-back', offer: o };
  }
  return { kind: 'done', pending };
}

/** Plain mode stopped at the cancel gate: list it and every restart still to be asked, so one resume command approves them all. */
function pendingWithCancel(deps: RecoverDeps, offers: Offers, cancel: PendingApproval): GateStopError {
  const { ctx } = deps;
  const askable = offers.all.filter((o) => offers.offeredNow.has(o.c.vm) && !ctx.state().mutations[restartKeys(ctx.step.id, o.c.vm).send] && !skippedThisAttempt(ctx, restartKeys(ctx.step.id, o.c.vm).skipped));
  return new GateStopError([cancel, ...askable.map((o) => ({ gate: 'restart', title: `restart VM ${o.c.vm}`, flag: `--approve-restart ${o.c.vm}` }))], ctx.sessionId);
}

function aborted(deps: RecoverDeps, notOffered: NotOffered[], cancelled: string[]) {
  for (const row of deps.rows.values()) if (row.state === 'pending' || row.state === 'asking') setRow(deps, row.vm, 'outstanding', 'not asked: recovery aborted');
  publish(deps);
  const out = outputOf(deps, notOffered, cancelled, true);
  return failed(
    new StoppedError(
      `Recovery aborted by the operator: nothing more was sent (${out.restarted.length} VM(s) restarted before).`,
      { next: `${out.outstanding.length} VM(s) stay on the old launcher, listed as outstanding. Resume to continue recovery: each is asked again, the skipped ones too.` },
      'stopped.recovery',
    ),
    out,
  );
}

function notBack(deps: RecoverDeps, o: Offer, notOffered: NotOffered[], cancelled: string[]) {
  const row = deps.rows.get(o.c.vm);
  const { namespace: ns, name } = o.c;
  return failed(
    new StepFailedError('recover.not-back', `VM ${o.c.vm} was restarted but does not run on the current launcher ${row?.note ?? ''}.`, {
      hint: `Look at it (kubectl get vm,vmi -n ${ns} ${name}; kubectl describe vmi -n ${ns} ${name}), fix what keeps it from starting, then resume: the restart is not sent again; recovery waits for it, then goes on.`,
    }),
    outputOf(deps, notOffered, cancelled, false),
  );
}

export const recoverStep = defineStepKind({
  ...recoverCard,
  async run(ctx) {
    const reader = ctx.effects.kube.reader(ctx.signal);
    const [outdated, migrations, vms] = await Promise.all([reader.vmis({ labelSelector: OUTDATED_LABEL }), reader.migrations(), reader.vms()]);
    const now = ctx.effects.clock.now();
    const offers = buildOffers(ctx, { outdated, migrations, vms }, now);
    const deps: RecoverDeps = { ctx, lifecycle: new LifecycleReader(ctx.effects.kube.kubectl, ctx.signal), program: restartProgram(ctx.params.restartWith), baseline: offers.baseline.source, rows: new Map() };
    for (const o of offers.all) deps.rows.set(o.c.vm, { vm: o.c.vm, node: o.c.node, why: o.why, state: 'pending' });
    for (const n of offers.refusedOnly) deps.rows.set(n.vm, { vm: n.vm, node: outdated.find((v) => keyOf(v) === n.vm)?.status?.nodeName ?? '?', why: n.reason, state: 'outstanding', note: n.reason });

    const stuck = migrationsToCancel(migrations, outdated, now);
    if (offers.all.length === 0 && offers.refusedOnly.length === 0 && stuck.length === 0) {
      return skipped('no VMI carries the outdated-launcher label and no migration is stuck: nothing to recover', outputOf(deps, [], [], false));
    }
    publish(deps);

    const cancel = await cancelStuck(deps, stuck);
    const cancelled = cancel.kind === 'cancelled' ? cancel.outcomes.cancelled : [];
    if (cancel.kind === 'pending') throw pendingWithCancel(deps, offers, cancel.pending);
    if (cancel.kind === 'aborted') return aborted(deps, offers.notOffered, cancelled);

    const turns = await restartEach(deps, offers);
    if (turns.kind === 'aborted') return aborted(deps, offers.notOffered, cancelled);
    if (turns.kind === 'not-back') return notBack(deps, turns.offer, offers.notOffered, cancelled);
    if (turns.pending.length) throw new GateStopError(turns.pending, ctx.sessionId);
    const out = outputOf(deps, offers.notOffered, cancelled, false);
    return succeeded(out, summaryOf(out));
  },
});
