/**
 * The rules on the change: each bound to the pack that plays its kind on this site, judged before
 * the hop against the draft (or against what stays), and, where a rule with a known value does not
 * hold, the settings that would make it hold (offered, never written unless chosen).
 */
import type { RuleSpec } from '../../values/rule-schema.js';
import { parsePath, resolvePattern, type ValuesDocument } from '../../values/index.js';
import type { Binding, BoundRule } from '../../values/rule-binding.js';
import { judgeRule } from '../../values/rule-judgment.js';
import { itemHolds } from '../../values/rules.js';
import { evaluateThroughVariables, variablesAt, type VariableView } from '../../values/rule-variables.js';
import type { RuleOutcome } from '../contracts.js';
import type { PackState } from './pack-state.js';

/**
 * What would make a rule with a known required value (`equals`, `contains` on a list or a map) hold
 * on these values. Only ever offered: written when someone chooses it.
 */
export function ruleFixes(rule: BoundRule, values: ValuesDocument): Array<{ path: string; value: unknown }> {
  if (!rule.path || (rule.assert !== 'equals' && rule.assert !== 'contains') || rule.value === null) return [];
  const matches = resolvePattern(values, parsePath(rule.path));
  const fixes: Array<{ path: string; value: unknown }> = [];
  for (const m of matches) {
    if (!m.found) {
      if (!rule.path.includes('*') && rule.assert === 'equals') fixes.push({ path: m.path, value: rule.value });
      continue;
    }
    if (rule.assert === 'equals') fixes.push({ path: m.path, value: rule.value });
    else if (Array.isArray(m.value) && !m.value.some((x) => itemHolds(x, rule.value))) fixes.push({ path: m.path, value: [...m.value, rule.value] });
    else if (m.value && typeof m.value === 'object' && !Array.isArray(m.value) && rule.value && typeof rule.value === 'object') fixes.push({ path: m.path, value: { ...(m.value as object), ...(rule.value as object) } });
  }
  return fixes;
}

/** A rule that does not apply to this site: grey, with the reason; it never blocks a draft. */
export function notApplicable(rule: RuleSpec, binding: Extract<Binding, { applies: false }>): RuleOutcome {
  return { id: rule.id, title: rule.title, profile: rule.profile, status: 'notApplicable', message: binding.reason, reason: rule.reason, ...(binding.pack ? { pack: binding.pack } : {}) };
}

/**
 * A rule on the change: before the hop against the draft (or against what stays, for a pack the hop
 * leaves alone). A setting held by a profile variable is judged on the cluster's value of it: before
 * on the value the cluster has, after on the value the apply will send (the same, carried to the new
 * version, unless a chosen fix sets the rule's).
 */
export function judged(rule: BoundRule, before: PackState | undefined, after: PackState | undefined, where: string, opts: { fixApplied: boolean; offered: boolean; note?: string | undefined; view?: VariableView | undefined; viewAfter?: VariableView | undefined }): RuleOutcome {
  const { result: rb } = evaluateThroughVariables(rule, { values: before?.values, manifests: before?.manifests }, opts.view);
  const { result: ra, via } = evaluateThroughVariables(rule, { values: after?.values, manifests: after?.manifests }, opts.viewAfter ?? opts.view);
  const variables = via.length ? { variables: via.map((v) => ({ name: v.name, state: v.state, ...(v.value !== undefined ? { value: v.value } : {}) })) } : {};
  // A sensitive variable kept in the draft: Palette masks the value, so neither side can be judged;
  // nothing is lost (the reference stays), and the operator is told it was not checked.
  const maskedKept = via.some((v) => v.state === 'masked') && variablesAt(rule, before?.values, opts.view).some((v) => v.state === 'masked');
  if (maskedKept) {
    const words = 'kept as a sensitive profile variable; Palette masks its value for this cluster, so the rule was not checked';
    return { id: rule.id, title: rule.title, profile: rule.profile, status: 'notOnSite', message: `${where}: ${words}: ${ra.actual}${opts.note ? ` (${opts.note})` : ''}`, reason: rule.reason, pack: rule.pack, target: ra.target, before: rb.status, verdict: words, ...variables };
  }
  const j = judgeRule(rb.status, ra.status, { required: rule.required, fixApplied: opts.fixApplied });
  const found = ra.actual === 'no match' || ra.actual === 'missing' ? 'is not set' : `is ${ra.actual}`;
  let message: string;
  if (j.verdict === 'held') message = `${where}: ${ra.actual}`;
  else if (j.status === 'pass') message = `${where}: ${j.words}: ${ra.actual}`;
  else if (j.verdict === 'notOnSite') message = `${where}: ${j.words}: \`${ra.target}\` ${found}${opts.offered ? ` (a fix is offered: --accept-fix ${rule.id})` : ''}`;
  else if (j.verdict === 'regression') message = `${where}: ${j.words}: ${ra.message}`;
  else message = `${where}: ${j.words}: ${ra.message}`;
  if (opts.note) message += ` (${opts.note})`;
  return { id: rule.id, title: rule.title, profile: rule.profile, status: j.status, message, reason: rule.reason, pack: rule.pack, target: ra.target, before: rb.status, verdict: j.words, ...variables };
}

export type Bound = { rule: RuleSpec; binding: Binding };
export const applying = (bound: Bound[]): Array<{ rule: BoundRule; note?: string }> => bound.flatMap((b) => (b.binding.applies ? [{ rule: b.binding.rule, ...(b.binding.note ? { note: b.binding.note } : {}) }] : []));


/** Where the fix's words come from: the rule's `effect`, else its title and reason. */
export function fixEffect(rule: BoundRule): string {
  return rule.effect ?? `makes "${rule.title}" hold (${rule.reason})`;
}
