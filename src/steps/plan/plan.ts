/**
 * The `plan` step (spec 9.1.1, 9.1.2): hops of exactly one minor from the deployed orchestration
 * pack to the target, what each hop publishes, and the VM impact, before anything is sent. A plan
 * that would skip a minor, downgrade or repeat a version is refused with the reason and the fix.
 */
import { InputError } from '../../errors.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { computePlan } from './compute.js';
import { impactLine } from '../../domain/impact/impact.js';
import type { PlanLive, PlanOutput } from './types.js';
import { planCard } from '../cards.js';

export function planSummary(out: PlanOutput): string {
  if (out.status === 'refused') return `refused: ${out.refusal?.reason ?? ''}`;
  const ladder = out.hops.length ? `${out.hops.length} hop(s): ${[out.deployed, ...out.hops.map((h) => h.to)].join(' → ')}` : `no hops: ${out.pack} is already at ${out.deployed}`;
  return out.hops.length ? `${ladder}; VMs: ${impactLine(out.impactCounts)}` : `${ladder}; nothing is published, so no VM moves`;
}

/** A refused plan is a target or params that cannot be upgraded to safely: bad input, exit 2. */
export function refusalError(out: PlanOutput): InputError {
  return new InputError('plan.refused', `The upgrade plan is refused: ${out.refusal?.reason ?? 'unknown reason'}`, { hint: out.refusal?.hint ?? 'Fix the params file, then plan again.' });
}

export const planStep = defineStepKind({
  ...planCard,
  async run(ctx) {
    const site = ctx.site;
    if (!site) return skipped('no site parameters: nothing to plan');
    const out = await computePlan({
      site,
      palette: ctx.effects.palette,
      kube: ctx.effects.kube,
      signal: ctx.signal,
      notes: ctx.runbook.versionNotes,
      now: ctx.effects.clock.now(),
      progress: (headline) => ctx.progress({ headline } satisfies PlanLive),
    });
    if (out.status === 'refused') return failed(refusalError(out), out);
    if (out.windowTotal) ctx.log(out.windowTotal);
    for (const note of out.notes) ctx.log(note);
    return succeeded(out, planSummary(out));
  },
});
