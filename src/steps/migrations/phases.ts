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
