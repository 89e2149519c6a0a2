/**
 * Plain text wrapped to a width for a terminal that does not wrap it well itself (help texts): breaks
 * at spaces, never inside a word unless the word alone is wider than the line; the first line and
 * the lines after it each have their own indent (a hanging indent under an option's description).
 * Widths count characters (help texts are ASCII and a few single-column symbols). Pure.
 */

export interface Indent {
  /** Before the first line (it may already hold text, such as an option's name: its width counts). */
  first: string;
  /** Before every line after the first. */
  rest: string;
}

export function wrapWords(text: string, width: number, indent: Indent = { first: '', rest: '' }): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = indent.first;
  let empty = true;
  const room = (prefix: string) => Math.max(1, width - prefix.length);
  for (let word of words) {
    const sep = empty ? '' : ' ';
    if (line.length + sep.length + word.length <= width) {
      line += sep + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = indent.rest;
      empty = true;
    }
    // A word wider than a whole line (a long path or URL) is the only thing ever cut.
    while (line.length + word.length > width && word.length > room(line)) {
      const cut = room(line);
      lines.push(line + word.slice(0, cut));
      word = word.slice(cut);
      line = indent.rest;
    }
    line += word;
    empty = false;
  }
  if (!empty || lines.length === 0) lines.push(line);
  return lines.map((l) => l.trimEnd());
}

/** The width to wrap a command's output to: the terminal's, else $COLUMNS, else 80; never under 40. */
export function outputWidth(stdout: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.COLUMNS);
  const columns = stdout.isTTY && stdout.columns ? stdout.columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
  return Math.max(40, columns);
}
