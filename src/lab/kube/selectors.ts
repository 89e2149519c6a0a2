/**
 * Label and field selectors with the apiserver's syntax and semantics. A selector that does not
 * parse throws a KubeStatusException (400 BadRequest), which the server answers as is.
 *
 * Labels: `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x)`, `a>1`, `a<1`, joined by
 * commas. `!=` and `notin` also match objects without the label, as in Kubernetes.
 * Fields: `path=value`, `path==value`, `path!=value` on dotted paths; `\,` `\=` `\!` `\\` escape.
 * A field that is absent compares as the empty string (so `spec.nodeName=` finds unscheduled pods).
 */
import { KubeStatusException, badRequest } from './status.js';

export type LabelOperator = 'in' | 'notin' | 'exists' | 'doesnotexist' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface FieldRequirement {
  path: string;
  operator: '=' | '!=';
  value: string;
}

export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;
export type FieldMatcher = (obj: unknown) => boolean;

const everything = (): boolean => true;

// ---------------------------------------------------------------- labels

type Token = { t: 'ident'; v: string } | { t: 'op'; v: string } | { t: '('; v: '(' } | { t: ')'; v: ')' } | { t: ','; v: ',' } | { t: 'end'; v: '' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '<', '>']);

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ t: c, v: c } as Token);
      i += 1;
    } else if (c === '=' || c === '!' || c === '<' || c === '>') {
      const two = input.slice(i, i + 2);
      const op = two === '==' || two === '!=' ? two : c;
      tokens.push({ t: 'op', v: op });
      i += op.length;
    } else {
      let j = i;
      while (j < input.length && !SPECIAL.has(input[j]!) && !/\s/.test(input[j]!)) j += 1;
      tokens.push({ t: 'ident', v: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ t: 'end', v: '' });
  return tokens;
}

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function fail(selector: string, why: string): never {
  throw new KubeStatusException(badRequest(`unable to parse requirement: ${why} (in selector "${selector}")`));
}

function validateKey(selector: string, key: string): void {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const nameOk = name.length <= 63 && NAME_RE.test(name);
  const prefixOk = prefix === undefined || (prefix.length > 0 && prefix.length <= 253 && DNS_SUBDOMAIN_RE.test(prefix));
  if (!nameOk || !prefixOk) fail(selector, `invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
}

function validateValue(selector: string, value: string): void {
  if (value.length > 63 || !VALUE_RE.test(value)) fail(selector, `invalid label value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
}

export function parseLabelSelector(selector: string): LabelRequirement[] {
  if (selector.trim() === '') return [];
  const tokens = lex(selector);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const next = (): Token => tokens[pos++]!;
  const requirements: LabelRequirement[] = [];

  for (;;) {
    let tok = next();
    if (tok.t === 'op' && tok.v === '!') {
      tok = next();
      if (tok.t !== 'ident') fail(selector, `found '${tok.v}', expected: identifier after '!'`);
      validateKey(selector, tok.v);
      requirements.push({ key: tok.v, operator: 'doesnotexist', values: [] });
    } else {
      if (tok.t !== 'ident') fail(selector, `found '${tok.v}', expected: !, identifier, or 'end of string'`);
      const key = tok.v;
      validateKey(selector, key);
      const after = peek();
      if (after.t === ',' || after.t === 'end') {
        requirements.push({ key, operator: 'exists', values: [] });
      } else if (after.t === 'ident' && (after.v === 'in' || after.v === 'notin')) {
        next();
        if (next().t !== '(') fail(selector, `found '${tokens[pos - 1]!.v}', expected: '('`);
        if (peek().t === ')') fail(selector, `for 'in', 'notin' operators, values set can't be empty`);
        const values: string[] = [];
        for (;;) {
          // An empty value between commas (`in (a,,b)`) is allowed, as in the apiserver.
          const value = peek().t === 'ident' ? next().v : '';
          validateValue(selector, value);
          values.push(value);
          const sep = next();
          if (sep.t === ')') break;
          if (sep.t !== ',') fail(selector, `found '${sep.v || 'end of string'}', expected: ',' or ')'`);
        }
        requirements.push({ key, operator: after.v, values });
      } else if (after.t === 'op') {
        next();
        const value = peek().t === 'ident' ? next().v : '';
        validateValue(selector, value);
        if (after.v === '=' || after.v === '==') requirements.push({ key, operator: 'in', values: [value] });
        else if (after.v === '!=') requirements.push({ key, operator: 'notin', values: [value] });
        else if (after.v === '>' || after.v === '<') {
          if (!/^-?\d+$/.test(value)) fail(selector, `for 'Gt', 'Lt' operators, the value must be an integer`);
          requirements.push({ key, operator: after.v === '>' ? 'gt' : 'lt', values: [value] });
        } else fail(selector, `found '${after.v}', expected: '=', '!=', '==', 'in', notin'`);
      } else {
        fail(selector, `found '${after.v}', expected: '=', '!=', '==', 'in', notin'`);
      }
    }
    const sep = next();
    if (sep.t === 'end') return requirements;
    if (sep.t !== ',') fail(selector, `found '${sep.v}', expected: ',' or 'end of string'`);
  }
}

function matchesLabel(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case 'exists':
      return has;
    case 'doesnotexist':
      return !has;
    case 'in':
      return has && r.values.includes(value!);
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === 'gt' ? n > bound : n < bound;
    }
  }
}

export function labelMatcher(selector: string | undefined): LabelMatcher {
  const requirements = parseLabelSelector(selector ?? '');
  if (requirements.length === 0) return everything;
  return (labels) => requirements.every((r) => matchesLabel(r, labels));
}

// ---------------------------------------------------------------- fields

/** Splits on a separator that is not escaped with a backslash. */
function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      current += c + s[i + 1]!;
      i += 1;
    } else if (c === sep) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(s: string, selector: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[i + 1];
    if (n === undefined || !'\\,=!'.includes(n)) throw new KubeStatusException(badRequest(`invalid field selector: '${selector}'; invalid escape sequence`));
    out += n;
    i += 1;
  }
  return out;
}

export function parseFieldSelector(selector: string): FieldRequirement[] {
  if (selector.trim() === '') return [];
  const requirements: FieldRequirement[] = [];
  for (const term of splitUnescaped(selector, ',')) {
    if (term === '') continue;
    let found: { at: number; op: '!=' | '==' | '=' } | undefined;
    for (let i = 0; i < term.length && !found; i += 1) {
      if (term[i] === '\\') {
        i += 1;
        continue;
      }
      for (const op of ['!=', '==', '='] as const) {
        if (term.startsWith(op, i)) {
          found = { at: i, op };
          break;
        }
      }
    }
    if (!found) throw new KubeStatusException(badRequest(`invalid field selector: '${selector}'; can't understand '${term}'`));
    const path = unescape(term.slice(0, found.at), selector).trim();
    if (path === '') throw new KubeStatusException(badRequest(`invalid field selector: '${selector}'; field name is empty in '${term}'`));
    const value = unescape(term.slice(found.at + found.op.length), selector);
    requirements.push({ path, operator: found.op === '!=' ? '!=' : '=', value });
  }
  return requirements;
}

/** The value a field selector compares: scalars as text, anything else (or nothing) as ''. */
export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return '';
}

export function fieldMatcher(selector: string | undefined): FieldMatcher {
  const requirements = parseFieldSelector(selector ?? '');
  if (requirements.length === 0) return everything;
  return (obj) => requirements.every((r) => (fieldValue(obj, r.path) === r.value) === (r.operator === '='));
}
