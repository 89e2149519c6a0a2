/**
 * What the parts of the recovery step share: the step context, the single-object reader, the
 * restart program, the rows the screen shows (one per VM) and how they are published.
 */
import type { StepContext } from '../../engine/context.js';
import type { RecoverParams } from './params.js';
import { findStep } from '../../engine/state.js';
import type { LifecycleReader } from './lifecycle.js';
import type { RestartProgram } from './recover-requests.js';
import type { CancelOutcomes, CancelState, RecoverLive, RecoverVmRow, VmState } from './recover-types.js';


export interface RecoverDeps {
  ctx: StepContext<RecoverParams>;
  lifecycle: LifecycleReader;
  program: RestartProgram;
  baseline: 'snapshot' | 'first-look';
  rows: Map<string, RecoverVmRow>;
  cancel?: { migrations: string[]; state: CancelState; outcomes?: CancelOutcomes };
  waiting?: RecoverLive['waiting'];
  /**
   * Restarts offered again outside recovery (verification's "offer the restarts again"): each
   * round asks afresh, so its gates and skips are keyed by the round. The restart itself is keyed
   * by the VM alone: whatever asks, it is never sent twice.
   */
  scope?: string;
}

/** Journal keys: the gate, the mutation, and the notes that survive a resume. */
export const restartKeys = (stepId: string, vm: string, scope?: string) => ({
  gate: scope ? `${stepId}/restart/${scope}/${vm}` : `${stepId}/restart/${vm}`,
  send: `${stepId}/restart/${vm}/send`,
  before: `before/${vm}`,
  skipped: scope ? `skipped/${scope}/${vm}` : `skipped/${vm}`,
  /** How long the VM was down (a RestartTiming), once the wait after its restart ended. */
  timing: scope ? `timing/${scope}/${vm}` : `timing/${vm}`,
});

/**
 * A skip holds for the attempt that recorded it: within it the VM is not asked twice, but a
 * resumed session (a new attempt) offers it again, as the operator may have changed their mind.
 */
export function skippedThisAttempt(ctx: StepContext<unknown>, key: string): boolean {
  const note = notesOf(ctx)[key] as { attempt?: number } | undefined;
  return note !== undefined && note.attempt === ctx.step.attempts;
}

/** Notes recorded by this step, earlier attempts included (the context's step is a snapshot taken at start). */
export function notesOf(ctx: StepContext<unknown>): Record<string, unknown> {
  return findStep(ctx.state(), ctx.step.id)?.notes ?? ctx.step.notes;
}

export function setRow(deps: RecoverDeps, vm: string, state: VmState, note?: string): void {
  const row = deps.rows.get(vm);
  if (!row) return;
  const { note: _old, ...rest } = row;
  deps.rows.set(vm, { ...rest, state, ...(note ? { note } : {}) });
}

const count = (rows: RecoverVmRow[], ...states: VmState[]) => rows.filter((r) => states.includes(r.state)).length;

export function recoverHeadline(rows: RecoverVmRow[], rehearsal: boolean): string {
  const done = rehearsal ? `${count(rows, 'would-restart')} would be restarted` : `${count(rows, 'restarted')} restarted`;
  // A restart sent and not yet back is neither done nor to go: said as such, never as "0 ... 0".
  const restarting = count(rows, 'restarting');
  return [
    `${rows.length} VM(s) on the old launcher`,
    done,
    ...(restarting ? [`${restarting} restarting`] : []),
    `${count(rows, 'skipped')} skipped`,
    `${count(rows, 'outstanding', 'not-back', 'awaiting-approval')} outstanding`,
    `${count(rows, 'pending', 'asking')} to go`,
  ].join(' · ');
}

export function publish(deps: RecoverDeps): void {
  const vms = [...deps.rows.values()];
  const live: RecoverLive = {
    headline: recoverHeadline(vms, deps.ctx.dryRun),
    vms,
    ...(deps.cancel ? { cancel: deps.cancel } : {}),
    ...(deps.waiting ? { waiting: deps.waiting } : {}),
    baseline: deps.baseline,
    rehearsal: deps.ctx.dryRun,
  };
  deps.ctx.progress(live);
}
