/**
 * When this session began, on the cluster's clock: its first snapshot (what the cluster was before
 * the session changed anything), else its creation. What failed before it is the cluster's past;
 * the migrations made since are this session's (the live tables show those).
 */
import { clockTimeOf } from '../engine/clock.js';
import type { StepContext } from '../engine/context.js';

export function sessionStart(ctx: StepContext<unknown>): number {
  const snapshot = ctx.outputsOfKind<{ takenAt?: string }>('snapshot').at(0);
  const taken = snapshot?.takenAt ? Date.parse(snapshot.takenAt) : NaN;
  if (Number.isFinite(taken)) return taken;
  return clockTimeOf(ctx.effects.clock, Date.parse(ctx.state().meta.createdAt));
}
