/**
 * The fleet's timeline from its journal (pure): a section per stage, each cluster's run a bar (the
 * retry after its stage halted its own bar, and the axis reaching it), the canary's soak, the wait
 * at wave-1's gate from the canary's end to the approval as the operator's time, a skip as an
 * instant, the halt marked red, the stage window's openings behind in its zone; the Mermaid of it
 * valid.
 */
import { describe, expect, it } from 'vitest';
import { buildFleetReport } from '../../src/fleet/report-build.js';
import { fleetTimelineSection } from '../../src/fleet/report-pictures.js';
import type { FleetEvent } from '../../src/fleet/types.js';
import { mermaidBlock, validateGantt } from '../support/mermaid-gantt.js';
import { planEvent } from './plan-fixture.js';

const t = (s: number) => new Date(Date.UTC(2026, 10, 28, 1, 0, s)).toISOString(); // a Saturday, 02:00 in Berlin

const events: FleetEvent[] = [
  planEvent(t(0), [
    { name: 'canary', clusters: ['s1'], maxConcurrency: 1, failureThreshold: 1, approval: false, soakMs: 1_800_000 },
    { name: 'wave-1', clusters: ['s2', 's3', 's4'], maxConcurrency: 2, failureThreshold: 1, approval: true, window: { days: ['Sat', 'Sun'], start: '02:00', hours: 4, timeZone: 'Europe/Berlin' } },
  ]),
  { type: 'stage.started', at: t(1), stage: 'canary' },
  { type: 'cluster.started', at: t(2), cluster: 's1', session: 'x1', attempt: 1, resumed: false },
  { type: 'cluster.ended', at: t(62), cluster: 's1', session: 'x1', outcome: 'done', exitCode: 0 },
  { type: 'stage.soak.started', at: t(62), stage: 'canary', until: t(1862), untilWall: t(1862) },
  { type: 'stage.ended', at: t(1862), stage: 'canary', outcome: 'done' },
  { type: 'cluster.skipped', at: t(1900), cluster: 's4', reason: 'store closed', by: 'bo@desk' },
  { type: 'stage.approved', at: t(2000), stage: 'wave-1', by: 'ana@jump', how: 'key y' },
  { type: 'stage.started', at: t(2001), stage: 'wave-1' },
  { type: 'cluster.started', at: t(2002), cluster: 's2', session: 'x2', attempt: 1, resumed: false },
  { type: 'cluster.started', at: t(2003), cluster: 's3', session: 'x3', attempt: 1, resumed: false },
  { type: 'cluster.ended', at: t(2100), cluster: 's2', session: 'x2', outcome: 'failed', exitCode: 1, message: 'cni failed on s2' },
  { type: 'cluster.ended', at: t(2110), cluster: 's3', session: 'x3', outcome: 'done', exitCode: 0 },
  { type: 'stage.ended', at: t(2111), stage: 'wave-1', outcome: 'failed', message: '1 failure(s) reached the threshold 1 (last: s2)' },
  { type: 'cluster.started', at: t(2500), cluster: 's2', session: 'x2', attempt: 2, resumed: true },
  { type: 'cluster.ended', at: t(2600), cluster: 's2', session: 'x2', outcome: 'done', exitCode: 0 },
];

describe('the fleet timeline', () => {
  const report = buildFleetReport({ events, sessionReport: () => undefined, fleetFlags: '--fleet edge.yaml', now: new Date(t(3000)) });
  const tl = report.timeline;

  it('draws each stage: the runs, the soak, the gate wait, the skip; the retry after the halt within the axis', () => {
    expect(tl.sections.map((s) => s.title)).toEqual(['Stage canary (1 cluster, 1 at a time)', 'Stage wave-1 (3 clusters, 2 at a time)']);
    const rows = tl.sections.flatMap((s) => s.bars.map((b) => [b.label, b.by, b.status, b.from, b.to]));
    expect(rows).toEqual([
      ['s1', 'cluster', 'ok', t(2), t(62)],
      ['soak', 'cluster', 'ok', t(62), t(1862)],
      ['gate stage wave-1', 'operator', 'ok', t(1862), t(2000)],
      ['s4 skipped', 'operator', 'skipped', t(1900), t(1900)],
      ['s2', 'cluster', 'failed', t(2002), t(2100)],
      ['s3', 'cluster', 'ok', t(2003), t(2110)],
      ['s2 retry 1', 'cluster', 'ok', t(2500), t(2600)],
    ]);
    expect(tl.from).toBe(t(1));
    expect(tl.to).toBe(t(2600));
    expect(tl.marks).toEqual([{ at: t(2111), label: 'stage wave-1 halted: 1 failure(s) reached the threshold 1 (last: s2)', status: 'failed' }]);
    expect(tl.sections[1]!.bars.find((b) => b.label === 's2')!.note).toBe('cni failed on s2');
  });

  it("draws the stage window's opening in its zone behind, and the zone is the window's", () => {
    expect(tl.timeZone).toBe('Europe/Berlin');
    // Saturday 02:00-06:00 in Berlin is 01:00-05:00 UTC.
    expect(tl.windows).toEqual([{ from: '2026-11-28T01:00:00.000Z', to: '2026-11-28T05:00:00.000Z', label: 'stage wave-1 window (Sat, Sun 02:00 for 4 h, Europe/Berlin)' }]);
  });

  it("report.md's gantt of it is valid", () => {
    const g = validateGantt(mermaidBlock(fleetTimelineSection(report).join('\n'))!);
    expect(g.problems).toEqual([]);
    expect(g.tasks.find((x) => x.name.startsWith('s2 ·'))!.tags).toEqual(['crit']);
  });
});
