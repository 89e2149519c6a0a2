/**
 * The step list's rows, pure: every step with its whole title (wrapped under itself when it is
 * longer than the list is wide, never cut), hop headings between, and - when the list is taller
 * than its room - a window around the selected step with a line above and below saying how many
 * steps are hidden there and which way. Counted in terminal lines, so the window is exact.
 */
import { isPlaceholder, type Entry, type StepState } from '../engine/state.js';
import { wrapText } from './migrations-wrap.js';

export interface StepRow {
  key: string;
  /** The title's lines: the first beside the icon, the rest indented under it. */
  lines: string[];
  /** Absent for a hop heading; a step without `entry` is the hops' placeholder before the plan. */
  step?: { entry?: StepState; selected: boolean };
}

export interface StepWindow {
  rows: StepRow[];
  /** Steps hidden above and below the window (headings not counted). */
  above: number;
  below: number;
}

/** Columns the duration takes at the right of a step's first line (when the list has room for it). */
export const TIME_WIDTH = 7;
export const showsTime = (width: number) => width >= 29;

export function stepRows(entries: readonly Entry[], selectedId: string | undefined, width: number): StepRow[] {
  const rows: StepRow[] = [];
  const time = showsTime(width) ? TIME_WIDTH : 0;
  const titled = (key: string, text: string, step: StepRow['step']): StepRow => ({ key, lines: wrapText(text, width - 2, 2, width - 2 - time), step });
  let lastHop: string | undefined;
  for (const e of entries) {
    if (isPlaceholder(e)) {
      rows.push(titled(e.id, `${e.title} (after the plan)`, { selected: false }));
      continue;
    }
    const hopKey = e.group ? `${e.group}${e.hop?.index ?? ''}` : undefined;
    if (hopKey !== lastHop && e.group) {
      const heading = e.hop ? `Hop ${e.hop.index}/${e.hop.count}: ${e.hop.from} → ${e.hop.to}` : 'No hops: settle and check';
      rows.push({ key: `h-${hopKey}`, lines: wrapText(heading, width, 2) });
    }
    lastHop = hopKey;
    rows.push(titled(e.id, `${e.group ? '  ' : ''}${e.title}`, { entry: e, selected: e.id === selectedId }));
  }
  return rows;
}

const stepsIn = (rows: readonly StepRow[]) => rows.filter((r) => r.step).length;

/**
 * The rows that fit in `height` lines around the selected one. When some are hidden, one line above
 * (or below) says so; the window grows towards the side with room once it reaches an end.
 */
export function stepWindow(rows: readonly StepRow[], height: number): StepWindow {
  const size = (r: StepRow) => r.lines.length;
  if (rows.reduce((n, r) => n + size(r), 0) <= height) return { rows: [...rows], above: 0, below: 0 };
  const selected = Math.max(0, rows.findIndex((r) => r.step?.selected));
  let lo = selected;
  let hi = selected;
  let used = size(rows[selected]!);
  const last = rows.length - 1;
  // Lines left for rows once the notes a window from `a` to `b` needs ("above", "below") are placed.
  const room = (a: number, b: number) => height - (a > 0 ? 1 : 0) - (b < last ? 1 : 0);
  for (let grew = true; grew; ) {
    grew = false;
    if (hi < last && used + size(rows[hi + 1]!) <= room(lo, hi + 1)) {
      used += size(rows[++hi]!);
      grew = true;
    }
    if (lo > 0 && used + size(rows[lo - 1]!) <= room(lo - 1, hi)) {
      used += size(rows[--lo]!);
      grew = true;
    }
  }
  // The selected row alone may not fit: it is cut to the room left rather than pushing the notes off.
  const shown = rows.slice(lo, hi + 1);
  if (used > room(lo, hi)) shown[0] = { ...shown[0]!, lines: shown[0]!.lines.slice(0, Math.max(1, room(lo, hi))) };
  return { rows: shown, above: stepsIn(rows.slice(0, lo)), below: stepsIn(rows.slice(hi + 1)) };
}
