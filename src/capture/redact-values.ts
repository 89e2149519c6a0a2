/**
 * Pack values are YAML text inside the profile API's JSON: a field walk cannot see a password in
 * them. This redacts, line by line, the value of every key whose name says credential (`password`,
 * `adminPassword`, `token`, `apiKey`, `secretKey`, ...), block scalars included, and keeps what
 * holds no secret: empty values, booleans, numbers, null, Palette macros (`{{ .spectro... }}`) and
 * `${...}` placeholders. Deployed values and registry defaults go through the same function, so a
 * value equal on both sides stays equal and the diff of a replay says what the site's diff says.
 * Pure; line-based on purpose (no parse and re-print: comments and layout stay as served).
 */
import { REDACTED } from '../session/redact.js';
import { SECRET_NAME } from './redact-kube.js';

const KEY_LINE = /^(\s*(?:-\s+)?)(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_.-]+))(\s*:)(?:[ \t]+(.*))?$/;
const BLOCK = /^[|>][-+]?\d*\s*(#.*)?$/;

/** A value that holds no secret, as written after the colon. */
function harmless(raw: string): boolean {
  const v = raw.replace(/\s+#.*$/, '').trim();
  if (v === '~' || v === '[]' || v === '{}') return true;
  const unquoted = v.replace(/^(["'])(.*)\1$/, '$2');
  if (unquoted === '' || /^(null|true|false|yes|no|on|off)$/i.test(unquoted) || /^-?\d+(\.\d+)?$/.test(unquoted)) return true;
  return /^\{\{.*\}\}$/.test(unquoted) || /^\$\{[^}]*\}$/.test(unquoted);
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The text with every credential-named key's value replaced; `count` tells how many. */
export function redactValuesText(text: string): { text: string; count: number } {
  const lines = text.split('\n');
  let count = 0;
  let blockIndent: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (blockIndent !== undefined) {
      if (line.trim() === '' || indentOf(line) > blockIndent) {
        if (line.trim() !== '') lines[i] = `${' '.repeat(indentOf(line))}${REDACTED}`;
        continue;
      }
      blockIndent = undefined;
    }
    const m = KEY_LINE.exec(line);
    if (!m) continue;
    const key = m[2] ?? m[3] ?? m[4]!;
    const value = m[6] ?? '';
    if (!SECRET_NAME.test(key) || harmless(value)) continue;
    count++;
    if (BLOCK.test(value.trim())) {
      // The block's lines are those indented past the key's own column.
      blockIndent = m[1]!.length;
      continue;
    }
    lines[i] = `${m[1]}${m[2] !== undefined ? `"${m[2]}"` : m[3] !== undefined ? `'${m[3]}'` : m[4]}${m[5]} '${REDACTED}'`;
  }
  return { text: lines.join('\n'), count };
}
