/**
 * Scrolling a window over rows, and `/` search in it: pure, so the keys are tested as tables of
 * sequences. The same keys everywhere: ↑↓ or k/j one row, PgUp/PgDn a page, g/G (Home/End) the
 * top and the bottom, `/` to search (Enter finds, Esc cancels), n/N the next and previous match.
 */
import { erased, type KeyPress } from './key-press.js';

export interface SearchState {
  /** The query is being typed: every key goes to it. */
  typing: boolean;
  query: string;
  /** The row of the current match. */
  hit?: number;
  /** The last search found nothing. */
  notFound?: boolean;
}

export interface ScrollState {
  offset: number;
  search?: SearchState;
}

export interface ScrollBounds {
  /** Rows in all. */
  total: number;
  /** Rows visible at once. */
  page: number;
  /** A row's text, for search; without it `/` does nothing. */
  textAt?: (row: number) => string;
}

export const initialScroll: ScrollState = { offset: 0 };

export const maxOffset = (b: ScrollBounds): number => Math.max(0, b.total - Math.max(1, b.page));

const clamp = (offset: number, b: ScrollBounds) => Math.min(maxOffset(b), Math.max(0, offset));

/** The offset within bounds (rows can shrink under a window). */
export function clampScroll(s: ScrollState, b: ScrollBounds): ScrollState {
  const offset = clamp(s.offset, b);
  return offset === s.offset ? s : { ...s, offset };
}

/** The first row at or after `from` (backwards: at or before) whose text holds the query, wrapping once round. */
export function findRow(query: string, b: ScrollBounds, from: number, direction: 1 | -1): number | undefined {
  if (!b.textAt || !query || b.total === 0) return undefined;
  const needle = query.toLowerCase();
  for (let i = 0; i < b.total; i++) {
    const row = (((from + direction * i) % b.total) + b.total) % b.total;
    if (b.textAt(row).toLowerCase().includes(needle)) return row;
  }
  return undefined;
}

/** Shows a match: leaves the window where it is when the row is in view, else puts it a little below the top. */
function reveal(s: ScrollState, row: number, b: ScrollBounds): number {
  if (row >= s.offset && row < s.offset + b.page) return s.offset;
  return clamp(row - Math.min(2, Math.floor(b.page / 4)), b);
}

function jump(s: ScrollState, b: ScrollBounds, query: string, from: number, direction: 1 | -1): ScrollState {
  const hit = findRow(query, b, from, direction);
  if (hit === undefined) return { ...s, search: { typing: false, query, notFound: true } };
  return { offset: reveal(s, hit, b), search: { typing: false, query, hit } };
}

export interface ScrollResult {
  state: ScrollState;
  /** The key meant something here (a view does not pass it on). */
  handled: boolean;
}

function typing(s: ScrollState & { search: SearchState }, key: KeyPress, b: ScrollBounds): ScrollResult {
  const search = s.search;
  if (key.name === 'escape') {
    const { search: _s, ...rest } = s;
    return { state: rest, handled: true };
  }
  if (key.name === 'enter') return { state: search.query ? jump(s, b, search.query, s.offset, 1) : { offset: s.offset }, handled: true };
  if (key.name === 'backspace') return { state: { ...s, search: { typing: true, query: search.query.slice(0, -erased(key)) } }, handled: true };
  if ((key.name === 'char' || key.name === 'paste') && key.text) return { state: { ...s, search: { typing: true, query: search.query + key.text } }, handled: true };
  return { state: s, handled: true };
}

export function scrollKey(s: ScrollState, key: KeyPress, b: ScrollBounds): ScrollResult {
  if (s.search?.typing) return typing(s as ScrollState & { search: SearchState }, key, b);
  const by = (delta: number): ScrollResult => ({ state: { ...s, offset: clamp(s.offset + delta, b) }, handled: true });
  const to = (offset: number): ScrollResult => ({ state: { ...s, offset: clamp(offset, b) }, handled: true });
  const page = Math.max(1, b.page - 1);
  const c = key.name === 'char' ? key.text : undefined;
  if (key.name === 'up' || c === 'k') return by(-1);
  if (key.name === 'down' || c === 'j') return by(1);
  if (key.name === 'pageUp') return by(-page);
  if (key.name === 'pageDown') return by(page);
  if (key.name === 'home' || c === 'g') return to(0);
  if (key.name === 'end' || c === 'G') return to(maxOffset(b));
  if (c === '/' && b.textAt) return { state: { ...s, search: { typing: true, query: '' } }, handled: true };
  const query = s.search?.query;
  if ((c === 'n' || c === 'N') && query && b.textAt) {
    const dir = c === 'n' ? 1 : -1;
    const from = (s.search?.hit ?? s.offset) + dir;
    return { state: jump(s, b, query, from, dir), handled: true };
  }
  return { state: s, handled: false };
}

/** The line under a searchable view: what is being typed, or where the match is. */
export function searchLine(s: ScrollState): string | undefined {
  const search = s.search;
  if (!search) return undefined;
  if (search.typing) return `/${search.query}`;
  if (search.notFound) return `"${search.query}" not found (/ to search again)`;
  return `"${search.query}": n next · N previous · / new search`;
}
