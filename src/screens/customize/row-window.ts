/**
 * Which rows of a list fit in `room` terminal rows when rows take different heights (a wrapped
 * difference, a pack with its counts under it), keeping the focused row in view with some of what
 * is before it. Only whole rows are drawn; a focused row taller than the room is drawn alone, and
 * the caller says how to see it whole. Pure.
 */
export interface RowWindow {
  /** First row drawn. */
  start: number;
  /** One past the last row drawn. */
  end: number;
  /** The focused row alone is taller than the room. */
  clipped: boolean;
}

export function rowWindow(heights: readonly number[], focus: number, room: number): RowWindow {
  const n = heights.length;
  if (n === 0) return { start: 0, end: 0, clipped: false };
  const at = Math.min(Math.max(0, focus), n - 1);
  const h = (i: number) => Math.max(1, heights[i] ?? 1);
  if (h(at) >= room) return { start: at, end: at + 1, clipped: h(at) > room };
  let start = at;
  let end = at + 1;
  let used = h(at);
  // Up to half the room for the rows before the focus, then the rows after it, then the rest before.
  while (start > 0 && used + h(start - 1) <= Math.floor(room / 2)) used += h(--start);
  while (end < n && used + h(end) <= room) used += h(end++);
  while (start > 0 && used + h(start - 1) <= room) used += h(--start);
  return { start, end, clipped: false };
}
