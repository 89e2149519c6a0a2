/**
 * VMs an earlier hop left on the old launcher, at the next hop's draft and apply gates: after this
 * hop they would be two minors behind and could not live-migrate any more. The gate warns, and
 * offers to restart them first, each behind its own restart gate (the same code as recovery:
 * journaled, never sent twice, waited for); then it is drawn again with what is still outstanding.
 */
import type { GateAsk } from '../../engine/context.js';
import type { StepContext } from '../../engine/context.js';
import type { Decision, GateOption } from '../../engine/gate.js';
import { outstandingFromRecovery, reofferRestarts } from '../migrations/reoffer.js';
import type { RecoverLive } from '../migrations/recover-types.js';
import { firstFew } from '../../text/first-few.js';

export function outstandingWarning(vms: string[]): string | undefined {
  if (vms.length === 0) return undefined;
  return `${vms.length} VM(s) still run the previous launcher (${firstFew(vms)}); after this hop they would be two minors behind and cannot live-migrate. Restart them first ([o] here asks about each; without a terminal, --approve-restart NS/NAME).`;
}

/** The option that takes the operator through each outstanding VM's restart gate before this gate is asked again. */
export const restartFirstOption = (n: number): GateOption => ({ choice: 'skip', label: `Restart the ${n} outstanding VM(s) first (each asked on its own)`, key: 'o' });

export interface OfferedDecision {
  decision: Decision;
  /** The key of the gate that was answered: what the mutations it approves record. */
  key: string;
}

/**
 * Asks a hop's gate (`build` draws it with the outstanding VMs' warning and option), restarting the
 * outstanding VMs first when the operator picks that, as often as they pick it. Approved by a flag
 * (plain mode), the VMs' own restart flags answer their gates before the write; a VM without one
 * stays outstanding and the run goes on, as verification's offer does. A rehearsal offers nothing.
 */
export async function confirmOfferingRestarts(
  ctx: StepContext<unknown>,
  baseKey: string,
  build: (outstanding: { warning?: string; option?: GateOption }) => GateAsk,
  show: (live: RecoverLive) => void,
): Promise<OfferedDecision> {
  for (let round = 1; ; round++) {
    const vms = ctx.dryRun ? [] : outstandingFromRecovery(ctx);
    const warning = outstandingWarning(vms);
    const key = round === 1 ? baseKey : `${baseKey}/after-restarts.${ctx.step.attempts}.${round}`;
    const ask = build(vms.length ? { ...(warning ? { warning } : {}), option: restartFirstOption(vms.length) } : {});
    const decision = await ctx.confirm({ ...ask, key });
    const scope = `${ctx.step.attempts}.${ctx.step.kind}.${round}`;
    if (vms.length && decision.choice === 'skip') {
      await reofferRestarts(ctx, vms, scope, show);
      continue;
    }
    if (vms.length && decision.choice === 'approve' && decision.by === 'flag') await reofferRestarts(ctx, vms, scope, show);
    return { decision, key };
  }
}
