/**
 * JSON from the cluster, parsed once and made safe to show. A server can put terminal control
 * characters in any string (a condition message, an event, even a name on a server that does not
 * validate names as Kubernetes does); they arrive escaped in the JSON text (`\u001b`), so one scan
 * of the text tells whether any string needs cleaning, and only then are the strings walked.
 * A real cluster's answer (no control characters) costs a walk over its backslashes more than JSON.parse.
 */
import { KubeError } from './errors.js';
import { hasControls, stripControls } from '../text/sanitize.js';

// What marks a string that needs cleaning, in JSON text: an escape of a C0 control (`\u00XX`,
// `\b`, `\f`; `\n` and `\t` are written as such and kept), of DEL, C1 or a bidi override; or one
// of those characters written raw (JSON allows all but C0 raw).
const escapedControl = /^(?:00[01][0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]|202[a-eA-E]|206[6-9])$/;
const rawControl = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Whether the text may hold a control character in some string. Walks the backslashes only (a
 * list of 5,000 VM instances has a few thousand: escaped quotes) instead of testing a pattern at
 * every position (37 ms for 14 MB); raw characters above DEL are looked for only in text that is not
 * ASCII, which its UTF-8 length tells at memory speed. An escaped backslash is skipped with what follows,
 * so `\\u001b` (a backslash, then text) is no hit.
 */
export function mayHoldControls(text: string): boolean {
  if (text.includes('\u007f') || (Buffer.byteLength(text, 'utf8') !== text.length && rawControl.test(text))) return true;
  for (let i = text.indexOf('\\'); i !== -1; i = text.indexOf('\\', i + 2)) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x62 /* b */ || next === 0x66 /* f */) return true;
    if (next === 0x75 /* u */ && escapedControl.test(text.slice(i + 2, i + 6))) return true;
  }
  return false;
}

/** Strips control characters from every string (keys included) of a freshly parsed value, in place. */
function clean(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return stripControls(value);
  if (value === null || typeof value !== 'object' || depth > 200) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], depth + 1);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const v = clean(obj[key], depth + 1);
    if (hasControls(key)) {
      delete obj[key];
      obj[stripControls(key)] = v;
    } else obj[key] = v;
  }
  return obj;
}

export function parseKubeJson<T>(text: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new KubeError('failed', `The cluster answered ${what} with something that is not JSON.`, { kind: 'failed' });
  }
  return (mayHoldControls(text) ? clean(value) : value) as T;
}
