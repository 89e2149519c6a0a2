/**
 * Recovery taken up again from verification: the VMs an earlier recovery left on the old launcher
 * (skipped at their gate, or not restarted) are offered again, each behind its own restart gate
 * with Skip focused, through the same code as recovery (journaled, never sent twice, waited for).
 * Offered when the operator asks for it on the verification screen, and when a resumed session
 * verifies again.
 */
import type { StepContext } from '../../engine/context.js';
import { steps } from '../../engine/state.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import type { RecoverContract, SnapshotContract } from '../contracts.js';
import { selectCandidates, type Baseline } from './candidates.js';
import { keyOf } from './cluster-view.js';
import { LifecycleReader } from './lifecycle.js';
import { RecoverParams } from './params.js';
import { publish, restartKeys, setRow, type RecoverDeps } from './recover-context.js';
import { restartProgram } from './recover-requests.js';
import type { RecoverLive, RecoverOutput } from './recover-types.js';
import { restartOne } from './restart-one.js';

export interface ReofferOutcome {
  /** Restarted now (and back on the current launcher, or not: see the checks). */
  restarted: string[];
  /** Skipped again at their gate. */
  skipped: string[];
  /** Still outstanding: not asked (an abort, plain mode without a flag) or no longer restartable. */
  outstanding: string[];
}

/**
 * VMs still on the old launcher by the session's record: what the latest recovery left outstanding
 * (an earlier hop's leftovers were offered again by it), less those a later step restarted since
 * (verification, or a draft or apply gate that offered them first). Journal only: the callers read
 * the cluster before they ask about any of them.
 */
export function outstandingFromRecovery(ctx: StepContext<unknown>): string[] {
  const all = steps(ctx.state());
  const at = all.findLastIndex((s) => s.kind === 'recover' && s.output !== undefined);
  if (at < 0) return [];
  const left = (all[at]!.output as RecoverContract).outstanding ?? [];
  const later = all.slice(at + 1).map((s) => s.id);
  // The step asking now may not be in the state's list yet under its final id: it is checked too.
  const askers = [...new Set([...later, ctx.step.id])];
  return [...new Set(left)].filter((vm) => !askers.some((id) => ctx.mutationDone(restartKeys(id, vm).send))).sort();
}

/** Why each VM needs its restart, as recovery said it; the recover step's own settings (confirm by name, waits). */
function recoveryContext(ctx: StepContext<unknown>): { why: Map<string, string>; params: RecoverParams } {
  const recoveries = steps(ctx.state()).filter((s) => s.kind === 'recover');
  const why = new Map<string, string>();
  for (const s of recoveries) for (const row of (s.output as RecoverOutput | undefined)?.vms ?? []) why.set(row.vm, row.why);
  const last = recoveries.at(-1);
  const parsed = RecoverParams.safeParse(last?.with ?? {});
  return { why, params: parsed.success ? parsed.data : RecoverParams.parse({}) };
}

export async function reofferRestarts(ctx: StepContext<unknown>, vms: string[], round: string, show: (live: RecoverLive) => void): Promise<ReofferOutcome> {
  const wanted = new Set(vms);
  const reader = ctx.effects.kube.reader(ctx.signal);
  const [outdated, all] = await Promise.all([reader.vmis({ labelSelector: OUTDATED_LABEL }), reader.vms()]);
  const mine = outdated.filter((v) => wanted.has(keyOf(v)));
  // The same safety rules as recovery: only VMs running now that were running at the baseline.
  const snapshot = ctx.outputsOfKind<SnapshotContract>('snapshot').at(-1)?.baseline;
  const baseline: Baseline = snapshot ? { vmis: new Set(snapshot.runningVmis), source: 'snapshot' } : { vmis: wanted, source: 'first-look' };
  const { offered, notOffered } = selectCandidates(mine, all, baseline);
  const { why, params } = recoveryContext(ctx);
  const view = { ...ctx, params, progress: (live: unknown) => show(live as RecoverLive) } as StepContext<RecoverParams>;
  const deps: RecoverDeps = { ctx: view, lifecycle: new LifecycleReader(ctx.effects.kube.kubectl, ctx.signal), program: restartProgram(params.restartWith), baseline: baseline.source, rows: new Map(), scope: round };
  const gone = vms.filter((vm) => !mine.some((v) => keyOf(v) === vm));
  for (const c of offered) deps.rows.set(c.vm, { vm: c.vm, node: c.node, why: why.get(c.vm) ?? 'It was left on the old launcher by recovery.', state: 'pending' });
  for (const n of notOffered) deps.rows.set(n.vm, { vm: n.vm, node: mine.find((v) => keyOf(v) === n.vm)?.status?.nodeName ?? '?', why: n.reason, state: 'outstanding', note: n.reason });
  for (const vm of gone) deps.rows.set(vm, { vm, node: '?', why: 'no longer on the old launcher', state: 'up-to-date', note: 'no longer on the old launcher' });
  publish(deps);

  const outcome: ReofferOutcome = { restarted: [], skipped: [], outstanding: notOffered.map((n) => n.vm) };
  let stopped = false;
  for (const [i, c] of offered.entries()) {
    if (stopped) {
      setRow(deps, c.vm, 'outstanding', 'not asked: the offer was aborted');
      outcome.outstanding.push(c.vm);
      continue;
    }
    const turn = await restartOne(deps, c, { why: deps.rows.get(c.vm)!.why, position: { index: i + 1, total: offered.length } });
    publish(deps);
    if (turn.result === 'restarted' || turn.result === 'not-back' || turn.result === 'would-restart') outcome.restarted.push(c.vm);
    else if (turn.result === 'skipped') outcome.skipped.push(c.vm);
    else if (turn.result === 'aborted') {
      stopped = true;
      outcome.outstanding.push(c.vm);
    } else if (turn.result !== 'up-to-date') outcome.outstanding.push(c.vm);
  }
  publish(deps);
  return outcome;
}
