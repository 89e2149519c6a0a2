/**
 * The timeline as text bars for a terminal of a given width: one row per bar (its label, the bar on
 * the shared axis, how long it took), the axis in UTC and the cluster's local time, the booked
 * window, each hop's predicted p50..p90, and the end. `report --timeline` prints it; the TUI's end
 * screen colours the same pieces. Every line fits `columns`. Pure.
 */
import { shortenMiddle } from '../../text/shorten-middle.js';
import { axisTicks, layoutScale, legendKinds, type LegendKind, type Scale } from './layout.js';
import type { Timeline, TimelineBar } from './schema.js';
import { tickLabel, zoneText } from './ticks.js';
import { durationRange, formatDuration, roughDuration } from '../../text/duration.js';

export type TextTone = 'tool' | 'cluster' | 'operator' | 'failed' | 'running' | 'forecast' | 'window' | 'muted' | 'heading' | 'ok' | 'stopped';

export interface TextPiece {
  text: string;
  tone?: TextTone;
}

export type TextLine = TextPiece[];

/** The cell each kind of bar is drawn with: readable without colour. */
export const glyph = { tool: '█', cluster: '▓', operator: '░', failed: '✖', running: '▚', skipped: '◇', fold: '≈', window: '═', forecastLead: '┄', forecastBand: '▒', mark: '◆' } as const;

const toneOf = (b: TimelineBar): TextTone => (b.status === 'failed' ? 'failed' : b.status === 'running' || b.status === 'halted' ? 'running' : b.status === 'skipped' ? 'muted' : b.by);

const charOf = (b: TimelineBar): string => (b.status === 'failed' ? glyph.failed : b.status === 'running' || b.status === 'halted' ? glyph.running : b.status === 'skipped' ? glyph.skipped : glyph[b.by]);

interface Grid {
  indent: number;
  label: number;
  bar: number;
  right: number;
}

/** Column widths for the terminal: the label gets more room on a wide one. */
export function gridFor(columns: number): Grid {
  const label = columns >= 120 ? 32 : columns >= 100 ? 28 : columns >= 70 ? 22 : 14;
  const right = 9;
  return { indent: 2, label, right, bar: Math.max(10, columns - 2 - label - 1 - 1 - right) };
}

/** The cells [first, last] a span covers: at least one. */
function cells(scale: Scale, from: number, to: number): [number, number] {
  const first = Math.min(scale.width - 1, Math.floor(scale.x(from)));
  const last = Math.max(first, Math.min(scale.width - 1, Math.ceil(scale.x(to)) - 1));
  return [first, last];
}

/** A bar row's middle: spaces, the bar's cells, a fold where it crosses one. */
function barCells(scale: Scale, from: number, to: number, fill: string, tone: TextTone): TextLine {
  const [a, b] = cells(scale, from, to);
  const folds = new Set(scale.breaks.filter((br) => br.from >= from && br.to <= to).flatMap((br) => range(Math.floor(br.x0), Math.max(Math.floor(br.x0), Math.ceil(br.x1) - 1))));
  let inside = '';
  for (let c = a; c <= b; c++) inside += folds.has(c) ? glyph.fold : fill;
  return [{ text: ' '.repeat(a) }, { text: inside, tone }, { text: ' '.repeat(scale.width - b - 1) }];
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function row(g: Grid, label: string, middle: TextLine, right: string, labelTone?: TextTone): TextLine {
  return [{ text: ' '.repeat(g.indent) }, { text: shortenMiddle(label, g.label).padEnd(g.label), ...(labelTone ? { tone: labelTone } : {}) }, { text: ' ' }, ...middle, { text: ' ' }, { text: right.slice(0, g.right).padStart(g.right), tone: 'muted' }];
}

/** An axis line: the start to the second, the folds, then each tick's label where it touches nothing. */
function axisLine(g: Grid, scale: Scale, zone: string, name: string): TextLine {
  const chars = Array<string>(g.bar).fill(' ');
  const used = Array<boolean>(g.bar).fill(false);
  const put = (at: number, text: string) => [...text].forEach((ch, i) => ((chars[at + i] = ch), (used[at + i] = true)));
  const free = (from: number, to: number) => from >= 0 && to < g.bar && used.slice(Math.max(0, from - 1), Math.min(g.bar, to + 2)).every((u) => !u);
  put(0, tickLabel(scale.from, zone, 1000));
  for (const b of scale.breaks) for (let c = Math.floor(b.x0); c < Math.min(g.bar, Math.ceil(b.x1)); c++) if (!used[c]) put(c, glyph.fold);
  const probe = scale.to - scale.from < 15 * 60_000 ? 8 : 5;
  for (const t of axisTicks(scale, zone, probe + 3)) {
    const at = Math.round(t.x);
    if (free(at, at + t.label.length - 1)) put(at, t.label);
  }
  return row(g, name, [{ text: chars.join(''), tone: 'muted' }], '', 'muted');
}

const dur = (from: string, to: string) => formatDuration(Math.max(0, Date.parse(to) - Date.parse(from)));

function heading(text: string, columns: number): TextLine {
  return [{ text: shortenMiddle(text, columns), tone: 'heading' }];
}

export function timelineText(t: Timeline, columns: number, title = 'Timeline'): TextLine[] {
  const g = gridFor(columns);
  const scale = layoutScale(t, g.bar, 3);
  const at = (iso: string) => Date.parse(iso);
  const local = t.timeZone !== 'UTC' && t.timeZone !== 'Etc/UTC';
  const lab = t.labSpeed ? ' lab time' : '';
  const out: TextLine[] = [heading(`${title} · ${t.from.slice(0, 10)}`, columns)];
  out.push(axisLine(g, scale, 'UTC', 'UTC'));
  if (local) out.push(axisLine(g, scale, t.timeZone, zoneText(t.timeZone, scale.from, true)));
  for (const w of t.windows) {
    const past = at(w.to) > scale.to;
    const middle = barCells(scale, at(w.from), Math.min(at(w.to), scale.to), glyph.window, 'window');
    if (past) middle[1] = { text: `${middle[1]!.text.slice(0, -1)}→`, tone: 'window' };
    // Its length as booked (lab time in a lab), not as drawn.
    const booked = formatDuration((at(w.to) - at(w.from)) * (t.labSpeed ?? 1));
    out.push(row(g, 'booked window', middle, `${booked}${t.labSpeed ? ' lab' : ''}`, 'muted'));
  }
  for (const s of t.sections) {
    const f = s.forecast;
    const took = f?.tookSeconds !== undefined ? `, took ${roughDuration(f.tookSeconds)}${lab}` : '';
    out.push(heading(`${s.title}${f ? ` · planned ${durationRange(f.p50Seconds, f.p90Seconds)}${lab}${took}` : ''}`, columns));
    for (const b of s.bars) {
      // An instant (a skip) says when; a span how long.
      const right = b.from === b.to ? b.from.slice(11, 19) : `${b.status === 'failed' ? `${glyph.failed} ` : ''}${dur(b.from, b.to)}`;
      out.push(row(g, b.label, barCells(scale, at(b.from), at(b.to), charOf(b), toneOf(b)), right, b.status === 'failed' ? 'failed' : undefined));
    }
    if (f) {
      // One row: a lead from the send up to the median end, then the band to the 90th percentile.
      const [a] = cells(scale, at(f.from), at(f.p50At));
      const [b, c] = cells(scale, at(f.p50At), at(f.p90At));
      const leadText = glyph.forecastLead.repeat(Math.max(0, b - a));
      out.push(row(g, 'predicted p50..p90', [{ text: ' '.repeat(a) }, { text: leadText, tone: 'forecast' }, { text: glyph.forecastBand.repeat(c - b + 1), tone: 'forecast' }, { text: ' '.repeat(g.bar - c - 1) }], durationRange(f.p50Seconds, f.p90Seconds), 'muted'));
    }
  }
  if (t.marks.length) {
    out.push(heading('End', columns));
    for (const m of t.marks) {
      const [a] = cells(scale, at(m.at), at(m.at));
      const tone: TextTone = m.status === 'failed' ? 'failed' : m.status === 'stopped' ? 'stopped' : 'ok';
      out.push(row(g, m.label, [{ text: ' '.repeat(a) }, { text: glyph.mark, tone }, { text: ' '.repeat(g.bar - a - 1) }], m.at.slice(11, 19), tone));
    }
  }
  out.push(...legend(t, columns));
  return out;
}

/** What the glyphs mean, for the kinds this timeline holds. */
function legend(t: Timeline, columns: number): TextLine[] {
  const words: Record<LegendKind, string | undefined> = {
    tool: `${glyph.tool} the tool's steps`,
    cluster: `${glyph.cluster} the cluster's work`,
    operator: `${glyph.operator} waits for the operator`,
    failed: `${glyph.failed} failed`,
    unended: `${glyph.running} not ended`,
    skipped: `${glyph.skipped} skipped`,
    forecast: `${glyph.forecastBand} predicted p50..p90`,
    window: undefined,
  };
  const parts = [...legendKinds(t).flatMap((k) => words[k] ?? []), ...(t.labSpeed ? [`lab time drawn at ${t.labSpeed}x`] : [])];
  // As many lines as it takes: a legend that loses an entry misleads.
  const lines: string[] = [];
  for (const p of parts) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 2 + p.length <= columns) lines[lines.length - 1] = `${last}  ${p}`;
    else lines.push(shortenMiddle(p, columns));
  }
  return lines.map((text) => [{ text, tone: 'muted' }]);
}

/** The lines as plain text (no colour). */
export const plainText = (lines: TextLine[]): string[] => lines.map((l) => l.map((p) => p.text).join('').trimEnd());

/** The width to fit: the terminal's, else `COLUMNS`, else 80; never under 50 or over 240. */
export function textColumns(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.COLUMNS);
  const n = stream.isTTY && stream.columns ? stream.columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
  return Math.min(240, Math.max(50, n));
}
