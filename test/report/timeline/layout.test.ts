/**
 * Laying the timeline on a width (pure): the axis's range (a window or a forecast ending near the
 * run widens it, a far one does not), a long wait of the operator's folded so the work around it
 * keeps its room, positions monotonic through a fold; the ticks at round times of the zone's own
 * clock (a half-hour zone too) and the zone said with its offset.
 */
import { describe, expect, it } from 'vitest';
import { axisRange, layoutScale, legendKinds } from '../../../src/report/timeline/layout.js';
import type { Timeline, TimelineBar } from '../../../src/report/timeline/schema.js';
import { ticks, tickStep, zoneText } from '../../../src/report/timeline/ticks.js';

const T0 = Date.parse('2026-12-02T01:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const bar = (id: string, from: number, to: number, by: TimelineBar['by'] = 'tool', status: TimelineBar['status'] = 'ok'): TimelineBar => ({ id, label: id, from: at(from), to: at(to), by, status });
const tl = (bars: TimelineBar[], extra: Partial<Timeline> = {}): Timeline => ({ from: at(0), to: at(1000), timeZone: 'UTC', windows: [], sections: [{ id: 's', title: 'S', bars }], marks: [], ...extra });

describe('axisRange', () => {
  it.each([
    ['the run alone', {}, 1000],
    ['a window ending a little after the run widens it', { windows: [{ from: at(0), to: at(1500), label: 'w' }] }, 1500],
    ['a window ending far after the run does not', { windows: [{ from: at(0), to: at(14_400), label: 'w' }] }, 1000],
    ['a window the run overran does not shorten it', { windows: [{ from: at(0), to: at(800), label: 'w' }] }, 1000],
  ])('%s', (_, extra, end) => {
    expect(axisRange(tl([bar('a', 0, 10)], extra as Partial<Timeline>))).toEqual({ from: T0, to: T0 + end * 1000 });
  });

  it("a hop's predicted p90 near the end widens it too", () => {
    const t = tl([bar('a', 0, 10)]);
    t.sections[0]!.forecast = { from: at(100), p50At: at(900), p90At: at(1200), p50Seconds: 800, p90Seconds: 1100 };
    expect(axisRange(t).to).toBe(T0 + 1_200_000);
  });
});

describe('layoutScale', () => {
  it('is linear without a long wait', () => {
    const s = layoutScale(tl([bar('a', 0, 500), bar('w', 500, 700, 'operator')]), 100, 5);
    expect(s.breaks).toEqual([]);
    expect([0, 250, 1000].map((x) => s.x(T0 + x * 1000))).toEqual([0, 25, 100]);
  });

  it('folds an operator-only wait longer than 30% of the axis into foldWidth, keeping a margin of it at each end', () => {
    // 100 s of work, a 10-hour stop at a gate, 100 s of work.
    const t = tl([bar('a', 0, 100), bar('stop', 100, 36_100, 'operator'), bar('b', 36_100, 36_200, 'cluster')], { to: at(36_200) });
    const s = layoutScale(t, 100, 6);
    expect(s.breaks).toHaveLength(1);
    const b = s.breaks[0]!;
    expect(b.x1 - b.x0).toBe(6);
    expect(b.from).toBeGreaterThan(T0 + 100_000);
    expect(b.to).toBeLessThan(T0 + 36_100_000);
    // The work on either side shares the rest of the width: each side about half of 94.
    expect(s.x(T0 + 100_000)).toBeGreaterThan(40);
    expect(s.x(T0 + 36_100_000)).toBeLessThan(60);
    const xs = [0, 50, 100, 5_000, 20_000, 36_000, 36_100, 36_200].map((x) => s.x(T0 + x * 1000));
    for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeGreaterThanOrEqual(xs[i - 1]!);
    expect(xs.at(-1)).toBe(100);
  });

  it('does not fold a wait that work overlaps (the cluster was busy meanwhile)', () => {
    const t = tl([bar('stop', 10, 900, 'operator'), bar('migrations', 5, 950, 'cluster')]);
    expect(layoutScale(t, 100, 6).breaks).toEqual([]);
  });

  it('does not fold when the width has no room for it', () => {
    const t = tl([bar('a', 0, 10), bar('stop', 10, 990, 'operator'), bar('b', 990, 1000)]);
    expect(layoutScale(t, 8, 6).breaks).toEqual([]);
  });
});

describe('legendKinds', () => {
  it('names only what is drawn', () => {
    expect(legendKinds(tl([bar('a', 0, 1), bar('f', 1, 2, 'cluster', 'failed'), bar('s', 3, 3, 'operator', 'skipped')]))).toEqual(['tool', 'failed', 'skipped']);
  });
});

describe('ticks', () => {
  it.each([
    [50_000, 6, 10_000, '10second'],
    [3_600_000, 8, 600_000, '10minute'],
    [36 * 3_600_000, 8, 6 * 3_600_000, '6hour'],
  ])('tickStep(%i ms, %i) is %i ms (%s)', (length, most, ms, mermaid) => {
    expect(tickStep(length, most)).toEqual({ ms, mermaid });
  });

  it("lands on round times of the zone's clock, a half-hour zone too", () => {
    const from = Date.parse('2026-12-02T01:07:00Z');
    const to = Date.parse('2026-12-02T03:07:00Z');
    expect(ticks(from, to, 3_600_000, 'UTC').map((t) => t.label)).toEqual(['02:00', '03:00']);
    // Asia/Kolkata is UTC+05:30: its whole hours are UTC's half hours.
    const kolkata = ticks(from, to, 3_600_000, 'Asia/Kolkata');
    expect(kolkata.map((t) => t.label)).toEqual(['07:00', '08:00']);
    expect(kolkata.map((t) => new Date(t.at).toISOString().slice(11, 16))).toEqual(['01:30', '02:30']);
    expect(ticks(from, from + 30_000, 10_000, 'UTC').map((t) => t.label)).toEqual(['01:07:00', '01:07:10', '01:07:20', '01:07:30']);
  });

  it.each([
    ['UTC', 'UTC'],
    ['Europe/Berlin', 'Europe/Berlin (UTC+01:00)'],
    ['America/New_York', 'America/New_York (EST, UTC-05:00)'],
    ['Asia/Kolkata', 'Asia/Kolkata (UTC+05:30)'],
  ])('zoneText(%s) in December is %s', (zone, text) => {
    expect(zoneText(zone, Date.parse('2026-12-02T01:00:00Z'))).toBe(text);
  });
});
