/**
 * The timeline as an inline SVG for report.html, drawn by the product (no script, nothing fetched):
 * the axis in the cluster's local time above and UTC below, the booked window behind the bars (and
 * what ran past it hatched), each hop's predicted p50..p90 as a band beside what it took, bars
 * coloured by whose time it was (red for failures, amber for the operator's waits), long waits
 * folded. Every bar carries its id and times as data attributes, so a test can hold it to the JSON.
 * Every text is escaped. Pure.
 */
import { shortenMiddle } from '../../text/shorten-middle.js';
import { xmlText } from '../junit.js';
import { axisTicks, layoutScale, legendKinds, type LegendKind, type Scale } from './layout.js';
import type { Timeline, TimelineBar, TimelineForecast, TimelineMark } from './schema.js';
import { zoneText } from './ticks.js';
import { durationRange, formatDuration, roughDuration } from '../../text/duration.js';

export const SVG_WIDTH = 1120;
const LABEL = 260;
const RIGHT = 24;
const PLOT = SVG_WIDTH - LABEL - RIGHT;
const ROW = 22;
const HEAD = 26;
const BAR = 12;
const CHAR = 6.2; // an 11 px sans-serif character, on average

export const colours = {
  tool: '#3b5bdb',
  cluster: '#0c8599',
  operator: '#f59f00',
  failed: '#e03131',
  halted: '#868e96',
  skipped: '#ced4da',
  window: '#e6fcf5',
  windowEdge: '#63e6be',
  forecast: '#74c0fc',
  text: '#212529',
  muted: '#6c757d',
  grid: '#e9ecef',
} as const;

const e = (s: string) => xmlText(s, 2_000);
const n = (v: number) => (Math.round(v * 10) / 10).toString();
const at = (iso: string) => Date.parse(iso);

function fillOf(b: TimelineBar): string {
  if (b.status === 'failed') return colours.failed;
  if (b.status === 'running' || b.status === 'halted') return 'url(#tl-striped)';
  if (b.status === 'skipped') return colours.skipped;
  return colours[b.by];
}

const wordOf: Record<TimelineBar['status'], string> = { ok: '', failed: ' (failed)', running: ' (still running)', halted: ' (stopped here)', skipped: ' (skipped)' };

interface Ctx {
  scale: Scale;
  x: (t: number) => number;
  out: string[];
}

function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${n(x)}" y="${n(y)}"${attrs ? ` ${attrs}` : ''}>${e(s)}</text>`;
}

/** The note beside a bar: after it when it fits, else before it, else shortened on the roomier side (the tooltip has it whole). */
function noteText(b: Pick<TimelineBar, 'note'>, x0: number, x1: number, y: number): string {
  if (!b.note) return '';
  const width = b.note.length * CHAR;
  const after = SVG_WIDTH - 4 - (x1 + 6);
  const before = x0 - 6 - LABEL;
  if (width <= after) return text(x1 + 6, y, b.note, 'class="note"');
  if (width <= before) return text(x0 - 6, y, b.note, 'class="note" text-anchor="end"');
  const room = Math.floor(Math.max(after, before) / CHAR);
  if (room < 12) return '';
  return after >= before ? text(x1 + 6, y, shortenMiddle(b.note, room), 'class="note"') : text(x0 - 6, y, shortenMiddle(b.note, room), 'class="note" text-anchor="end"');
}

function barRow(c: Ctx, b: TimelineBar, y: number): void {
  const x0 = c.x(at(b.from));
  const x1 = Math.max(x0 + 2, c.x(at(b.to)));
  const tip = `${b.label}${wordOf[b.status]}: ${b.from.slice(11, 19)}-${b.to.slice(11, 19)} UTC (${formatDuration(at(b.to) - at(b.from))})${b.note ? ` · ${b.note}` : ''}`;
  const dashed = b.status === 'skipped' ? ` stroke="${colours.muted}" stroke-dasharray="3 2"` : '';
  const instant = b.from === b.to;
  c.out.push(
    `<g class="bar">`,
    text(14, y + ROW / 2 + 4, shortenMiddle(b.label, 40), `class="label${b.status === 'failed' ? ' failed' : ''}"`),
    `<rect data-bar-id="${e(b.id)}" data-from="${e(b.from)}" data-to="${e(b.to)}" data-by="${b.by}" data-status="${b.status}" x="${n(x0)}" y="${n(y + (ROW - BAR) / 2)}" width="${n(x1 - x0)}" height="${BAR}" rx="2" fill="${instant ? 'none' : fillOf(b)}"${instant ? '' : dashed}><title>${e(tip)}</title></rect>`,
    // An instant (a skip) is a diamond where it happened.
    instant ? `<path d="M${n(x0)},${n(y + ROW / 2 - 6)} l6,6 l-6,6 l-6,-6 z" fill="#fff" stroke="${b.status === 'failed' ? colours.failed : colours.muted}" stroke-width="1.5"/>` : '',
    noteText(b, instant ? x0 - 6 : x0, instant ? x0 + 6 : x1, y + ROW / 2 + 4),
    `</g>`,
  );
}

function forecastRow(c: Ctx, f: TimelineForecast, y: number, top: number, lab: string): void {
  const [x, p50, p90] = [c.x(at(f.from)), c.x(at(f.p50At)), c.x(at(f.p90At))];
  const mid = y + ROW / 2;
  const took = f.to ? `; took ${f.tookSeconds !== undefined ? `${roughDuration(f.tookSeconds)}${lab}` : formatDuration(at(f.to) - at(f.from))}` : '';
  c.out.push(
    `<g class="forecast">`,
    // The band of the predicted end over the whole hop, so its bars' ends read against it.
    `<rect x="${n(p50)}" y="${n(top)}" width="${n(Math.max(2, p90 - p50))}" height="${n(y + ROW - top)}" fill="${colours.forecast}" opacity="0.18"/>`,
    `<line x1="${n(p50)}" y1="${n(top)}" x2="${n(p50)}" y2="${n(y + ROW)}" stroke="${colours.forecast}" stroke-dasharray="3 3"/>`,
    `<line x1="${n(p90)}" y1="${n(top)}" x2="${n(p90)}" y2="${n(y + ROW)}" stroke="${colours.forecast}" stroke-dasharray="3 3"/>`,
    text(14, mid + 4, 'predicted p50..p90', 'class="label muted"'),
    `<line x1="${n(x)}" y1="${n(mid)}" x2="${n(p50)}" y2="${n(mid)}" stroke="${colours.forecast}" stroke-width="2" stroke-dasharray="4 3"/>`,
    `<rect data-forecast-from="${e(f.from)}" data-p50="${e(f.p50At)}" data-p90="${e(f.p90At)}" x="${n(p50)}" y="${n(mid - 5)}" width="${n(Math.max(2, p90 - p50))}" height="10" rx="5" fill="${colours.forecast}"/>`,
    noteText({ note: `planned ${durationRange(f.p50Seconds, f.p90Seconds)}${lab}${took}` }, x, Math.max(p90, p50 + 2), mid + 4),
    `</g>`,
  );
}

function axis(c: Ctx, y: number, zone: string, below: boolean): void {
  const label = zone === 'UTC' ? 'UTC' : zoneText(zone, c.scale.from);
  c.out.push(`<g class="axis">`, text(14, y, shortenMiddle(label, 42), 'class="axis-name"'));
  let free = LABEL - 30;
  for (const t of axisTicks(c.scale, zone, 80)) {
    const x = LABEL + t.x;
    if (x - (t.label.length * CHAR) / 2 < free) continue;
    c.out.push(text(x, y, t.label, 'text-anchor="middle"'), `<line x1="${n(x)}" y1="${n(below ? y - 14 : y + 4)}" x2="${n(x)}" y2="${n(below ? y - 10 : y + 8)}" stroke="${colours.muted}"/>`);
    free = x + (t.label.length * CHAR) / 2 + 8;
  }
  c.out.push('</g>');
}

function grid(c: Ctx, top: number, bottom: number): void {
  for (const t of axisTicks(c.scale, 'UTC', 80)) c.out.push(`<line x1="${n(LABEL + t.x)}" y1="${top}" x2="${n(LABEL + t.x)}" y2="${bottom}" stroke="${colours.grid}"/>`);
}

function windows(c: Ctx, t: Timeline, top: number, bottom: number): void {
  for (const w of t.windows) {
    const x0 = c.x(at(w.from));
    const x1 = c.x(Math.min(at(w.to), c.scale.to));
    c.out.push(`<rect class="window" x="${n(x0)}" y="${top}" width="${n(Math.max(1, x1 - x0))}" height="${bottom - top}" fill="${colours.window}"/>`);
    if (at(w.to) <= c.scale.to) {
      c.out.push(`<line x1="${n(x1)}" y1="${top}" x2="${n(x1)}" y2="${bottom}" stroke="${colours.windowEdge}" stroke-width="2"/>`);
      if (at(w.to) < c.scale.to) c.out.push(`<rect class="past-window" x="${n(x1)}" y="${top}" width="${n(LABEL + PLOT - x1)}" height="${bottom - top}" fill="url(#tl-past)"/>`);
    }
    const past = at(w.to) > c.scale.to ? `, ends ${w.to.slice(11, 19)} UTC (after the run)` : at(w.to) < at(t.to) ? `, ended ${w.to.slice(11, 19)} UTC: the run went past it` : `, ends ${w.to.slice(11, 19)} UTC`;
    c.out.push(text(Math.max(LABEL, x0), top - (t.timeZone === 'UTC' ? 6 : 24), `${w.label}${past}`, 'class="window-label"'));
  }
}

function folds(c: Ctx, top: number, bottom: number): void {
  for (const b of c.scale.breaks) {
    const [x0, x1] = [LABEL + b.x0, LABEL + b.x1];
    const zig = (x: number) => {
      let d = `M${n(x)},${top}`;
      for (let y = top; y < bottom; y += 8) d += ` L${n(x + 3)},${n(Math.min(bottom, y + 4))} L${n(x)},${n(Math.min(bottom, y + 8))}`;
      return d;
    };
    c.out.push(`<rect x="${n(x0)}" y="${top}" width="${n(x1 - x0)}" height="${bottom - top}" fill="#fff"/>`, `<path d="${zig(x0)}" stroke="${colours.muted}" fill="none"/>`, `<path d="${zig(x1 - 3)}" stroke="${colours.muted}" fill="none"/>`);
    c.out.push(text((x0 + x1) / 2, top - 4, `≈ ${formatDuration(b.to - b.from)} folded`, 'class="note" text-anchor="middle"'));
  }
}

function marks(c: Ctx, list: TimelineMark[], top: number, bottom: number): void {
  for (const m of list) {
    const x = c.x(at(m.at));
    const colour = m.status === 'failed' ? colours.failed : m.status === 'stopped' ? colours.operator : colours.tool;
    c.out.push(
      `<g class="mark" data-mark="${e(m.label)}" data-at="${e(m.at)}">`,
      `<line x1="${n(x)}" y1="${top}" x2="${n(x)}" y2="${bottom}" stroke="${colour}" stroke-dasharray="5 3"/>`,
      `<path d="M${n(x)},${bottom - 6} l6,6 l-6,6 l-6,-6 z" fill="${colour}"/>`,
      text(x - 8, bottom + 4, `${m.label} ${m.at.slice(11, 19)} UTC`, `class="mark-label" text-anchor="end"`),
      '</g>',
    );
  }
}

function legend(t: Timeline, y: number): string[] {
  const words: Record<LegendKind, [string, string]> = {
    tool: [colours.tool, "the tool's steps"],
    cluster: [colours.cluster, "the cluster's work"],
    operator: [colours.operator, 'waits for the operator'],
    failed: [colours.failed, 'failed'],
    unended: ['url(#tl-striped)', 'not ended'],
    skipped: [colours.skipped, 'skipped'],
    forecast: [colours.forecast, 'predicted end, p50..p90'],
    window: [colours.window, 'booked window'],
  };
  const items = legendKinds(t).map((k) => words[k]);
  const lab = t.labSpeed;
  const out: string[] = [];
  let x = 14;
  for (const [fill, label] of items) {
    out.push(`<rect x="${x}" y="${y - 9}" width="14" height="10" rx="2" fill="${fill}"${fill === colours.window ? ` stroke="${colours.windowEdge}"` : ''}/>`, text(x + 19, y, label, 'class="legend"'));
    x += 19 + label.length * CHAR + 18;
  }
  if (lab) out.push(text(x, y, `lab time drawn at its speed (${lab}x)`, 'class="legend"'));
  return out;
}

const defs = `<defs><pattern id="tl-striped" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${colours.halted}"/><rect width="3" height="6" fill="#dee2e6"/></pattern><pattern id="tl-past" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#fff5f5"/><rect width="2" height="8" fill="#ffc9c9"/></pattern></defs>`;

const style = `<style>text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:11px;fill:${colours.text}}.title{font-size:15px;font-weight:600}.sub,.muted,.axis-name{fill:${colours.muted}}.section-title{font-weight:600;font-size:12px}.label.failed{fill:${colours.failed};font-weight:600}.note,.legend{fill:#495057}.window-label{fill:#087f5b;font-size:10px}.mark-label{font-size:10px;fill:${colours.muted}}</style>`;

/** The SVG for `t`, titled `title`. */
export function timelineSvg(t: Timeline, title: string): string {
  const scale = layoutScale(t, PLOT, 28);
  const c: Ctx = { scale, x: (ms) => LABEL + scale.x(ms), out: [] };
  const local = t.timeZone !== 'UTC' && t.timeZone !== 'Etc/UTC';
  const lab = t.labSpeed ? ' lab time' : '';
  const top = (local ? 100 : 84) + (t.windows.length ? 14 : 0);
  const rows = t.sections.reduce((sum, s) => sum + HEAD + s.bars.length * ROW + (s.forecast ? ROW : 0), 0);
  const bottom = top + rows + 8;
  const height = bottom + 64;
  const body: string[] = [];
  const inner: Ctx = { ...c, out: body };
  let y = top;
  for (const s of t.sections) {
    const f = s.forecast;
    body.push(`<g class="section" data-section="${e(s.id)}">`, `<rect x="0" y="${y}" width="${SVG_WIDTH}" height="${HEAD - 4}" fill="#f1f3f5" opacity="0.85"/>`, text(8, y + 15, s.title, 'class="section-title"'));
    const sectionTop = y + HEAD - 4;
    y += HEAD;
    for (const b of s.bars) {
      barRow(inner, b, y);
      y += ROW;
    }
    if (f) {
      forecastRow(inner, f, y, sectionTop, lab);
      y += ROW;
    }
    body.push('</g>');
  }
  const head = [
    text(8, 22, title, 'class="title"'),
    text(8, 40, `${t.from.slice(0, 10)} · ${formatDuration(at(t.to) - at(t.from))} · times in ${local ? `${zoneText(t.timeZone, scale.from)} (above) and UTC (below)` : 'UTC'}`, 'class="sub"'),
    ...legend(t, 60),
  ];
  c.out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="timeline" viewBox="0 0 ${SVG_WIDTH} ${height}" width="${SVG_WIDTH}" height="${height}" role="img" aria-labelledby="tl-title"><title id="tl-title">${e(title)}</title>`, defs, style, ...head);
  if (local) axis(c, top - 8, t.timeZone, false);
  windows(c, t, top, bottom);
  grid(c, top, bottom);
  c.out.push(...body);
  folds(c, top, bottom);
  marks(c, t.marks, top, bottom);
  axis(c, bottom + 30, 'UTC', true);
  c.out.push('</svg>');
  return c.out.filter(Boolean).join('\n');
}
