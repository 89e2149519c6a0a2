/**
 * The differences of a pack, as rows that are never cut: the label, then the key path and the
 * values whole (`path: deployed → draft`), wrapped where they allow it. A draft equal to what is
 * deployed says `(same)` instead of repeating it, and a conflict names the new default it set
 * aside, so a row never reads `X → X` without saying which side won. Pure.
 */
import { deepEqual } from '../../io/deep-equal.js';
import type { CustomizeEntry } from '../../steps/customize/types.js';
import { sanitizeText } from '../../text/sanitize.js';
import { flowPieces, type Piece } from './break-lines.js';

/** The label column: room for `new default`. */
export const LABEL_WIDTH = 12;

/** A value as the review shows it, whole: strings as they are (an empty one as `""`), the rest as JSON. */
export function valueText(v: unknown): string {
  if (v === undefined) return '(absent)';
  const text = typeof v === 'string' ? (v === '' ? '""' : v) : JSON.stringify(v);
  return sanitizeText(text ?? String(v), { max: 20_000 });
}

/** The word in the label column. */
export function labelWord(e: CustomizeEntry): string {
  if (e.removed) return 'removed';
  if (e.movedFrom) return 'moved';
  if (e.label === 'ruleFix') return 'chosen fix';
  if (e.label === 'newDefault') return 'new default';
  return e.label;
}

/** The draft holds exactly what is deployed. */
export const unchanged = (e: CustomizeEntry): boolean => 'deployed' in e && e.deployed !== undefined && deepEqual(e.deployed, e.result);

/** `path: deployed → draft`, and for a conflict the new default it set aside. */
export function entryPieces(e: CustomizeEntry): Piece[] {
  const pieces: Piece[] = [
    { text: `${sanitizeText(e.path, { max: 4000 })}:`, breaks: 'path' },
    { text: ` ${valueText(e.deployed)}`, breaks: 'value' },
    { text: ' → ', breaks: 'words' },
    { text: unchanged(e) ? '(same)' : valueText(e.result), breaks: 'value' },
  ];
  if (e.label === 'conflict') pieces.push({ text: ' · new default ', breaks: 'words' }, { text: valueText(e.newDefault), breaks: 'value' });
  return pieces;
}

/** A wide screen lines the paths up after a label column; a narrow one gives the text every column it can. */
export const NARROW = 70;

export interface EntryLines {
  /** The label at the start of the first row (padded to the column on a wide screen). */
  label: string;
  /** The rows after the cursor; the first starts with the label. */
  rows: string[];
}

/** The entry's rows after the cursor (`width` includes the cursor's 2 columns): the label, then the text wrapped. */
export function entryLines(e: CustomizeEntry, width: number): EntryLines {
  const text = Math.max(10, width - 2);
  const wide = width >= NARROW;
  const label = wide ? labelWord(e).padEnd(LABEL_WIDTH) : `${labelWord(e)} `;
  const flowed = flowPieces(entryPieces(e), text, { firstWidth: text - label.length, indent: wide ? LABEL_WIDTH : 2 });
  return { label, rows: flowed.map((row, i) => (i === 0 ? `${label}${row}` : row)) };
}

/** Everything the row and its detail say, whole: what `/` searches among the differences. */
export function entrySearchText(e: CustomizeEntry, decision: string): string {
  return [labelWord(e), e.label, e.path, valueText(e.deployed), valueText(e.result), valueText(e.newDefault), e.note ?? '', e.movedFrom ?? '', e.removed ?? '', decision].join(' ');
}
