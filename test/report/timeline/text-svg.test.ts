/**
 * The timeline drawn (pure): as text bars every line fits 80 and 120 columns, each bar on its row
 * with its glyph where its time is, the operator's wait folded when long, the forecast row, the
 * zone's axis, a legend of only what is drawn; as SVG well-formed XML with no script, its bars the
 * timeline's at their times (ids, times, status as data attributes), every text escaped.
 */
import { describe, expect, it } from 'vitest';
import type { Timeline } from '../../../src/report/timeline/schema.js';
import { timelineSvg } from '../../../src/report/timeline/svg.js';
import { glyph, plainText, timelineText } from '../../../src/report/timeline/text.js';
import { svgBars } from '../../support/report-pictures.js';

const T0 = Date.parse('2026-12-02T01:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const timeline = (): Timeline => ({
  from: at(0),
  to: at(40_000),
  timeZone: 'Asia/Kolkata',
  windows: [{ from: at(0), to: at(14_400), label: 'booked window, 4h00m from the start (params window)' }],
  sections: [
    { id: 'before', title: 'Before the hops', bars: [{ id: 'before.preflight', label: 'preflight checks', from: at(0), to: at(60), by: 'tool', status: 'ok' }] },
    {
      id: 'hop1',
      title: 'Hop 1 4.4.10 → 4.5.4',
      bars: [
        { id: 'hop1.draft', label: 'drafts', from: at(60), to: at(120), by: 'tool', status: 'ok' },
        { id: 'hop1.stop1', label: 'stopped at the publish gate', from: at(120), to: at(36_000), by: 'operator', status: 'ok', note: 'resumed by bob@jump after 9h58m' },
        { id: 'hop1.reconcile', label: 'reconcile', from: at(36_010), to: at(37_000), by: 'cluster', status: 'ok' },
        { id: 'hop1.restart.<vm>&"x"', label: 'restart ns/<script>alert(1)</script>', from: at(37_000), to: at(37_100), by: 'cluster', status: 'failed', note: 'not back: "quoted" & <b>' },
      ],
      forecast: { from: at(36_010), p50At: at(37_000), p90At: at(38_000), p50Seconds: 990, p90Seconds: 1990, to: at(37_100), tookSeconds: 1090 },
    },
  ],
  marks: [{ at: at(40_000), label: 'done', status: 'ok' }],
});

describe('timelineText', () => {
  it.each([80, 120])('fits %i columns: each row on the axis, the long stop folded, the zone axis and a legend of what is drawn', (columns) => {
    const lines = plainText(timelineText(timeline(), columns, 'Upgrade of east'));
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(columns);
    expect(lines[0]).toBe('Upgrade of east · 2026-12-02');
    expect(lines[1]).toMatch(/^ {2}UTC +01:00:00 /);
    expect(lines[2]).toMatch(/^ {2}Asia\/Kolkata \+05:30 +06:30:00 /);
    const row = (label: string) => lines.find((l) => l.startsWith(`  ${label}`))!;
    // Ten hours stopped take a few cells: the fold, and the reconcile starts right after it.
    const stop = row('stopped at');
    expect(stop).toMatch(/░*≈+░+ +9h58m$/);
    expect(stop.lastIndexOf('░') - stop.search(/[░≈]/)).toBeLessThan(10);
    expect(row('reconcile').indexOf('▓')).toBeLessThanOrEqual(stop.lastIndexOf('░') + 2);
    expect(row('reconcile')).toMatch(/▓+ +16m30s$/);
    expect(row('restart ns')).toMatch(/✖+ +✖ 1m40s$/);
    expect(row('predicted p50..p90')).toMatch(/┄*▒+ +\S+/);
    expect(row('booked window')).toMatch(/═+→? +4h00m$/);
    expect(lines.join('\n')).toContain('█ the tool');
    expect(lines.join('\n')).not.toContain('skipped');
  });

  it('the preflight bar starts at the left edge of the bar column and the end mark sits at its right edge', () => {
    const lines = plainText(timelineText(timeline(), 80));
    const start = lines.find((l) => l.startsWith('  preflight'))!;
    const done = lines.find((l) => l.startsWith('  done'))!;
    expect(start.indexOf('█')).toBe(2 + 22 + 1);
    expect(done.indexOf(glyph.mark)).toBe(80 - 9 - 2);
  });
});

describe('timelineSvg', () => {
  it('is XML whose bars are the timeline’s, with every text escaped and no script', () => {
    const t = timeline();
    const svg = timelineSvg(t, 'Upgrade of <east> & "west"');
    expect(svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=|href=/i);
    expect(svg).toContain('restart ns/&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('<title id="tl-title">Upgrade of &lt;east&gt; &amp; &quot;west&quot;</title>');
    const bars = svgBars(svg);
    expect(bars.map((b) => b.id)).toEqual(t.sections.flatMap((s) => s.bars.map((b) => b.id)));
    expect(bars.find((b) => b.id === 'hop1.restart.<vm>&"x"')).toMatchObject({ status: 'failed', by: 'cluster', from: at(37_000), to: at(37_100) });
    // The long stop is folded: the drafts and the reconcile are not pushed to the edges.
    const x = (id: string) => bars.find((b) => b.id === id)!.x;
    expect(x('hop1.reconcile') - x('hop1.draft')).toBeLessThan(700);
    expect(svg).toContain('folded');
    expect(svg).toContain('Asia/Kolkata (UTC+05:30)');
    expect(svg).toMatch(/data-p50="2026-12-02T11:16:40.000Z" data-p90="2026-12-02T11:33:20.000Z"/);
  });
});
