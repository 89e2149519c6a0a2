/**
 * Text that came from the network (API error messages, names, reasons, log lines) is shown to the
 * operator only after this: terminal control sequences and control characters are removed (an
 * error body must not clear the screen or retitle the terminal) and the text is cut to a sane
 * length (a 5 MB message is not printed whole). Pure; used by the TUI, plain mode and the report.
 */

/** Default cap for one server-supplied string shown on a line. */
export const SHOWN_TEXT_MAX = 2_000;

// ESC-introduced sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte ESC sequences;
// then the 8-bit CSI/OSC forms. Removed whole so no fragment of them reaches the terminal.
const escapeSequences = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*(?:\u0007|\u009c)?/g;
// C0 controls but tab and newline, DEL, C1 controls; bidirectional overrides and isolates (they
// reorder what the operator reads).
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export interface SanitizeOptions {
  /** Longest text kept, in characters (default SHOWN_TEXT_MAX). */
  max?: number;
  /** Keep newlines (multi-line log excerpts); default false: a newline becomes a space. */
  multiline?: boolean;
}

/** `text` safe to print: no control sequences or characters, at most `max` characters (cut marked). */
export function sanitizeText(text: string, opts: SanitizeOptions = {}): string {
  const max = opts.max ?? SHOWN_TEXT_MAX;
  // Work on a bounded prefix: a huge input costs no more than a little over the cap.
  const head = text.length > max * 2 + 64 ? text.slice(0, max * 2 + 64) : text;
  let clean = head.replace(escapeSequences, '').replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(controls, '');
  if (!opts.multiline) clean = clean.replace(/\n+/g, ' ');
  const cut = text.length > head.length || clean.length > max;
  if (!cut) return clean;
  const kept = clean.slice(0, max);
  return `${kept}… (cut: ${text.length.toLocaleString('en-US')} characters in all)`;
}
