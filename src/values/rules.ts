/**
 * Checking one customization rule of spec 9.2 against a pack's values (or manifests): on the merged
 * payload before a draft is written, and on the deployed profile after reconciliation. A failure
 * says what is wrong, where, what was expected and why it matters.
 */
import { PilotError } from '../errors.js';
import { describeKind, showValue } from './describe.js';
import { deepEqual } from '../io/deep-equal.js';
import type { Manifest } from './manifests.js';
import { parsePath } from './path.js';
import { resolvePattern, type PathMatch } from './resolve.js';
import type { RuleSpec } from './rule-schema.js';
import { toValuesDocument, type ValuesInput } from './values-document.js';

export interface RuleInput {
  /** The pack's values (text or parsed). */
  values?: ValuesInput | undefined;
  /** The pack's manifests, for manifest rules. */
  manifests?: readonly Manifest[] | undefined;
}

export type RuleStatus = 'pass' | 'fail';

export interface RuleResult {
  id: string;
  title: string;
  profile: RuleSpec['profile'];
  pack: string;
  /** The rule's path, or `manifest <name>`. */
  target: string;
  status: RuleStatus;
  /** What the rule requires, in words (`false`, `contains "SMM"`, `set`). */
  expected: string;
  /** What was found, in words (`true`, `not set`, or `path: value` per match). */
  actual: string;
  message: string;
}

/** One match checked: ok, or the problem in words ("is true"). */
interface Check {
  ok: boolean;
  problem?: string;
}

/** Checks a rule bound to one pack and one place (a `kind` rule goes through `bindRule` first). */
export function evaluateRule(rule: RuleSpec, input: RuleInput): RuleResult {
  const pack = rule.pack ?? rule.kind ?? '';
  const base = { id: rule.id, title: rule.title, profile: rule.profile, pack, expected: expectation(rule) };
  if (rule.manifest !== undefined) return evaluateManifestRule(rule, rule.manifest, input.manifests, base);
  const pathText = rule.path as string;
  const result = (status: RuleStatus, actual: string, message: string): RuleResult => ({ ...base, target: pathText, status, actual, message });
  const where = `${pack} (${rule.profile} profile)`;
  const why = `Why: ${rule.reason}`;

  // A required value that comes from the params and was left out there: nothing to compare with.
  if ((rule.assert === 'equals' || rule.assert === 'contains') && rule.value === null) {
    return result('fail', 'no required value', `${where}: \`${pathText}\` cannot be checked: the params file gives no value for it (the site setting this rule refers to is empty). ${why}`);
  }

  if (input.values === undefined) return result('fail', 'no values', `${where}: the pack's values are not available, so \`${pathText}\` cannot be checked. ${why}`);
  let matches: PathMatch[];
  try {
    matches = resolvePattern(toValuesDocument(input.values, `the values of ${rule.pack}`), parsePath(pathText));
  } catch (err) {
    // Unreadable values fail the rule with the parser's position; anything else is a bug and propagates.
    if (!(err instanceof PilotError)) throw err;
    return result('fail', 'unreadable values', `${where}: ${err.message} ${why}`);
  }

  if (matches.length === 0) {
    if (rule.assert === 'absent') return result('pass', 'not set', `${where}: nothing matches \`${pathText}\`, as required.`);
    return result('fail', 'no match', `${where}: nothing matches \`${pathText}\`; expected ${base.expected}. Add the setting to the pack values. ${why}`);
  }

  const checked = matches.map((m) => ({ m, check: checkMatch(rule, m) }));
  const actual =
    matches.length === 1 ? describeFound(matches[0] as PathMatch) : matches.map((m) => `${m.path}: ${describeFound(m)}`).join('; ');
  const failed = checked.filter((c) => !c.check.ok);
  if (failed.length === 0) {
    if (matches.length === 1) return result('pass', actual, `${where}: \`${(matches[0] as PathMatch).path}\` ${passPhrase(rule)}.`);
    return result('pass', actual, `${where}: all ${matches.length} matches of \`${pathText}\` ${plural(passPhrase(rule))}.`);
  }
  const problems = failed.map(({ m, check }) => `\`${m.path}\` ${check.problem}`).join('; ');
  return result('fail', actual, `${where}: ${problems}; expected ${base.expected}. ${why}`);
}

function evaluateManifestRule(rule: RuleSpec, name: string, manifests: readonly Manifest[] | undefined, base: Omit<RuleResult, 'target' | 'status' | 'actual' | 'message'>): RuleResult {
  const target = `manifest ${name}`;
  const where = `${base.pack} (${rule.profile} profile)`;
  const why = `Why: ${rule.reason}`;
  if (manifests === undefined) return { ...base, target, status: 'fail', actual: 'no manifests', message: `${where}: the pack's manifests are not available, so manifest \`${name}\` cannot be checked. ${why}` };
  const found = manifests.find((m) => m.name === name);
  const present = found !== undefined && found.content.trim() !== '';
  const actual = found === undefined ? 'missing' : present ? 'present' : 'present but empty';
  const ok = rule.assert === 'absent' ? !present : present;
  const message = ok
    ? `${where}: manifest \`${name}\` is ${rule.assert === 'absent' ? 'absent' : 'present'}, as required.`
    : rule.assert === 'absent'
      ? `${where}: manifest \`${name}\` is present; it must be removed. ${why}`
      : `${where}: manifest \`${name}\` is ${actual}; add it to the pack. ${why}`;
  return { ...base, target, status: ok ? 'pass' : 'fail', actual, message };
}

function expectation(rule: RuleSpec): string {
  if (rule.manifest !== undefined) return rule.assert === 'absent' ? 'absent' : 'present';
  switch (rule.assert) {
    case 'equals':
      return showValue(rule.value);
    case 'contains':
      return `a value containing ${showValue(rule.value)}`;
    case 'present':
      return 'set (not null or empty)';
    case 'absent':
      return 'not set';
    case 'templateVariable':
      return 'a Palette macro {{ ... }} or a ${variable}';
    case 'notLiteralCidr':
      return 'no literal CIDR (a platform variable instead)';
  }
}

function passPhrase(rule: RuleSpec): string {
  switch (rule.assert) {
    case 'equals':
      return `is ${showValue(rule.value)}, as required`;
    case 'contains':
      return `contains ${showValue(rule.value)}, as required`;
    case 'present':
      return 'is set, as required';
    case 'absent':
      return 'is not set, as required';
    case 'templateVariable':
      return 'is a template variable, as required';
    case 'notLiteralCidr':
      return 'holds no literal CIDR, as required';
  }
}

function plural(phrase: string): string {
  return phrase.replace(/^is /, 'are ').replace(/^contains /, 'contain ').replace(/^holds /, 'hold ');
}

function describeFound(m: PathMatch): string {
  return m.found ? showValue(m.value) : 'not set';
}

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function checkMatch(rule: RuleSpec, m: PathMatch): Check {
  if (!m.found) return rule.assert === 'absent' ? { ok: true } : { ok: false, problem: `is not set (${m.reason})` };
  const v = m.value;
  switch (rule.assert) {
    case 'equals':
      return checkEquals(v, rule.value);
    case 'contains':
      return checkContains(v, rule.value);
    case 'present':
      return isEmptyValue(v) ? { ok: false, problem: v === null ? 'is null' : `is empty (${showValue(v)})` } : { ok: true };
    case 'absent':
      return isEmptyValue(v) ? { ok: true } : { ok: false, problem: `is set to ${showValue(v)}` };
    case 'templateVariable':
      return checkTemplateVariable(v);
    case 'notLiteralCidr':
      return checkNoCidr(v);
  }
}

function checkEquals(v: unknown, expected: unknown): Check {
  if (deepEqual(v, expected)) return { ok: true };
  const sameText = v !== null && expected !== null && typeof v !== 'object' && typeof expected !== 'object' && String(v) === String(expected);
  return { ok: false, problem: sameText ? `is ${showValue(v)} (${describeKind(v)}, not ${describeKind(expected)})` : `is ${showValue(v)}` };
}

/** A list item holds what is wanted: equal, or (a map wanted) a map with at least those key-values. */
export function itemHolds(item: unknown, wanted: unknown): boolean {
  if (deepEqual(item, wanted)) return true;
  const isMap = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
  return isMap(item) && isMap(wanted) && Object.entries(wanted).every(([k, w]) => Object.hasOwn(item, k) && deepEqual(item[k], w));
}

function checkContains(v: unknown, expected: unknown): Check {
  if (Array.isArray(v)) {
    const wanted = Array.isArray(expected) ? expected : [expected];
    const missing = wanted.filter((w) => !v.some((item) => itemHolds(item, w)));
    return missing.length === 0 ? { ok: true } : { ok: false, problem: `lacks ${missing.map((x) => showValue(x)).join(', ')}` };
  }
  if (v !== null && typeof v === 'object') {
    if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return { ok: false, problem: `is a map, which can only contain key-values, not ${showValue(expected)}` };
    const map = v as Record<string, unknown>;
    const wrong = Object.entries(expected).filter(([k, want]) => !Object.hasOwn(map, k) || !deepEqual(map[k], want));
    if (wrong.length === 0) return { ok: true };
    const parts = wrong.map(([k, want]) => (Object.hasOwn(map, k) ? `has ${k}: ${showValue(map[k])} instead of ${showValue(want)}` : `lacks ${k}: ${showValue(want)}`));
    return { ok: false, problem: parts.join(', ') };
  }
  if (typeof v === 'string') {
    if (typeof expected !== 'string') return { ok: false, problem: `is a string, which can only contain text, not ${showValue(expected)}` };
    return v.includes(expected) ? { ok: true } : { ok: false, problem: `is ${showValue(v)}` };
  }
  return { ok: false, problem: `is ${describeKind(v)} (${showValue(v)}), which cannot contain anything` };
}

const macro = /^\{\{(?:(?!\}\})[\s\S])*\}\}$/;
const variable = /^\$\{[^{}\s]+\}$/;

/** A whole value that is one Palette macro (`{{ .spectro... | pipes }}`) or one profile variable (`${name}`). */
export function isTemplateVariable(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const t = value.trim();
  return macro.test(t) || variable.test(t);
}

function checkTemplateVariable(v: unknown): Check {
  if (typeof v === 'string') return isTemplateVariable(v) ? { ok: true } : { ok: false, problem: `is ${showValue(v)}, not a template variable` };
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: false, problem: 'is an empty list' };
    const bad = v.map((item, i) => ({ item, i })).filter(({ item }) => !isTemplateVariable(item));
    return bad.length === 0 ? { ok: true } : { ok: false, problem: bad.map(({ item, i }) => `item [${i}] is ${showValue(item)}, not a template variable`).join(', ') };
  }
  return { ok: false, problem: `is ${describeKind(v)} (${showValue(v)}), not a template variable` };
}

const templates = /\{\{[\s\S]*?\}\}|\$\{[^}]*\}/g;
const ipv4Cidr = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}(?!\d)/;
const ipv6Cidr = /(?<![0-9A-Fa-f:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}\/\d{1,3}(?!\d)/;

/** The first literal CIDR in the value's strings, outside macros and variables. */
export function findLiteralCidr(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const bare = value.replace(templates, ' ');
    return (ipv4Cidr.exec(bare) ?? ipv6Cidr.exec(bare))?.[0];
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = findLiteralCidr(item);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') return findLiteralCidr(Object.values(value));
  return undefined;
}

function checkNoCidr(v: unknown): Check {
  const hit = findLiteralCidr(v);
  return hit === undefined ? { ok: true } : { ok: false, problem: `holds the literal CIDR ${hit}` };
}
