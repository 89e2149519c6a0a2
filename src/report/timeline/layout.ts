/**
 * Laying the timeline on a width: the axis's range (the booked window included when it ends near
 * the run, cut at the run's end when it runs far past it), and a scale from time to position that
 * folds a long wait of the operator's (a night stopped at a gate) into a short break, so the work
 * around it stays readable. The SVG and the text bars share it. Pure.
 */
import type { Timeline } from './schema.js';
import { ticks, tickStep } from './ticks.js';

export interface AxisBreak {
  /** The time folded away, and where the fold sits on the width. */
  from: number;
  to: number;
  x0: number;
  x1: number;
}

export interface Scale {
  from: number;
  to: number;
  width: number;
  breaks: AxisBreak[];
  /** A time's position on [0, width]; times outside the range are clamped. */
  x(t: number): number;
}

/** A window or a forecast that ends within this share of the run's length past its end widens the axis to show its end. */
const WINDOW_REACH = 0.6;
/** An operator's wait longer than this share of the axis is folded. */
const FOLD_SHARE = 0.3;

export function axisRange(t: Timeline): { from: number; to: number } {
  const from = Date.parse(t.from);
  let to = Math.max(Date.parse(t.to), from + 1000);
  const length = to - from;
  // The window's end and the last hop's predicted p90 are worth a little more axis; far ones are cut.
  const ends = [...t.windows.map((w) => Date.parse(w.to)), ...t.sections.flatMap((s) => (s.forecast ? [Date.parse(s.forecast.p90At)] : []))];
  for (const end of ends.sort((a, b) => a - b)) if (end > to && end - Date.parse(t.to) <= WINDOW_REACH * length) to = end;
  return { from, to };
}

/** Spans where only the operator's time passed (no step and no cluster work ran), merged, in order. */
function operatorOnly(t: Timeline): Array<[number, number]> {
  const busy = t.sections.flatMap((s) => s.bars.filter((b) => b.by !== 'operator').map((b): [number, number] => [Date.parse(b.from), Date.parse(b.to)]));
  const waits = t.sections
    .flatMap((s) => s.bars.filter((b) => b.by === 'operator').map((b): [number, number] => [Date.parse(b.from), Date.parse(b.to)]))
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const w of waits) {
    const last = merged.at(-1);
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else merged.push([...w]);
  }
  // Cut what work overlaps off each wait: only the idle middle may fold.
  return merged.flatMap(([a, b]) => {
    let pieces: Array<[number, number]> = [[a, b]];
    for (const [x, y] of busy) pieces = pieces.flatMap(([p, q]): Array<[number, number]> => (y <= p || x >= q ? [[p, q]] : [...(x > p ? [[p, x] as [number, number]] : []), ...(y < q ? [[y, q] as [number, number]] : [])]));
    return pieces;
  });
}

/**
 * The scale for `width` units; each folded wait takes `foldWidth` units. Folding happens only when
 * the width has room for it and a wait is long beside the rest.
 */
export function layoutScale(t: Timeline, width: number, foldWidth: number): Scale {
  const { from, to } = axisRange(t);
  const span = to - from;
  const long = operatorOnly(t)
    .map(([a, b]): [number, number] => [Math.max(a, from), Math.min(b, to)])
    .filter(([a, b]) => b - a > FOLD_SHARE * span);
  const folded = long.reduce((n, [a, b]) => n + (b - a), 0);
  const margin = 0.02 * (span - folded);
  const cuts = long.map(([a, b]): [number, number] => [a + margin, b - margin]).filter(([a, b]) => b > a);
  const foldUnits = cuts.length * foldWidth;
  if (!cuts.length || width - foldUnits < width * 0.5) return linear(from, to, width);
  const linearTime = span - cuts.reduce((n, [a, b]) => n + (b - a), 0);
  const perMs = (width - foldUnits) / linearTime;
  const breaks: AxisBreak[] = [];
  let x = 0;
  let t0 = from;
  for (const [a, b] of cuts) {
    x += (a - t0) * perMs;
    breaks.push({ from: a, to: b, x0: x, x1: x + foldWidth });
    x += foldWidth;
    t0 = b;
  }
  const position = (t: number): number => {
    let before = 0;
    let at = from;
    let pos = 0;
    for (const br of breaks) {
      if (t < br.from) break;
      pos = br.x0 + (Math.min(t, br.to) - br.from) * (foldWidth / (br.to - br.from));
      before = br.x1;
      at = br.to;
      if (t <= br.to) return pos;
    }
    return before + (t - at) * perMs;
  };
  return { from, to, width, breaks, x: (t) => Math.min(width, Math.max(0, position(Math.min(to, Math.max(from, t))))) };
}

function linear(from: number, to: number, width: number): Scale {
  const perMs = width / (to - from);
  return { from, to, width, breaks: [], x: (t) => Math.min(width, Math.max(0, (Math.min(to, Math.max(from, t)) - from) * perMs)) };
}

export type LegendKind = 'tool' | 'cluster' | 'operator' | 'failed' | 'unended' | 'skipped' | 'forecast' | 'window';

/** Which kinds of bar the timeline holds, in the legend's order: a legend names only what is drawn. */
export function legendKinds(t: Timeline): LegendKind[] {
  const bars = t.sections.flatMap((s) => s.bars);
  const has = (test: (b: (typeof bars)[number]) => boolean) => bars.some(test);
  const found: Array<[LegendKind, boolean]> = [
    ['tool', has((b) => b.by === 'tool' && b.status === 'ok')],
    ['cluster', has((b) => b.by === 'cluster' && b.status === 'ok')],
    ['operator', has((b) => b.by === 'operator' && b.status === 'ok')],
    ['failed', has((b) => b.status === 'failed')],
    ['unended', has((b) => b.status === 'running' || b.status === 'halted')],
    ['skipped', has((b) => b.status === 'skipped')],
    ['forecast', t.sections.some((s) => s.forecast)],
    ['window', t.windows.length > 0],
  ];
  return found.filter(([, yes]) => yes).map(([k]) => k);
}

/**
 * The axis's ticks, segment by segment between the folds: each stretch of the axis gets round times
 * for its own length and width (a fold of ten hours leaves the hour around it its minutes), at most
 * one per `labelWidth` units. Positions are the scale's; overlap is the caller's to avoid.
 */
export function axisTicks(scale: Scale, zone: string, labelWidth: number): Array<{ at: number; x: number; label: string }> {
  const edges: Array<[number, number]> = [];
  let a = scale.from;
  for (const b of scale.breaks) {
    edges.push([a, b.from]);
    a = b.to;
  }
  edges.push([a, scale.to]);
  return edges.flatMap(([from, to]) => {
    const width = scale.x(to) - scale.x(from);
    if (to <= from || width < labelWidth) return [];
    const step = tickStep(to - from, Math.max(1, Math.floor(width / labelWidth)));
    return ticks(from, to, step.ms, zone).map((t) => ({ at: t.at, x: scale.x(t.at), label: t.label }));
  });
}
