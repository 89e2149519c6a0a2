/**
 * What verification expects, from what earlier steps recorded: the plan's final profile versions
 * and component versions, the snapshot's baseline, and the VMs the operator chose not to restart.
 * A rehearsal checks today's health, so it drops the target versions.
 */
import type { StepContext } from '../../engine/context.js';
import type { VerifyExpectations } from '../../domain/checks/types.js';
import { latestPlan } from '../contracts.js';
import { sessionStart } from '../session-start.js';

/** The fields of other steps' outputs that verification reads (each step kind owns its full output type). */
export interface PlanExpectations {
  expectations?: Pick<VerifyExpectations, 'profiles' | 'kubevirtVersion' | 'cdiVersion'>;
}
export interface SnapshotBaseline {
  baseline?: { runningVmis: string[]; nads: string[]; storageClassAnnotations?: Record<string, Record<string, string>> };
}
export interface RecoverOutstanding {
  outstanding?: string[];
}

export function sessionExpectations(ctx: StepContext<unknown>): VerifyExpectations {
  const plan = latestPlan(ctx) as PlanExpectations | undefined;
  const snapshot = ctx.outputsOfKind<SnapshotBaseline>('snapshot').at(-1);
  const outstanding = [...new Set(ctx.outputsOfKind<RecoverOutstanding>('recover').flatMap((r) => r.outstanding ?? []))];
  const exp: VerifyExpectations = {
    ...(snapshot?.baseline ? { baseline: snapshot.baseline } : {}),
    ...(outstanding.length ? { outstandingVms: outstanding } : {}),
    since: sessionStart(ctx),
    now: ctx.effects.clock.now(),
  };
  const target = plan?.expectations;
  if (!target) return exp;
  if (ctx.dryRun) {
    // Today's health: the profiles must be there, at whatever version they are now.
    return { ...exp, ...(target.profiles ? { profiles: target.profiles.map((p) => ({ name: p.name })) } : {}) };
  }
  return { ...exp, ...target };
}

