/**
 * The keys of the conflicts confirmation that `c` opens when conflicts are undecided. It continues
 * only on its own key, `y` (a second `c` continues nothing), only once the whole list has been on
 * screen, and only when the guard time since it was drawn has passed; `n` and Esc go back to the
 * review with nothing decided; ↑↓ PgUp PgDn g G scroll. Pure, so hurried sequences are tables.
 */
import type { KeyPress } from '../keys/key-press.js';
import { scrollKey, type ScrollBounds } from '../keys/scroll-model.js';

export const CONTINUE_KEY = 'y';
export const BACK_KEY = 'n';

export interface ConfirmState {
  offset: number;
  /** The end of the list has been on screen (once seen, scrolling back up keeps it so). */
  seenEnd: boolean;
  /** Why the last key did nothing, when that needs saying. */
  note?: string;
}

export type ConfirmEffect = 'continue' | 'back';

export function initialConfirm(bounds: Pick<ScrollBounds, 'total' | 'page'>): ConfirmState {
  return { offset: 0, seenEnd: bounds.total <= bounds.page };
}

const seen = (offset: number, b: Pick<ScrollBounds, 'total' | 'page'>) => offset + b.page >= b.total;

/** One key: the next state, and whether it continues or goes back. `armed`: the guard time since it was drawn has passed. */
export function confirmKey(s: ConfirmState, k: KeyPress, b: Pick<ScrollBounds, 'total' | 'page'>, armed: boolean): { state: ConfirmState; effect?: ConfirmEffect } {
  const seenEnd = s.seenEnd || seen(s.offset, b);
  const base = { offset: s.offset, seenEnd };
  const c = k.name === 'char' ? k.text : undefined;
  if (k.name === 'escape' || c === BACK_KEY) return { state: base, effect: 'back' };
  if (c === CONTINUE_KEY) {
    if (!armed) return { state: base };
    if (!seenEnd) return { state: { ...base, note: `Read to the end first (↓ PgDn G): ${b.total - s.offset - b.page} more row(s) below.` } };
    return { state: base, effect: 'continue' };
  }
  if (c === 'c') return { state: { ...base, note: `c does not continue here: ${CONTINUE_KEY} continues, ${BACK_KEY} (Esc) goes back to the review.` } };
  const r = scrollKey({ offset: s.offset }, k, { total: b.total, page: b.page });
  if (r.handled) return { state: { offset: r.state.offset, seenEnd: seenEnd || seen(r.state.offset, b) } };
  return { state: { ...base, ...(s.note ? { note: s.note } : {}) } };
}
