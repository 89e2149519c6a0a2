/**
 * Where the fleet screen's selection and window are: pure, tested with tables of key sequences.
 * ↑↓ (k/j) move one line, PgDn/PgUp a page, g/G (Home/End) the top and the bottom; the window
 * follows the selection so the selected row is always on screen, and both stay inside the lines
 * (clusters come and go from a frozen plan: never, but a terminal shrinks).
 */
import type { KeyPress } from '../screens/keys/key-press.js';
import type { FleetLine } from './fleet-rows.js';

export interface FleetView {
  /** The selected line. */
  selected: number;
  /** The first line in the window. */
  offset: number;
}

/** The view within the lines and the window's height, the selection in the window. */
export function fleetView(lines: readonly FleetLine[], v: FleetView, height: number): FleetView {
  const last = Math.max(0, lines.length - 1);
  const selected = Math.min(last, Math.max(0, v.selected));
  const page = Math.max(1, height);
  let offset = Math.min(Math.max(0, lines.length - page), Math.max(0, v.offset));
  if (selected < offset) offset = selected;
  if (selected >= offset + page) offset = selected - page + 1;
  return { selected, offset };
}

/** The view after a key, or undefined when the key does not move it. */
export function moveSelection(lines: readonly FleetLine[], v: FleetView, k: KeyPress, height: number): FleetView | undefined {
  const page = Math.max(1, height);
  const at = fleetView(lines, v, height);
  const to = (selected: number, offset = at.offset) => fleetView(lines, { selected, offset }, height);
  if (k.name === 'up' || k.text === 'k') return to(at.selected - 1);
  if (k.name === 'down' || k.text === 'j') return to(at.selected + 1);
  if (k.name === 'pageDown') return to(at.selected + page, at.offset + page);
  if (k.name === 'pageUp') return to(at.selected - page, at.offset - page);
  if (k.name === 'home' || k.text === 'g') return to(0, 0);
  if (k.name === 'end' || k.text === 'G') return to(lines.length - 1, lines.length);
  return undefined;
}
