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

/** True when `text` holds anything `stripControls` would remove (a cheap test before copying). */
export function hasControls(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);
}

/**
 * Terminal control sequences and control characters removed (newlines and tabs kept), nothing cut:
 * for data that is kept (a condition message, a log line) rather than shown once.
 */
export function stripControls(text: string): string {
  return hasControls(text) ? text.replace(escapeSequences, '').replace(/\r\n?/g, '\n').replace(controls, '') : text;
}

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

/** Longest line a final writer prints (plain mode, errors, the report); longer ones are cut, marked. */
export const PRINTED_LINE_MAX = 4_000;

/**
 * The last line of defence before stdout/stderr or a report file: every line without control
 * characters and at most `maxLine` characters, newlines kept. Whatever a boundary missed, no
 * escape sequence reaches the terminal and no single line prints megabytes.
 */
export function sanitizeLines(text: string, maxLine = PRINTED_LINE_MAX): string {
  if (!hasControls(text) && text.length <= maxLine) return text;
  return text
    .split('\n')
    .map((line) => sanitizeText(line, { max: maxLine }))
    .join('\n');
}

/**
 * JSON text (one event, the JSON report) safe for a terminal: JSON.stringify escapes C0 controls
 * but leaves DEL, C1 controls (an 8-bit CSI is one) and bidi overrides raw; they are escaped here,
 * which keeps the JSON valid and equal once parsed.
 */
export function jsonSafe(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A command's output line: JSON made terminal-safe, text sanitized line by line. */
export const safeOut = (text: string, json: boolean): string => (json ? jsonSafe(text) : sanitizeLines(text));
