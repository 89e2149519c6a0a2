/**
 * The way back as a stop says it: once the cluster changed, per profile, how to put back the
 * version it ran before the upgrade, from what this session's applies attached (domain/flavor/way-back.ts
 * words each step).
 */
import type { StepContext } from '../../engine/context.js';
import { stepBackText, stepsBack, type AppliedVersion } from '../../domain/flavor/way-back.js';
import { latestPlan } from '../contracts.js';
import type { ApplyOutput } from './types.js';

/** What each apply of this session attached, in the order sent (a rehearsal's included). */
export function appliedBySession(ctx: StepContext<unknown>): AppliedVersion[][] {
  return ctx.outputsOfKind<ApplyOutput>('apply').map((out) => out.replaced ?? []);
}

/**
 * One line for a stop after the cluster changed: per profile, how to put back the version it ran
 * before the upgrade, one hop at a time. `pending` is an apply being sent now (not yet recorded).
 */
export function wayBackHint(ctx: StepContext<unknown>, pending: AppliedVersion[] = []): string | undefined {
  const plan = latestPlan(ctx);
  const back = plan?.wayBack ?? [];
  if (back.length === 0) return undefined;
  const cluster = ctx.site?.cluster.uid ?? '<cluster uid>';
  const applied = appliedBySession(ctx);
  const recorded = new Set(applied.flat().map((r) => `${r.role} ${r.to.uid}`));
  const fresh = pending.filter((r) => !recorded.has(`${r.role} ${r.to.uid}`));
  const chain = fresh.length ? [...applied, fresh] : applied;
  const parts = back.map((b) => {
    const steps = plan?.flavor === 'palette' ? stepsBack(chain, b.role) : [];
    if (steps.length) return `${b.name}: ${steps.map((r) => stepBackText(cluster, r)).join(', then ')}`;
    return `${b.name} ${b.version} (uid ${b.uid}): ${b.how}`;
  });
  return `The way back, one hop at a time: ${parts.join('; ')}.`;
}
