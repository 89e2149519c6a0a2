/**
 * A cluster's predicted duration, for its stage's window: the p90 of its hops as its own plan
 * predicted them (issue 27's estimate, in the plan step's output). A cluster that has not planned yet
 * takes the longest prediction among the fleet's clusters that have (they share the profiles, so
 * their hops are the same); with none yet, nothing is predicted and only "inside the window" holds.
 */
import { steps, type SessionState } from '../engine/state.js';
import type { HopEtaContract } from '../domain/plan/planned-hop.js';

export interface Prediction {
  ms: number;
  /** Where it comes from, for the operator. */
  basis: string;
}

/** The p90 of a session's planned hops, summed; undefined without a plan or with a hop not estimated. */
export function planP90Ms(state: SessionState): number | undefined {
  const plan = steps(state)
    .filter((s) => s.status === 'succeeded' && Array.isArray((s.output as { hops?: unknown } | undefined)?.hops))
    .at(-1)?.output as { hops: Array<{ eta?: HopEtaContract }> } | undefined;
  if (!plan) return undefined;
  if (plan.hops.some((h) => !h.eta)) return undefined;
  return plan.hops.reduce((sum, h) => sum + h.eta!.p90Seconds * 1000, 0);
}

/** `own`: the cluster's own session's p90 if it planned; `others`: the fleet's clusters' that did. */
export function predict(name: string, own: number | undefined, others: ReadonlyArray<{ name: string; ms: number }>): Prediction | undefined {
  if (own !== undefined) return { ms: own, basis: `the p90 of ${name}'s planned hops` };
  const longest = [...others].sort((a, b) => b.ms - a.ms)[0];
  return longest ? { ms: longest.ms, basis: `the p90 of ${longest.name}'s planned hops (the same profiles; ${name} has not planned yet)` } : undefined;
}
