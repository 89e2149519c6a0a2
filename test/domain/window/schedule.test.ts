/** The scheduler follows KubeVirt's rules: the cluster and per-node limits, the updater's re-runs, the eviction batches. */
import { describe, expect, it } from 'vitest';
import { scheduleMoves, type MigrationJob } from '../../../src/domain/window/schedule.js';

const limits = { perCluster: 5, perNode: 2, batchSize: 10, batchIntervalSeconds: 60 };
// 125 s each: off the updater's 30 s beat, so a re-run after a change is what starts the next
const job = (vm: string, node: string, copySeconds = 105, overheadSeconds = 20): MigrationJob => ({ vm, node, copySeconds, overheadSeconds });
const many = (n: number, nodes: number, copy = 105) => Array.from({ length: n }, (_, i) => job(`vm-${i}`, `node-${i % nodes}`, copy));

describe('scheduleMoves', () => {
  const cases: Array<{ name: string; migrations: MigrationJob[]; evictions?: number; lim?: Partial<typeof limits>; end: number; peak: number }> = [
    { name: 'nothing to move', migrations: [], end: 0, peak: 0 },
    { name: 'one VM: overhead plus copy', migrations: [job('a', 'n1')], end: 125, peak: 1 },
    { name: 'five on five nodes run together', migrations: many(5, 5), end: 125, peak: 5 },
    // The sixth waits for a slot; the updater notices 5 s after a migration ends
    { name: 'six on six nodes: the sixth after the first ends and the updater re-runs', migrations: many(6, 6), end: 125 + 5 + 125, peak: 5 },
    // Five on one node: two at a time leave it; the updater created all five at once (5 slots)
    { name: 'five on one node: two leave it at a time', migrations: many(5, 1), end: 3 * 125, peak: 2 },
    { name: 'a cluster limit of 1 serialises, each new one 5 s after the last', migrations: many(3, 3), lim: { perCluster: 1 }, end: 3 * 125 + 2 * 5, peak: 1 },
    { name: 'evictions only: batches of 10 a minute apart, 60 s down each', migrations: [], evictions: 25, end: 120 + 60, peak: 0 },
  ];
  it.each(cases)('$name', ({ migrations, evictions, lim, end, peak }) => {
    const s = scheduleMoves(migrations, Array.from({ length: evictions ?? 0 }, (_, i) => ({ vm: `e-${i}`, downSeconds: 60 })), { ...limits, ...lim });
    expect(s.endSeconds).toBe(end);
    expect(s.peakParallel).toBe(peak);
    expect(s.jobs).toHaveLength(migrations.length + (evictions ?? 0));
  });

  it('never runs more than the limits allow, at any moment', () => {
    const jobs = Array.from({ length: 60 }, (_, i) => job(`vm-${i}`, `node-${i % 4}`, 30 + (i % 7) * 40));
    const s = scheduleMoves(jobs, [], limits);
    const byVm = new Map(jobs.map((j) => [j.vm, j.node]));
    for (const t of s.jobs.flatMap((j) => [j.startedAt, j.endsAt - 0.5])) {
      const live = s.jobs.filter((j) => j.kind === 'migrate' && j.startedAt <= t && t < j.endsAt);
      expect(live.length).toBeLessThanOrEqual(5);
      const perNode = new Map<string, number>();
      for (const j of live) perNode.set(byVm.get(j.vm)!, (perNode.get(byVm.get(j.vm)!) ?? 0) + 1);
      expect(Math.max(0, ...perNode.values())).toBeLessThanOrEqual(2);
    }
    // Every job was created before it started and ends after
    for (const j of s.jobs) expect(j.createdAt <= j.startedAt && j.startedAt < j.endsAt).toBe(true);
  });

  it('the evictions and migrations of one updater run share nothing: evictions do not wait for migration slots', () => {
    const s = scheduleMoves(many(5, 5, 1000), [{ vm: 'e', downSeconds: 60 }], limits);
    expect(s.jobs.find((j) => j.vm === 'e')).toMatchObject({ createdAt: 0, endsAt: 60 });
  });
});
