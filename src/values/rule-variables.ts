/**
 * Rules through Palette profile variables. A shared profile may hold `'{{.spectro.var.NAME}}'` where
 * a rule looks (the ingress address of every cluster of a fleet), NAME declared on the profile and
 * each cluster its own value in Palette (`GET /v1/spectroclusters/{uid}/variables`, palette-sdk-go
 * spec 4.8: `v1SpectroClusterVariables {profileUid, variables: v1SpectroClusterVariableResponse[]}`,
 * a sensitive value masked). Such a rule is judged against the cluster's value, not the reference's
 * text, and its remedy is the cluster's value of NAME, never a literal written over the reference
 * (that would publish one cluster's value into the version every cluster shares). Pure.
 */
import { PilotError } from '../errors.js';
import { mergeValuesDocument } from './merge.js';
import { formatPath, parsePath, type PathSegment } from './path.js';
import { resolvePattern } from './resolve.js';
import { evaluateRule, type RuleInput, type RuleResult } from './rules.js';
import type { RuleSpec } from './rule-schema.js';
import { toValuesDocument, type ValuesDocument } from './values-document.js';

/** A variable the profile declares, with this cluster's value as Palette answers it. */
export interface ClusterVariable {
  name: string;
  /** `isSensitive`: Palette masks the value on every read, so it cannot be judged or carried. */
  sensitive: boolean;
  /** This cluster's value; undefined when none is set (or it is masked). */
  value?: string | undefined;
  defaultValue?: string | undefined;
}

/** The variables of one deployed profile, by name (only declared ones are in it). */
export type VariableView = ReadonlyMap<string, ClusterVariable>;

/** What a rule's match holds through a variable. */
export interface ViaVariable {
  path: string;
  name: string;
  /** value: judged on the cluster's value; masked: sensitive, not judged; unset: the default (or nothing) stands; undeclared: the profile declares no such variable. */
  state: 'value' | 'masked' | 'unset' | 'undeclared';
  /** The value the rule was judged on (the cluster's, or the declared default). */
  value?: string;
}

const reference = /^\s*\{\{\s*\.spectro\.var\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

/** The variable a whole value references (`{{.spectro.var.NAME}}`, spaces allowed, no pipes), else undefined. */
export function variableReference(value: unknown): string | undefined {
  return typeof value === 'string' ? reference.exec(value)?.[1] : undefined;
}

/** The variables a rule's path holds on these values (each match that is a whole reference). */
export function variablesAt(rule: Pick<RuleSpec, 'path'>, values: ValuesDocument | undefined, view: VariableView | undefined): ViaVariable[] {
  if (!rule.path || values === undefined) return [];
  let matches: ReturnType<typeof resolvePattern>;
  try {
    matches = resolvePattern(values, parsePath(rule.path));
  } catch (err) {
    if (err instanceof PilotError) return [];
    throw err;
  }
  const out: ViaVariable[] = [];
  for (const m of matches) {
    const name = m.found ? variableReference(m.value) : undefined;
    if (!name) continue;
    const v = view?.get(name);
    if (!v) out.push({ path: m.path, name, state: 'undeclared' });
    else if (v.sensitive) out.push({ path: m.path, name, state: 'masked' });
    else if (v.value !== undefined) out.push({ path: m.path, name, state: 'value', value: v.value });
    else out.push({ path: m.path, name, state: 'unset', ...(v.defaultValue !== undefined ? { value: v.defaultValue } : {}) });
  }
  return out;
}

/** One variable in words: `via profile variable INGRESS_IP (this cluster: 10.1.0.50)`. */
export function viaWords(v: ViaVariable): string {
  switch (v.state) {
    case 'value':
      return `via profile variable ${v.name} (this cluster: ${v.value})`;
    case 'masked':
      return `via sensitive profile variable ${v.name} (this cluster: masked by Palette, not checked)`;
    case 'unset':
      return `via profile variable ${v.name} (this cluster: no value set${v.value !== undefined ? `, its default ${v.value} stands` : ''})`;
    case 'undeclared':
      return `a reference to profile variable ${v.name}, which the profile does not declare`;
  }
}

export interface VariableJudgment {
  result: RuleResult;
  via: ViaVariable[];
}

/**
 * The rule on these values, each whole reference to a declared variable read as the cluster's value
 * of it (a masked or undeclared one stays as written, and fails an `equals` as text would). Without
 * a view (the spec's API, which has no variables) this is `evaluateRule`.
 */
export function evaluateThroughVariables(rule: RuleSpec, input: RuleInput, view: VariableView | undefined): VariableJudgment {
  if (view === undefined || input.values === undefined || !rule.path) return { result: evaluateRule(rule, input), via: [] };
  let values: ValuesDocument;
  try {
    values = toValuesDocument(input.values, `the values of ${rule.pack ?? ''}`);
  } catch (err) {
    if (err instanceof PilotError) return { result: evaluateRule(rule, input), via: [] };
    throw err;
  }
  const via = variablesAt(rule, values, view);
  if (via.length === 0) return { result: evaluateRule(rule, { ...input, values }), via };
  const carry = via.flatMap((v) => (v.value !== undefined && (v.state === 'value' || v.state === 'unset') ? [{ path: v.path, value: v.value }] : []));
  const resolved = carry.length ? mergeValuesDocument({ newDefaults: values, carry }) : values;
  const result = evaluateRule(rule, { ...input, values: resolved });
  const words = via.map(viaWords).join('; ');
  return { result: { ...result, actual: words, message: `${result.message} (${words})` }, via };
}

/** `view` with the values a chosen fix sets for this cluster (the apply sends them). */
export function withValues(view: VariableView | undefined, values: ReadonlyArray<{ name: string; value: string }>): VariableView | undefined {
  if (!view || values.length === 0) return view;
  const next = new Map(view);
  for (const v of values) {
    const known = next.get(v.name);
    if (known) next.set(v.name, { ...known, value: v.value });
  }
  return next;
}

/**
 * The remedy for a rule that a variable holds and whose value is not the rule's: the cluster's value
 * of each variable set to the rule's (`equals` with a scalar only), never the reference replaced.
 */
export function variableFix(rule: Pick<RuleSpec, 'assert' | 'value' | 'path'>, via: readonly ViaVariable[]): Array<{ name: string; value: string }> {
  if (rule.assert !== 'equals' || rule.value === null || typeof rule.value === 'object') return [];
  const wanted = String(rule.value);
  const names = [...new Set(via.filter((v) => v.state !== 'undeclared' && v.state !== 'masked' && v.value !== wanted).map((v) => v.name))];
  return names.map((name) => ({ name, value: wanted }));
}

/** Where a pack's values reference profile variables (each whole `{{.spectro.var.NAME}}` value), in document order. */
export function variableReferences(packs: ReadonlyArray<{ name: string; values: string }>): Array<{ name: string; pack: string; path: string }> {
  const out: Array<{ name: string; pack: string; path: string }> = [];
  const walk = (pack: string, node: unknown, segments: PathSegment[]) => {
    const name = variableReference(node);
    if (name) out.push({ name, pack, path: formatPath(segments) });
    else if (Array.isArray(node)) node.forEach((item, index) => walk(pack, item, [...segments, { kind: 'index', index }]));
    else if (node !== null && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(pack, value, [...segments, { kind: 'key', key }]);
  };
  for (const p of packs) {
    if (!p.values.includes('.spectro.var.')) continue;
    let doc: ValuesDocument;
    try {
      doc = toValuesDocument(p.values, `the values of ${p.name}`);
    } catch (err) {
      if (err instanceof PilotError) continue; // values that do not parse hold no reference this can see
      throw err;
    }
    for (const d of doc.docs) walk(p.name, d.toJS({ maxAliasCount: 100 }) as unknown, []);
  }
  return out;
}
