/** Bandwidth learned from the cluster's own migrations; a hop's range; migrations that may not converge. */
import { describe, expect, it } from 'vitest';
import type { Vmi, Vmim } from '../../../src/kube/schemas.js';
import type { VmImpact } from '../../../src/domain/impact/vm-impact.js';
import { estimateBandwidth, migrationSamples } from '../../../src/domain/window/bandwidth.js';
import { estimateHop, type VmFacts } from '../../../src/domain/window/estimate.js';
import { migrationLimits } from '../../../src/domain/window/limits.js';
import { lastBootSeconds, restartTime, restartsPart } from '../../../src/domain/window/restarts.js';

/** A VMI whose last start took `seconds` (created, then each phase until Running), with an optional grace period. */
const booted = (name: string, seconds: number, grace?: number): Vmi => ({
  metadata: { name, namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' },
  ...(grace !== undefined ? { spec: { terminationGracePeriodSeconds: grace } } : {}),
  status: {
    phase: 'Running',
    phaseTransitionTimestamps: [
      { phase: 'Pending', phaseTransitionTimestamp: '2026-01-01T00:00:00Z' },
      { phase: 'Scheduled', phaseTransitionTimestamp: '2026-01-01T00:00:10Z' },
      { phase: 'Running', phaseTransitionTimestamp: new Date(Date.parse('2026-01-01T00:00:00Z') + seconds * 1000).toISOString() },
    ],
  },
});

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const vmi = (name: string, memory: string): Vmi => ({ metadata: { name, namespace: 'ns' }, spec: { domain: { memory: { guest: memory } } } });
const done = (vmiName: string, start: string, end: string, phase = 'Succeeded'): Vmim => ({
  metadata: { name: `m-${vmiName}`, namespace: 'ns' },
  spec: { vmiName },
  status: {
    phase,
    migrationState: { startTimestamp: start, endTimestamp: end },
    phaseTransitionTimestamps: [
      { phase: 'Scheduling', phaseTransitionTimestamp: '2026-01-01T00:00:00Z' },
      { phase: 'Running', phaseTransitionTimestamp: '2026-01-01T00:00:25Z' },
    ],
  },
});

describe('bandwidth', () => {
  it('learns memory over duration from Succeeded migrations only, and the target start-up from the phases', () => {
    const samples = migrationSamples(
      [done('a', '2026-01-01T00:00:00Z', '2026-01-01T00:00:16Z'), done('b', '2026-01-01T00:00:00Z', '2026-01-01T00:00:32Z'), done('c', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'Failed')],
      [vmi('a', '4Gi'), vmi('b', '8Gi'), vmi('c', '64Gi')],
    );
    expect(samples.rates).toEqual([256 * MiB, 256 * MiB]);
    expect(samples.overheads).toEqual([25, 25]);
    const est = estimateBandwidth(samples, 0);
    expect(est).toMatchObject({ source: 'finished-migrations', samples: 2, bytesPerSecond: { p50: 256 * MiB, p90: 0.8 * 256 * MiB }, overheadSeconds: { p50: 25, p90: 25 } });
  });

  it.each([
    ['a limit caps what was learned', [512 * MiB], 64 * MiB, 'finished-migrations', 64 * MiB],
    ['no history: the limit', [], 64 * MiB, 'limit', 64 * MiB],
    ['no history, no limit: said to be assumed', [], 0, 'assumed', 256 * MiB],
  ])('%s', (_n, rates, limit, source, p50) => {
    const est = estimateBandwidth({ rates, overheads: [] }, limit);
    expect(est.source).toBe(source);
    expect(est.bytesPerSecond.p50).toBe(p50);
    expect(est.text).toMatch(source === 'assumed' ? /assumed/ : /MiB\/s/);
  });
});

describe('estimateHop', () => {
  const limits = migrationLimits({});
  const bandwidth = { bytesPerSecond: { p50: 256 * MiB, p90: 128 * MiB }, overheadSeconds: { p50: 20, p90: 40 }, source: 'limit' as const, samples: 0, text: '256 MiB/s' };
  const rollout = { p50: 300, p90: 600, basis: 'rollout' };
  const facts = (vm: string, fate: VmImpact['fate'], memGi: number, extra: Partial<VmFacts> = {}): VmFacts => ({
    impact: { vm, fate, reason: '', node: `node-${vm}` },
    memoryBytes: memGi * GiB,
    limits: { bandwidthPerMigration: 0, completionTimeoutPerGiB: 150, allowAutoConverge: false, allowPostCopy: false },
    ...extra,
  });

  it('adds the rollout, the moves and the restarts at the gates; the pessimistic bound is larger; the summary says it as a change board asks', () => {
    const { eta, byVm } = estimateHop({ vms: [facts('a', 'live-migrate', 4), facts('b', 'live-migrate', 8), facts('c', 'restart', 4)], limits, bandwidth, rollout });
    // 8 GiB at 256 MiB/s = 32 s + 20 s start-up
    expect(eta.parts[1]).toMatchObject({ what: 'migrations', p50Seconds: 52 });
    // No record of c's boot: the runbook's 20 s shutdown and 40 s boot, doubled when slow.
    expect(eta.parts[2]).toMatchObject({ what: 'restarts', p50Seconds: 60, p90Seconds: 120 });
    expect(eta.p50Seconds).toBe(300 + 52 + 60);
    expect(eta.p90Seconds).toBe(600 + 40 + 64 + 120);
    expect(eta.summary).toBe('about 7m-14m: 2 VM(s) migrate, 5 at a time; 1 restart(s) at the gates, about 1m-2m of downtime each, counted; plus your time at its gate');
    expect(byVm.get('b')!.predicted).toEqual({ startSeconds: 0, durationSeconds: { p50: 52, p90: 104 } });
    expect(byVm.get('c')!.predicted).toEqual({ startSeconds: 52, durationSeconds: { p50: 60, p90: 120 }, downtimeSeconds: 60 });
  });

  it('restarts one after another, each from its VMI’s own last boot where the cluster recorded one', () => {
    const vms = [facts('a', 'restart', 4, { restart: restartTime(booted('a', 28)) }), facts('b', 'restart', 4, { restart: restartTime(booted('b', 100, 300)) }), facts('c', 'restart', 4)];
    const { eta, byVm } = estimateHop({ vms, limits, bandwidth, rollout });
    // a: 20 + 28, slow 40 + 42; b: 20 + 100, slow its grace period 300 + 150; c: the runbook's 60, slow 120.
    expect(eta.parts[2]).toMatchObject({ what: 'restarts', p50Seconds: 48 + 120 + 60, p90Seconds: 82 + 450 + 120 });
    expect(eta.parts[2]!.basis).toBe("3 restart(s) at the gates, one after another, about 1m-2m each: 2 from the VMI's last boot on this cluster (median 28s) plus the runbook's 20s shutdown; 1 from the runbook's figure (20s shutdown, 40s boot; no boot on record); your own time at the gates is not counted");
    expect([...byVm.values()].map((v) => v.predicted!.startSeconds)).toEqual([0, 48, 168]);
    expect(eta.summary).toMatch(/3 restart\(s\) at the gates, .* counted; plus your time at 3 restart gates$/);
  });

  it.each([
    ['a dirty rate above the bandwidth', facts('d', 'live-migrate', 4, { dirtyRate: 300 * MiB }), /dirties 300 MiB\/s .* more than the 256 MiB\/s/],
    ['memory that cannot move within its completion timeout', facts('t', 'live-migrate', 4, { limits: { bandwidthPerMigration: 8 * MiB, completionTimeoutPerGiB: 100, allowAutoConverge: false, allowPostCopy: false } }), /beyond its completion timeout/],
  ])('flags %s, with the remedies, and counts it until KubeVirt aborts it', (_n, vm, text) => {
    const { eta, byVm } = estimateHop({ vms: [vm], limits, bandwidth, rollout });
    const risks = byVm.get(vm.impact.vm)!.mayNotConverge!;
    expect(risks[0]).toMatch(text);
    expect(risks[0]).toMatch(/allowAutoConverge or allowPostCopy; a quieter moment; or a gated restart instead/);
    expect(eta.summary).toMatch(/1 may not converge/);
  });

  it.each([
    ['auto-converge', { allowAutoConverge: true, allowPostCopy: false }],
    ['post-copy', { allowAutoConverge: false, allowPostCopy: true }],
  ])('does not flag a dirty guest whose policy allows %s', (_n, allow) => {
    const vm = facts('d', 'live-migrate', 4, { dirtyRate: 300 * MiB, limits: { bandwidthPerMigration: 0, completionTimeoutPerGiB: 150, ...allow } });
    expect(estimateHop({ vms: [vm], limits, bandwidth, rollout }).byVm.get('d')!.mayNotConverge).toBeUndefined();
  });
});

describe('a restart’s time', () => {
  it.each<[string, Vmi | undefined, number | undefined]>([
    ['created, then Running 28 s later', booted('a', 28), 28],
    ['no Running transition (still booting)', { metadata: { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { phaseTransitionTimestamps: [{ phase: 'Scheduling', phaseTransitionTimestamp: '2026-01-01T00:00:00Z' }] } }, undefined],
    ['only its current phase, at its creation (no boot on record)', { metadata: { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { phaseTransitionTimestamps: [{ phase: 'Running', phaseTransitionTimestamp: '2026-01-01T00:00:00Z' }] } }, undefined],
    ['a span of days is not one boot', booted('d', 3 * 86_400), undefined],
    ['no VMI', undefined, undefined],
  ])('%s', (_n, vmi, want) => expect(lastBootSeconds(vmi)).toBe(want));

  it('a hop without restarts has a restart part of nothing, said so', () => {
    expect(restartsPart([])).toEqual({ what: 'restarts', p50Seconds: 0, p90Seconds: 0, basis: 'no VM needs a restart at the gates' });
  });
});
