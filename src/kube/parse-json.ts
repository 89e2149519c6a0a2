/**
 * JSON from the cluster, parsed once and made safe to show. A server can put terminal control
 * characters in any string (a condition message, an event, even a name on a server that does not
 * validate names as Kubernetes does); they arrive escaped in the JSON text (`\u001b`), so one scan
 * of the text tells whether any string needs cleaning, and only then are the strings walked.
 * A real cluster's answer (no control characters) costs one regex scan more than JSON.parse.
 */
import { KubeError } from './errors.js';
import { hasControls, stripControls } from '../text/sanitize.js';

// Escaped C0 controls but \n and \t (written as \u00XX or \b \f), DEL, C1, bidi overrides; and
// the same characters written raw (JSON allows all but C0 raw). A false hit (an escaped backslash
// before `u001b`) only costs the walk.
const suspicious = /\\u00[01][0-9a-fA-F]|\\u007[fF]|\\u00[89][0-9a-fA-F]|\\u202[a-eA-E]|\\u206[6-9]|\\[bf]|[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

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
  return (suspicious.test(text) ? clean(value) : value) as T;
}
