/**
 * YAML documents that remember where every value came from, so a validation error can say
 * `file:line:col` instead of "somewhere in your runbook".
 */
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { readBoundedText } from '../io/bounded-read.js';
import { sanitizeText } from '../text/sanitize.js';
import { closest } from '../text/did-you-mean.js';
import { firstDuplicateKey } from '../io/yaml-keys.js';
import { scanYaml } from '../io/yaml-scan.js';
import { scannedToJs } from '../io/yaml-scan-nodes.js';

/**
 * The most values YAML aliases may stand for, counted the way the yaml library counts (an alias of
 * a node that itself holds aliases counts for all of them). A hand-written file uses a handful; an
 * "alias bomb" (a few lines that expand to billions of nodes) is refused before it expands.
 */
export const MAX_ALIAS_COUNT = 100;

/** A value from the file, quoted in a message: short, one line, no control characters. */
export const quoted = (v: unknown): string => sanitizeText(JSON.stringify(v) ?? String(v), { max: 60 });

export type PathKey = string | number;

export interface YamlSource {
  file: string;
  doc: Document;
  lines: LineCounter;
  value: unknown;
}

/** Reads (a regular file, at most `maxBytes`) and parses a YAML file. */
export function readYamlFile(file: string, what: string, maxBytes: number): YamlSource {
  return parseYaml(readBoundedText(file, { what, maxBytes }), file, what);
}

/** Line starts as the yaml package's parser reports them (the text's start, and after every line break). */
function lineCounterOf(text: string): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  return lines;
}

/** `full`: read with the yaml package even when the scanner could (tests compare the two). */
export function parseYaml(text: string, file: string, what: string, opts: { full?: boolean } = {}): YamlSource {
  // One document in the forms the scanner reads (the bundled runbook, a params file): the same nodes
  // and offsets as the package's, without its parser's start-up on every command. Else, and for every
  // error, the package.
  const scanned = opts.full ? undefined : scanYaml(text);
  if (scanned?.length === 1) {
    const doc = scanned[0]!;
    const value = scannedToJs(doc.contents as Node | null);
    if (value !== null && value !== undefined) return { file, doc, lines: lineCounterOf(text), value };
  }
  const lines = new LineCounter();
  // uniqueKeys off: the library's check is quadratic (yaml-keys.ts does it in one pass).
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const first = doc.errors[0];
  const duplicate = first ? undefined : firstDuplicateKey(doc);
  if (first || duplicate) {
    const pos = lines.linePos(first ? first.pos[0] : duplicate!.offset);
    // The library's message can quote the source line: one line, cut short, never the whole file.
    const message = first ? sanitizeText(first.message.split('\n')[0] ?? '', { max: 200 }) : `Map keys must be unique (\`${sanitizeText(duplicate!.key, { max: 60 })}\` is repeated)`;
    throw new InputError('input.yaml', `${file}:${pos.line}:${pos.col}: the ${what} is not valid YAML: ${message}`, {
      hint: 'Fix the YAML syntax at that position (indentation, quotes, a missing colon).',
      where: `${file}:${pos.line}:${pos.col}`,
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
  } catch (err) {
    // The yaml library refuses an alias expansion past the count (and an alias to nothing) with a ReferenceError.
    if (!(err instanceof ReferenceError)) throw err;
    throw new InputError('input.yaml-aliases', `${file}: the ${what} uses YAML aliases (*name) that ${/exhaustion|excessive/i.test(err.message) ? `stand for more than ${MAX_ALIAS_COUNT} values in all (an "alias bomb")` : `cannot be resolved (${sanitizeText(err.message, { max: 120 })})`}.`, {
      hint: `Write the values out instead of repeating them through aliases, or use fewer aliases (at most ${MAX_ALIAS_COUNT} expansions).`,
      where: file,
    });
  }
  if (value === null || value === undefined) {
    throw new InputError('input.empty', `${file}: the ${what} is empty.`, { hint: `Write the ${what} as a YAML mapping.`, where: file });
  }
  return { file, doc, lines, value };
}

/** The closest node to `path` that exists (a missing key points at its parent mapping). */
function nodeAt(doc: Document, path: readonly PathKey[]): Node | undefined {
  let node: unknown = doc.contents;
  let best = node as Node | undefined;
  for (const key of path) {
    if (isMap(node)) node = node.get(key, true);
    else if (isSeq(node) && typeof key === 'number') node = node.get(key, true);
    else break;
    if (node === undefined || node === null) break;
    best = node as Node;
  }
  return best;
}

export function positionOf(src: YamlSource, path: readonly PathKey[]): { line: number; col: number } {
  const node = nodeAt(src.doc, path);
  const offset = node?.range?.[0] ?? 0;
  return src.lines.linePos(offset);
}

export function formatPath(path: readonly PathKey[]): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${quoted(key)}]`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown, schema: z.ZodType): string {
  switch (issue.code) {
    case 'unrecognized_keys': {
      const accepted = acceptedKeysAt(schema, issue.path, lookup(value, issue.path));
      const list = accepted.length ? ` (accepted: ${accepted.join(', ')})` : '';
      // A key one slip away from an accepted one is named first: the likely intent.
      const one = issue.keys.length === 1;
      const guesses = issue.keys.slice(0, 10).flatMap((k) => {
        const hit = closest(k, accepted);
        return hit ? [one ? `\`${hit}\`` : `\`${hit}\` for \`${sanitizeText(k, { max: 60 })}\``] : [];
      });
      const guess = guesses.length ? `: did you mean ${guesses.join(', ')}?` : '';
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.slice(0, 10).map((k) => `\`${sanitizeText(k, { max: 60 })}\``).join(', ')}${guess}${list}`;
    }
    case 'invalid_type': {
      const got = lookup(value, issue.path);
      if (got === undefined) return `missing required key (expected ${issue.expected})`;
      return `expected ${issue.expected}, got ${typeName(got)}`;
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${quoted(lookup(value, issue.path))}`;
    default:
      return sanitizeText(issue.message, { max: 300 });
  }
}

type Def = Record<string, unknown> & { type?: string };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } })._zod?.def;

/** Through optionals, defaults, pipes: the schema that does the work. */
function unwrap(s: unknown): unknown {
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return s;
    if (['optional', 'default', 'nullable', 'prefault', 'readonly'].includes(def.type ?? '')) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return s;
}

const objectKeys = (s: unknown): string[] => {
  const def = defOf(unwrap(s));
  return def?.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
};

/** A union's option that best fits `value` (most keys in common). */
function bestOption(options: unknown[], value: unknown): unknown {
  const keys = value && typeof value === 'object' ? Object.keys(value) : [];
  let best = options[0];
  let score = -1;
  for (const o of options) {
    const k = objectKeys(o);
    const s = keys.filter((x) => k.includes(x)).length;
    if (s > score) [best, score] = [o, s];
  }
  return best;
}

/** The keys an object schema accepts at `path` (through optionals, defaults, arrays, records, unions). */
export function acceptedKeysAt(schema: z.ZodType, path: readonly PropertyKey[], valueAtPath?: unknown): string[] {
  let cur: unknown = schema;
  for (const key of path) {
    cur = unwrap(cur);
    const def = defOf(cur);
    if (def?.type === 'union') cur = unwrap(bestOption(def.options as unknown[], undefined));
    const d = defOf(cur);
    if (d?.type === 'object') cur = (d.shape as Record<string, unknown>)[String(key)];
    else if (d?.type === 'array') cur = d.element;
    else if (d?.type === 'record') cur = d.valueType;
    else return [];
    if (cur === undefined) return [];
  }
  cur = unwrap(cur);
  const def = defOf(cur);
  if (def?.type === 'union') return objectKeys(bestOption(def.options as unknown[], valueAtPath));
  return objectKeys(cur);
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${quoted(v)}`;
}

/**
 * "Invalid input" from a union says nothing; report instead the issues of the branch that came
 * closest (fewest issues; of those, the one that got deepest into the value), e.g. "kind: missing"
 * for a step rather than "not a step or a group".
 */
function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const depth = (issues: readonly z.core.$ZodIssue[]) => Math.max(0, ...issues.map((i) => i.path.length));
  const best = issue.errors.reduce((a, b) => (b.length < a.length || (b.length === a.length && depth(b) > depth(a)) ? b : a));
  return best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue).flatMap(closestBranch);
}

function issuePath(issue: z.core.$ZodIssue): PathKey[] {
  return issue.path.filter((k): k is PathKey => typeof k === 'string' || typeof k === 'number');
}

export interface ValidateOptions {
  /** The value to check (default: the whole document); must sit at `prefix` in the document. */
  value?: unknown;
  /** Where `value` sits in the document, so positions point at the right lines. */
  prefix?: PathKey[];
  hint?: string;
}

/**
 * Validates a value from the document against `schema`; on failure throws an InputError naming the
 * file, line, column, path and what was expected.
 */
export function validate<S extends z.ZodType>(src: YamlSource, schema: S, what: string, opts: ValidateOptions = {}): z.output<S> {
  const value = 'value' in opts ? opts.value : src.value;
  const prefix = opts.prefix ?? [];
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const all = result.error.issues.flatMap(closestBranch);
  const issues = all.slice(0, 5);
  const located = issues.map((issue) => {
    const path = issuePath(issue);
    const at = issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [...path, issue.keys[0]!] : path;
    const pos = positionOf(src, [...prefix, ...at]);
    return { pos, line: `${src.file}:${pos.line}:${pos.col}: ${formatPath([...prefix, ...at])}: ${describeIssue(issue, value, schema)}` };
  });
  const more = all.length > issues.length ? `\n(and ${all.length - issues.length} more)` : '';
  const first = located[0]?.pos ?? { line: 1, col: 1 };
  throw new InputError('input.invalid', `The ${what} is not valid:\n${located.map((l) => l.line).join('\n')}${more}`, {
    hint: opts.hint ?? `Fix the ${what} at the position shown.`,
    where: `${src.file}:${first.line}:${first.col}`,
  });
}

/** An error about one place in a document, with its position. */
export function errorAt(src: YamlSource, path: PathKey[], what: string, message: string, hint: string): InputError {
  const pos = positionOf(src, path);
  return new InputError('input.invalid', `The ${what} is not valid:\n${src.file}:${pos.line}:${pos.col}: ${formatPath(path)}: ${message}`, {
    hint,
    where: `${src.file}:${pos.line}:${pos.col}`,
  });
}
