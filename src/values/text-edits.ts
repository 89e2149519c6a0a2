/**
 * Edits to a document's text at parsed offsets. Everything outside the edited ranges stays byte for
 * byte as it was, which is what keeps comments, blank lines and quoting intact in a merge.
 */
import { PilotError } from '../errors.js';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /** Nesting depth of what an insertion adds to; at one offset, deeper content comes first. */
  depth: number;
}

export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => {
    if (a.start !== b.start) return a.start - b.start;
    const ai = a.start === a.end ? 0 : 1;
    const bi = b.start === b.end ? 0 : 1;
    if (ai !== bi) return ai - bi;
    return b.depth - a.depth;
  });
  let out = '';
  let cursor = 0;
  for (const e of sorted) {
    if (e.start < cursor) {
      throw new PilotError('internal', 'values.merge-overlap', `Two edits of the values overlap at offset ${e.start}; the merge was not written.`, {
        hint: 'This is a bug in upgrade-pilot; please report it with the pack values.',
      });
    }
    out += source.slice(cursor, e.start) + e.text;
    cursor = e.end;
  }
  return out + source.slice(cursor);
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the line break ending the line that holds `offset` (or the end of the text). */
export function lineEnd(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  if (i < 0) return text.length;
  return i > offset && text[i - 1] === '\r' ? i - 1 : i;
}

/** Offset just after the line that holds `offset - 1`: where the next line begins. */
export function afterLine(text: string, end: number): number {
  if (end > 0 && text[end - 1] === '\n') return end;
  const i = text.indexOf('\n', end);
  return i < 0 ? text.length : i + 1;
}

/** The line break the document uses (`\r\n` when its first line ends so), for the lines a merge adds. */
export function lineBreakOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** Lines to insert at `at`, with the line break on the side that keeps the text well formed. */
export function insertLines(text: string, at: number, lines: readonly string[], depth: number, eol = lineBreakOf(text)): TextEdit {
  const body = lines.join(eol);
  const atEndWithoutNewline = at === text.length && text.length > 0 && !text.endsWith('\n');
  return { start: at, end: at, text: atEndWithoutNewline ? `${eol}${body}` : `${body}${eol}`, depth };
}
