/**
 * Where everything goes on a terminal of a given size, and whether it fits at all. Pure, tested
 * with tables of sizes. The rule that matters: a gate's options and the key line are always on
 * screen; when even the smallest gate cannot show them, the app shows "terminal too small" and
 * no gate takes a key.
 */
import type { GateRequest } from '../engine/gate.js';
import { sanitizeText } from '../text/sanitize.js';
import { wrapText } from './migrations-wrap.js';

/** Below this the app does not draw at all. */
export const MIN_SIZE = { columns: 60, rows: 18 } as const;

export interface AppLayout {
  columns: number;
  rows: number;
  /** The step list's width; 0 when the terminal is too narrow for it, or a gate takes the width. */
  listWidth: number;
  /** At a gate: one line above its box saying where in the runbook it is (the step list makes way for the gate). */
  contextRows: number;
  /** The right-hand pane (its padding included). */
  paneWidth: number;
  paneHeight: number;
  /** Lines of the recent-actions log above the key line. */
  logRows: number;
}

/**
 * `gate`: a gate's box is on screen. It takes the terminal's whole width (the step list makes way,
 * a line above the box says where in the runbook it is), so what it says wraps at the width there
 * is instead of a column beside a list.
 */
export function appLayout(columns: number, rows: number, gate = false): AppLayout {
  const listWidth = gate ? 0 : columns >= 110 ? 36 : columns >= 90 ? 32 : columns >= 80 ? 28 : 0;
  const logRows = rows >= 30 ? 2 : 1;
  // Header, log and key line, and one row spare: a frame as tall as the terminal makes it scroll.
  const paneHeight = Math.max(1, rows - 3 - logRows);
  // One column spare: writing into the last column makes some terminals wrap.
  const paneWidth = Math.max(1, columns - listWidth - 1);
  return { columns, rows, listWidth, contextRows: gate ? 1 : 0, paneWidth, paneHeight, logRows };
}

/** The width of text inside a gate's box (pane padding, box border and padding). */
export const gateTextWidth = (layout: AppLayout): number => Math.max(10, layout.paneWidth - 6);

export function optionText(option: GateRequest['options'][number], focused: boolean, safe: boolean, showSafe: boolean): string {
  return `${focused ? '❯ ' : '  '}[${option.key}] ${sanitizeText(option.label, { max: 300 })}${safe && showSafe ? ' (safe default)' : ''}`;
}

/** The gate's title and options as rows of exactly `width`: counted here, drawn as counted. */
export function gateRows(request: Pick<GateRequest, 'title' | 'options' | 'safeChoice'>, width: number, rehearsal: boolean, focus: number): { title: string[]; options: string[][] } {
  const title = wrapText(`${rehearsal ? '[REHEARSAL] ' : ''}GATE: ${sanitizeText(request.title, { max: 300 })}`, width, 2);
  const showSafe = request.options.length > 1;
  const options = request.options.map((o, i) => wrapText(optionText(o, i === focus, o.choice === request.safeChoice, showSafe), width, 6));
  return { title, options };
}

/** Rows a gate needs besides its content: border, title, options, the scroll line, and room to type a name. */
export function gatePinnedRows(request: Pick<GateRequest, 'title' | 'options' | 'safeChoice' | 'confirmText' | 'secretInputs'>, width: number, rehearsal: boolean): number {
  const { title, options } = gateRows(request, width, rehearsal, 0);
  // Typing a name to confirm, or a hidden value: a prompt, the input and a line for what went wrong.
  const typing = (request.confirmText || request.secretInputs?.length) && !rehearsal ? 3 : 0;
  return 2 + title.length + Math.max(options.reduce((n, o) => n + o.length, 0), typing) + 1;
}

/** At least this much of a gate's content shows, or the terminal is too small for the gate. */
export const MIN_GATE_CONTENT = 3;

/** The size the terminal needs for this screen, when it has less; undefined when it fits. */
export function tooSmall(columns: number, rows: number, gate?: Pick<GateRequest, 'title' | 'options' | 'safeChoice' | 'confirmText'>, rehearsal = false): { columns: number; rows: number } | undefined {
  const need: { columns: number; rows: number } = { columns: MIN_SIZE.columns, rows: MIN_SIZE.rows };
  if (gate && columns >= MIN_SIZE.columns) {
    const layout = appLayout(columns, Math.max(rows, MIN_SIZE.rows), true);
    const gateNeeds = gatePinnedRows(gate, gateTextWidth(layout), rehearsal) + MIN_GATE_CONTENT + layout.contextRows;
    need.rows = Math.max(need.rows, Math.max(rows, MIN_SIZE.rows) + gateNeeds - layout.paneHeight);
  }
  return columns < need.columns || rows < need.rows ? need : undefined;
}

/**
 * Rows a gate's own text takes in its scrolling part (what it says, its items, its warnings), so
 * the step's screen under it can be given the rest: a table then fills the gate instead of
 * leaving rows empty below it.
 */
export function gateTextRows(request: Pick<GateRequest, 'lines' | 'items' | 'warnings' | 'ifStopped'>, width: number, rehearsal: boolean): number {
  const rows = (text: string, hanging = 0) => wrapText(sanitizeText(text, { max: 2000 }), width, hanging).length;
  const items = request.items ?? [];
  return (
    (rehearsal ? rows('This is what you would be asked. A rehearsal sends nothing, so no approval is needed.') : 0) +
    request.lines.reduce((n, l) => n + rows(l), 0) +
    (request.ifStopped ? rows(`If you stop here: ${request.ifStopped}`) : 0) +
    (items.length ? 1 + items.slice(0, 200).reduce((n, i) => n + wrapText(sanitizeText(i, { max: 500 }), width - 4, 0).length, 0) + (items.length > 200 ? 1 : 0) : 0) +
    (request.warnings ?? []).reduce((n, w) => n + rows(`⚠ WARNING: ${w}`), 0)
  );
}
