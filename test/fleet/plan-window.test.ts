/**
 * The fleet plan's time (plan-window.ts): each stage's clusters laid out as the coordinator starts
 * them (maxConcurrency at a time, the fleet's first cluster alone, only inside the stage's window
 * when the p90 fits), soaks after, stages one after another; p50 and p90 each.
 */
import { describe, expect, it } from 'vitest';
import { fleetTime, type ClusterPrediction, type StagePlanInput } from '../../src/fleet/plan-window.js';

const MIN = 60_000;
const p = (name: string, p50: number, p90: number): ClusterPrediction => ({ name, p50Ms: p50 * MIN, p90Ms: p90 * MIN, basis: 'its own plan' });
// Wednesday 2 Dec 2026, 10:00 UTC.
const now = Date.UTC(2026, 11, 2, 10, 0);

describe('fleetTime', () => {
  it('lays each stage out at its concurrency, the first cluster alone, soaks after, stages in order', () => {
    const stages: StagePlanInput[] = [
      { name: 'canary', clusters: ['a'], maxConcurrency: 1, soakMs: 60 * MIN },
      { name: 'wave-1', clusters: ['b', 'c', 'd'], maxConcurrency: 2 },
    ];
    const t = fleetTime(stages, [p('a', 10, 20), p('b', 10, 20), p('c', 12, 24), p('d', 10, 30)], now);
    expect(t.stages.map((s) => [s.name, s.p50Ms / MIN, s.p90Ms / MIN, s.soakMs / MIN])).toEqual([
      ['canary', 10, 20, 60],
      // b and c together; d starts when b ends.
      ['wave-1', 20, 50, 0],
    ]);
    expect([t.p50Ms / MIN, t.p90Ms / MIN]).toEqual([90, 130]);
    expect(t.endsAt).toBe(now + 130 * MIN);
    expect(t.stages[1]!.startsAt).toBe(now + 80 * MIN);
  });

  it('a first stage of several clusters runs one at a time until the first has finished', () => {
    const t = fleetTime([{ name: 'wave', clusters: ['a', 'b', 'c'], maxConcurrency: 3 }], [p('a', 10, 10), p('b', 10, 10), p('c', 10, 10)], now);
    expect(t.stages[0]!.p90Ms / MIN).toBe(20);
  });

  it('a cluster with no plan of its own is timed as the longest of the others, and named', () => {
    const t = fleetTime([{ name: 'canary', clusters: ['a'], maxConcurrency: 1 }, { name: 'wave-1', clusters: ['b', 'x'], maxConcurrency: 2 }], [p('a', 10, 20), p('b', 10, 40)], now);
    expect(t.stages[1]).toMatchObject({ borrowed: ['x'], p90Ms: 40 * MIN });
  });

  it("a window: clusters start only inside it when their p90 fits what is left, in as many openings as it takes", () => {
    // Daily 02:00-03:00 UTC: a 40-minute cluster fits once per opening.
    const window = { days: ['daily'], start: '02:00', hours: 1, timeZone: 'UTC' };
    const t = fleetTime([{ name: 'canary', clusters: ['a'], maxConcurrency: 1 }, { name: 'wave-1', clusters: ['b', 'c'], maxConcurrency: 1, window }], [p('a', 10, 20), p('b', 30, 40), p('c', 30, 40)], now);
    const wave = t.stages[1]!;
    expect(wave.window).toEqual({ text: 'daily 02:00-03:00 UTC', fits: true, openings: 2 });
    // b at 02:00 on the 3rd, c at 02:00 on the 4th: the fleet ends at 02:40 on the 4th.
    expect(new Date(t.endsAt).toISOString()).toBe('2026-12-04T02:40:00.000Z');
    expect(t.never).toBeUndefined();
  });

  it('a window no opening of which holds a cluster says so', () => {
    const window = { days: ['Sat'], start: '02:00', hours: 0.5, timeZone: 'Europe/Berlin' };
    const t = fleetTime([{ name: 'canary', clusters: ['a'], maxConcurrency: 1, window }], [p('a', 20, 45)], now);
    expect(t.never).toEqual({ stage: 'canary', cluster: 'a', longestMs: 30 * MIN });
    expect(t.stages[0]!.window).toMatchObject({ fits: false, longestMs: 30 * MIN });
  });
});
