/**
 * The YAML scanner's scalars and one-line flow collections: plain scalars resolved by the core
 * schema's own tags (as the yaml package resolves them: `0o17`, `1.50`, `.inf`, `~`), quoted
 * scalars with YAML's escapes, and `[ "10.0.0.0/8" ]` / `{a: 1}` on one line. Anything else (a
 * quoted scalar over several lines, a flow collection over several lines, an anchor, a tag) throws
 * `NotScannable`: the full parser reads that text instead.
 */
import { isScalar, type Node, type Pair, type Range, type Scalar } from 'yaml';
import { mapNode, pairNode, parseOptions, scalarNode, schema, seqNode } from './yaml-scan-nodes.js';

/** Thrown (not an Error: no stack to capture) when the text needs the full parser. */
export class NotScannable {
  constructor(readonly why: string) {}
}

export function notScannable(why: string): never {
  throw new NotScannable(why);
}

export const LF = 10;
export const SPACE = 32;
export const TAB = 9;
export const HASH = 35;
export const COLON = 58;
export const DASH = 45;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;
const COMMA = 44;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;

interface ResolvingTag {
  default?: boolean | 'key';
  test?: RegExp;
  format?: string;
  resolve(value: string, onError: (message: string) => void, options: object): unknown;
}

/** The core schema's scalar tags that a plain scalar is tested against, in the package's order. */
const coreTags = (schema.tags as unknown as ResolvingTag[]).filter((t) => t.default === true && t.test !== undefined);

/** Only these first characters can begin a core-schema null, boolean, integer or float: ~ n N t T f F + - . 0-9. */
function maybeNotString(c: number): boolean {
  return c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 || c === 43 || c === 45 || c === 46 || (c >= 48 && c <= 57);
}

/** Digits only, at most 15 (exact as a double): the core schema's `int`, as `parseInt` reads it. */
function isShortDecimal(s: string): boolean {
  if (s.length > 15) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A plain scalar's node: its value by the first core-schema tag whose pattern it matches, else the string. */
export function plainScalar(source: string, range: Range): Scalar {
  if (!maybeNotString(source.charCodeAt(0))) return scalarNode(source, source, 'PLAIN', range);
  if (source === 'true') return scalarNode(true, source, 'PLAIN', range);
  if (source === 'false') return scalarNode(false, source, 'PLAIN', range);
  if (isShortDecimal(source)) return scalarNode(Number(source), source, 'PLAIN', range);
  for (const tag of coreTags) {
    if (!tag.test!.test(source)) continue;
    const resolved = tag.resolve(source, (message) => notScannable(message), parseOptions);
    const value = isScalar(resolved) ? resolved.value : resolved;
    const minFractionDigits = isScalar(resolved) ? resolved.minFractionDigits : undefined;
    return scalarNode(value, source, 'PLAIN', range, { ...(tag.format ? { format: tag.format } : {}), ...(minFractionDigits !== undefined ? { minFractionDigits } : {}) });
  }
  return scalarNode(source, source, 'PLAIN', range);
}

const simpleEscapes: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  '\t': '\t',
};

const hexDigits: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Characters a value may not hold for the scanner (it leaves them to the full parser): controls, C1, line and paragraph separators, BOM. */
export function unusual(c: number): boolean {
  return c < 32 || (c >= 127 && c <= 159) || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

/** A quoted scalar that starts at `start` and ends on its line (its `range[1]` is just after the closing quote). */
export function quotedScalar(text: string, start: number): Scalar {
  const double = text.charCodeAt(start) === DQUOTE;
  let value = '';
  let from = start + 1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) break;
    if ((c < 32 && c !== TAB) || (c >= 127 && unusual(c))) notScannable('an unusual character');
    if (double && c === BACKSLASH) {
      const e = text[i + 1] as string | undefined;
      value += text.slice(from, i);
      const digits = e === undefined ? undefined : hexDigits[e];
      if (digits !== undefined) {
        const hex = text.slice(i + 2, i + 2 + digits);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) notScannable('a bad escape');
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) notScannable('a bad escape');
        value += String.fromCodePoint(code);
        i += 1 + digits;
      } else {
        const s = e === undefined ? undefined : simpleEscapes[e];
        if (s === undefined) notScannable('an escape the scanner does not read');
        value += s;
        i += 1;
      }
      from = i + 1;
      continue;
    }
    if (c === (double ? DQUOTE : SQUOTE)) {
      if (!double && text.charCodeAt(i + 1) === SQUOTE) {
        value += text.slice(from, i + 1);
        i += 1;
        from = i + 1;
        continue;
      }
      value += text.slice(from, i);
      return scalarNode(value, value, double ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', [start, i + 1, i + 1]);
    }
  }
  return notScannable('a quoted scalar over several lines');
}

/** Characters that cannot begin a plain scalar (a `-`, `?` or `:` can, when a safe character follows). */
export function plainCannotStart(text: string, i: number, flow: boolean): boolean {
  const c = text.charCodeAt(i);
  switch (c) {
    case COMMA:
    case LBRACKET:
    case RBRACKET:
    case LBRACE:
    case RBRACE:
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case SQUOTE:
    case DQUOTE:
    case 37: // %
    case 64: // @
    case 96: // `
      return true;
    case DASH:
    case 63: // ?
    case COLON: {
      const n = text.charCodeAt(i + 1);
      return Number.isNaN(n) || n === SPACE || n === LF || n === TAB || (flow && isFlowIndicator(n));
    }
    default:
      return false;
  }
}

function isFlowIndicator(c: number): boolean {
  return c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE;
}

function skipSpaces(text: string, i: number): number {
  while (text.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * A flow collection (`[...]` or `{...}`) that closes on the line it opens (its `range[1]` is just
 * after the closing bracket). Entries are quoted or plain scalars and flow collections; a flow map's
 * keys are scalars followed by `: `.
 */
export function flowCollection(text: string, start: number): Node {
  const isSeq = text.charCodeAt(start) === LBRACKET;
  const close = isSeq ? RBRACKET : RBRACE;
  const items: Array<Node | Pair> = [];
  let i = skipSpaces(text, start + 1);
  while (text.charCodeAt(i) !== close) {
    if (isSeq) {
      const entry = flowEntry(text, i);
      items.push(entry);
      i = entry.range![1];
    } else {
      const key = flowEntry(text, i, true);
      const keyEnd = key.range![1];
      if (!isScalar(key) || text.charCodeAt(keyEnd) !== COLON || text.charCodeAt(keyEnd + 1) !== SPACE) notScannable('a flow map entry without `key: value`');
      const value = flowEntry(text, skipSpaces(text, keyEnd + 1));
      items.push(pairNode(key, value));
      i = value.range![1];
    }
    i = skipSpaces(text, i);
    const c = text.charCodeAt(i);
    if (c === COMMA) i = skipSpaces(text, i + 1);
    else if (c !== close) notScannable('a flow collection over several lines, or one the scanner does not read');
  }
  const end = i + 1;
  return isSeq ? seqNode(items as Node[], [start, end, end], true) : mapNode(items as Pair[], [start, end, end], true);
}

/** One entry of a flow collection (its `range[1]` is after its last character, spaces not skipped). */
function flowEntry(text: string, i: number, key = false): Node {
  const c = text.charCodeAt(i);
  if (c === LBRACKET || c === LBRACE) return flowCollection(text, i);
  if (c === DQUOTE || c === SQUOTE) return quotedScalar(text, i);
  if (plainCannotStart(text, i, true)) notScannable('a flow entry the scanner does not read');
  let end = i;
  for (let k = i; k < text.length; k++) {
    const ch = text.charCodeAt(k);
    if (ch === LF || isFlowIndicator(ch)) break;
    if (ch < 32 || (ch >= 127 && unusual(ch))) notScannable('a tab or an unusual character');
    if (ch === SPACE) {
      if (text.charCodeAt(k + 1) === HASH) break;
      continue;
    }
    if (ch === COLON) {
      const n = text.charCodeAt(k + 1);
      if (Number.isNaN(n) || n === SPACE || n === LF || isFlowIndicator(n)) {
        if (!key) notScannable('a `key: value` pair inside a flow list');
        break;
      }
    }
    end = k + 1;
  }
  return plainScalar(text.slice(i, end), [i, end, end]);
}
