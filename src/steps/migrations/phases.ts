/**
 * Migration (VMIM) phases as KubeVirt writes them: "", Pending, Scheduling, Scheduled,
 * PreparingTarget, TargetReady, Running, then Succeeded or Failed. An empty phase is a migration
 * the controller has not looked at yet, so it counts as Pending.
 */
import type { Vmim } from '../../kube/schemas.js';

export const PHASES = ['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', 'Succeeded', 'Failed'] as const;

export const phaseOf = (m: Pick<Vmim, 'status'>): string => m.status?.phase || 'Pending';

export const isFinal = (phase: string): boolean => phase === 'Succeeded' || phase === 'Failed';

export const isInFlight = (phase: string): boolean => !isFinal(phase);

/** Counts per phase, every known phase present (zero included) so the screen's columns do not jump. */
export function countPhases(phases: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(PHASES.map((p) => [p, 0]));
  for (const p of phases) counts[p] = (counts[p] ?? 0) + 1;
  return counts;
}

/**
 * Per VMI, its failed migrations since its last success, oldest first: a VMI is judged by its
 * latest migrations. KubeVirt keeps up to five finished migrations per VMI, so a failure that a
 * later success superseded (days ago, another upgrade) says nothing about whether it moves today.
 */
export function failuresSinceSuccess<T>(items: readonly T[], of: { vmi: (t: T) => string; phase: (t: T) => string; created: (t: T) => number }): Map<string, T[]> {
  const perVmi = new Map<string, T[]>();
  for (const t of items) perVmi.set(of.vmi(t), [...(perVmi.get(of.vmi(t)) ?? []), t]);
  const out = new Map<string, T[]>();
  for (const [vmi, list] of perVmi) {
    const ordered = [...list].sort((a, b) => of.created(a) - of.created(b));
    const tail = ordered.slice(ordered.findLastIndex((t) => of.phase(t) === 'Succeeded') + 1).filter((t) => of.phase(t) === 'Failed');
    if (tail.length) out.set(vmi, tail);
  }
  return out;
}
