/**
 * Key paths and values wrapped whole. A value cut to its column (`["{{…}}"] → ["{{…}}"]`) can make
 * two different values look the same, so the review never cuts one: a line breaks where its text
 * allows (after a path's `.`, before its `[`; after a value's `,` or space), and a run with no
 * break that is longer than a row goes on at the start of the next. Pure; the rows returned are the
 * rows drawn, so a window over them counts exactly.
 */

/** How a piece of text may break: a key path, a value (JSON or a string), or words. */
export type BreakKind = 'path' | 'value' | 'words';

export interface Piece {
  text: string;
  breaks: BreakKind;
}

const rules: Record<BreakKind, { after: string; before: string }> = {
  path: { after: '.', before: '[' },
  value: { after: ', ', before: '' },
  words: { after: ' ', before: '' },
};

const len = (s: string) => [...s].length;

/** The text in atoms: each ends where a line may break. */
export function atomsOf(text: string, kind: BreakKind): string[] {
  const { after, before } = rules[kind];
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (before.includes(ch) && cur) {
      out.push(cur);
      cur = '';
    }
    cur += ch;
    if (after.includes(ch)) {
      out.push(cur);
      cur = '';
    }
  }
  if (cur) out.push(cur);
  return out;
}

export interface FlowOptions {
  /** Spaces before every row after the first (a hanging indent). */
  indent?: number;
  /** The first row's room when something precedes it on screen (a label). */
  firstWidth?: number;
}

/** Pieces flowed into rows of at most `width` characters; nothing is left out. */
export function flowPieces(pieces: readonly Piece[], width: number, opts: FlowOptions = {}): string[] {
  const full = Math.max(4, width);
  const indent = ' '.repeat(Math.min(opts.indent ?? 0, Math.floor(full / 2)));
  const rows: string[] = [];
  let row = '';
  let room = Math.max(1, Math.min(full, opts.firstWidth ?? full));
  const blank = () => row.trim() === '';
  const push = () => {
    rows.push(row.trimEnd());
    row = indent;
    room = full;
  };
  for (const atom of pieces.flatMap((p) => atomsOf(p.text, p.breaks))) {
    let a = blank() && rows.length > 0 ? atom.trimStart() : atom;
    if (!a) continue;
    if (len(row) + len(a.trimEnd()) <= room) {
      row += a;
      continue;
    }
    if (!blank()) {
      push();
      a = a.trimStart();
    }
    // Longer than a whole row: it goes on at the start of the next one (split, never dropped).
    while (len(row) + len(a.trimEnd()) > room) {
      const take = Math.max(1, room - len(row));
      const chars = [...a];
      row += chars.slice(0, take).join('');
      a = chars.slice(take).join('');
      push();
    }
    row += a;
  }
  if (!blank() || rows.length === 0) rows.push(row.trimEnd());
  return rows;
}

/** One text flowed by its kind. */
export const flowText = (text: string, kind: BreakKind, width: number, opts: FlowOptions = {}): string[] => flowPieces([{ text, breaks: kind }], width, opts);
