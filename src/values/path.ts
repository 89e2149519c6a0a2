/**
 * Paths into pack values: `charts.cilium.ipam["operator.x"].list[0]`, list items matched by a key
 * field `containers[name="virt-api"]`, `*` (any one key, index or item) and `**` (any depth) for
 * patterns, and `@1.` to address the second document of a multi-document value.
 *
 * One syntax serves the diff output, the carry list, ignore patterns and the runbook's rules, so
 * a path shown on the screen can be pasted into a rule or an ignore list as it is.
 */
import { InputError } from '../errors.js';

export type ItemKeyValue = string | number | boolean;

export type PathSegment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  /** The list item whose `field` equals `value` (lists of maps matched by a key field). */
  | { kind: 'item'; field: string; value: ItemKeyValue }
  | { kind: 'any' }
  | { kind: 'deep' };

export interface ValuesPath {
  /** Document of a multi-document value; `undefined` means document 0 for a concrete path and any document for a pattern. */
  doc?: number;
  segments: PathSegment[];
}

/** Keys written without brackets; everything else (dots, slashes, spaces, `*`) is quoted. */
const bareKey = /^[A-Za-z0-9_-]+$/;

function formatSegment(seg: PathSegment, first: boolean): string {
  switch (seg.kind) {
    case 'key':
      return bareKey.test(seg.key) ? (first ? seg.key : `.${seg.key}`) : `[${JSON.stringify(seg.key)}]`;
    case 'index':
      return `[${seg.index}]`;
    case 'item':
      return `[${seg.field}=${typeof seg.value === 'string' ? JSON.stringify(seg.value) : String(seg.value)}]`;
    case 'any':
      return first ? '*' : '.*';
    case 'deep':
      return first ? '**' : '.**';
  }
}

export function formatPath(path: ValuesPath | readonly PathSegment[]): string {
  const { doc, segments } = Array.isArray(path) ? { doc: undefined, segments: path as readonly PathSegment[] } : (path as ValuesPath);
  let out = doc !== undefined && doc !== 0 ? `@${doc}` : '';
  segments.forEach((seg, i) => {
    out += formatSegment(seg, i === 0 && out === '');
  });
  return out;
}

function syntaxError(text: string, at: number, expected: string): InputError {
  return new InputError('values.path', `Bad values path \`${text}\` at column ${at + 1}: expected ${expected}.`, {
    hint: 'Write paths as a.b["key.with/dots"].list[0] or list[name="x"]; `*` matches one level, `**` any depth.',
  });
}

/** Parses a path or pattern. Throws an InputError naming the column on bad syntax. */
export function parsePath(text: string): ValuesPath {
  const segments: PathSegment[] = [];
  let i = 0;
  let doc: number | undefined;
  const docMatch = /^@(\d+)/.exec(text);
  if (docMatch) {
    doc = Number(docMatch[1]);
    i = docMatch[0].length;
  }
  let needDot = doc !== undefined;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '[') {
      const { seg, next } = parseBracket(text, i);
      segments.push(seg);
      i = next;
      needDot = true;
      continue;
    }
    if (needDot) {
      if (ch !== '.') throw syntaxError(text, i, '`.` or `[`');
      i += 1;
    }
    if (text.startsWith('**', i)) {
      segments.push({ kind: 'deep' });
      i += 2;
    } else if (text[i] === '*') {
      segments.push({ kind: 'any' });
      i += 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
      if (!m) throw syntaxError(text, i, 'a key (letters, digits, `_`, `-`), `*`, `**` or `[`');
      segments.push({ kind: 'key', key: m[0] });
      i += m[0].length;
    }
    needDot = true;
  }
  return doc === undefined ? { segments } : { doc, segments };
}

function parseBracket(text: string, start: number): { seg: PathSegment; next: number } {
  const rest = text.slice(start + 1);
  const index = /^(\d+)\]/.exec(rest);
  if (index) return { seg: { kind: 'index', index: Number(index[1]) }, next: start + 1 + index[0].length };
  if (rest.startsWith('*]')) return { seg: { kind: 'any' }, next: start + 3 };
  if (rest.startsWith('"')) {
    const { value, end } = readJsonString(text, start + 1);
    if (text[end] !== ']') throw syntaxError(text, end, '`]` after the quoted key');
    return { seg: { kind: 'key', key: value }, next: end + 1 };
  }
  const field = /^([A-Za-z0-9_-]+)=/.exec(rest);
  if (field) {
    const at = start + 1 + field[0].length;
    if (text[at] === '"') {
      const { value, end } = readJsonString(text, at);
      if (text[end] !== ']') throw syntaxError(text, end, '`]` after the item key value');
      return { seg: { kind: 'item', field: field[1] as string, value }, next: end + 1 };
    }
    const lit = /^(-?\d+(?:\.\d+)?|true|false)\]/.exec(text.slice(at));
    if (!lit) throw syntaxError(text, at, 'a quoted string, a number, true or false');
    const raw = lit[1] as string;
    const value: ItemKeyValue = raw === 'true' ? true : raw === 'false' ? false : Number(raw);
    return { seg: { kind: 'item', field: field[1] as string, value }, next: at + lit[0].length };
  }
  throw syntaxError(text, start + 1, 'an index, `*`, a quoted key or field="value"');
}

function readJsonString(text: string, start: number): { value: string; end: number } {
  let j = start + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  if (j >= text.length) throw syntaxError(text, start, 'a closing `"`');
  try {
    return { value: JSON.parse(text.slice(start, j + 1)) as string, end: j + 1 };
  } catch {
    throw syntaxError(text, start, 'a JSON-style quoted string');
  }
}

export function isPattern(path: ValuesPath): boolean {
  return path.segments.some((s) => s.kind === 'any' || s.kind === 'deep');
}

/** Parses a concrete path (no wildcards), as used by the carry list and decisions. */
export function parseConcretePath(text: string): ValuesPath {
  const path = parsePath(text);
  if (isPattern(path)) {
    throw new InputError('values.path', `The path \`${text}\` has a wildcard where one exact setting is needed.`, {
      hint: 'Name each key; `*` and `**` are for ignore patterns and rules.',
    });
  }
  return path;
}

export function sameSegment(a: PathSegment, b: PathSegment): boolean {
  switch (a.kind) {
    case 'key':
      return b.kind === 'key' && a.key === b.key;
    case 'index':
      return b.kind === 'index' && a.index === b.index;
    case 'item':
      return b.kind === 'item' && a.field === b.field && a.value === b.value;
    default:
      return a.kind === b.kind;
  }
}
