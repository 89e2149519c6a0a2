/**
 * The migrations screen's "about N min left": the plan's per-VM durations, rescheduled for what is
 * left (pure). A migration in flight keeps what its predicted duration has not used yet; the VMs
 * still outdated that KubeVirt will move wait their turn under the same limits. A VM the plan did
 * not time (it appeared since) counts as the plan's median migration.
 */
import type { VmImpact } from '../impact/vm-impact.js';
import { scheduleMoves, type MigrationJob } from './schedule.js';
import type { MigrationLimits } from './types.js';

export interface InFlight {
  vmi: string;
  source: string;
  ageMs: number;
}

export interface Waiting {
  vmi: string;
  node: string;
}

export function remainingEstimate(impact: readonly VmImpact[], limits: MigrationLimits, inFlight: readonly InFlight[], waiting: readonly Waiting[]): { p50Seconds: number; p90Seconds: number } | undefined {
  const timed = new Map(impact.filter((i) => i.fate === 'live-migrate' && i.predicted).map((i) => [i.vm, i.predicted!.durationSeconds]));
  if (timed.size === 0) return undefined;
  const all = [...timed.values()];
  const typical = { p50: median(all.map((d) => d.p50)), p90: median(all.map((d) => d.p90)) };
  const sched = { perCluster: limits.parallelMigrationsPerCluster, perNode: limits.parallelOutboundMigrationsPerNode, batchSize: limits.batchEvictionSize, batchIntervalSeconds: limits.batchEvictionIntervalSeconds };
  const at = (q: 'p50' | 'p90') => {
    const flying: MigrationJob[] = inFlight.map((f) => ({ vm: f.vmi, node: f.source, overheadSeconds: 0, copySeconds: Math.max(1, (timed.get(f.vmi) ?? typical)[q] - f.ageMs / 1000) }));
    const queued: MigrationJob[] = waiting.filter((w) => !inFlight.some((f) => f.vmi === w.vmi)).map((w) => ({ vm: w.vmi, node: w.node, overheadSeconds: 0, copySeconds: (timed.get(w.vmi) ?? typical)[q] }));
    return scheduleMoves([...flying, ...queued], [], { ...sched, perCluster: Math.max(sched.perCluster, flying.length) }).endSeconds;
  };
  return { p50Seconds: Math.round(at('p50')), p90Seconds: Math.round(Math.max(at('p50'), at('p90'))) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}
