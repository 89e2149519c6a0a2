/**
 * Fixes: offered for every rule that does not hold in the draft (only where the hop makes a new
 * version: a profile it leaves alone has no draft to hold one), and written only when someone chose
 * them. A setting the profile holds as a profile variable is fixed with this cluster's value of the
 * variable, sent with the apply; the shared version keeps the reference (a literal there would be
 * one cluster's value published to every cluster of the version).
 */
import { mergeValuesDocument } from '../../values/index.js';
import type { BoundRule } from '../../values/rule-binding.js';
import { evaluateThroughVariables, variableFix, variablesAt } from '../../values/rule-variables.js';
import type { ProfileRun } from './compute-input.js';
import { countLabels, type PackState } from './pack-state.js';
import { fixEffect, ruleFixes } from './rule-outcomes.js';
import type { CustomizeEntry, FixOffer } from './types.js';

export interface FixesResult {
  fixes: FixOffer[];
  /** Rules whose fix was chosen (and written, or set with the apply). */
  fixed: Set<string>;
  /** Variable values chosen fixes set for this cluster (the apply sends them; the drafts do not change). */
  variableFixes: Array<{ name: string; value: string }>;
}

/** A chosen fix written into the pack's draft (a pack the hop leaves alone gets a draft entry of its own). */
async function writeFix(run: ProfileRun, rule: BoundRule, state: PackState, base: PackState | undefined, items: Array<{ path: string; value: unknown }>): Promise<void> {
  const values = mergeValuesDocument({ newDefaults: state.values, carry: items, deployed: base?.values });
  const fixEntries: CustomizeEntry[] = items.map((f) => ({ path: f.path, label: 'ruleFix', result: f.value, note: `chosen fix for "${rule.title}"` }));
  const existing = run.packs.find((p) => p.name === rule.pack);
  if (existing) {
    existing.values = values.text;
    existing.entries.push(...fixEntries);
    existing.counts.ruleFix += fixEntries.length;
  } else {
    const tag = (await run.input.sources.profile(run.planned.uid)).packs.find((p) => p.name === rule.pack)?.tag ?? '';
    run.packs.push({
      name: rule.pack,
      from: tag,
      tag,
      values: values.text,
      carried: 0,
      mode: 'twoWay',
      counts: countLabels(fixEntries, 0),
      entries: fixEntries,
      manifestChanges: [],
      sources: { deployed: state.from, newDefaults: 'unchanged (same tag)' },
      deployedValues: state.values.text,
    });
  }
  run.current.set(`${run.planned.role}/${rule.pack}`, { ...state, values });
}

export async function offerFixes(run: ProfileRun, applies: ReadonlyArray<{ rule: BoundRule }>): Promise<FixesResult> {
  const out: FixesResult = { fixes: [], fixed: new Set(), variableFixes: [] };
  const chosen = run.input.fixes ?? {};
  const view = run.input.variables?.[run.planned.role];
  for (const { rule } of run.changes ? applies.filter((a) => a.rule.path) : []) {
    const base = await run.beforeOf(rule.pack);
    const state = run.current.get(`${run.planned.role}/${rule.pack}`) ?? base;
    if (!state || evaluateThroughVariables(rule, { values: state.values }, view).result.status === 'pass') continue;
    const chooser = chosen[rule.id];
    const via = variablesAt(rule, state.values, view);
    if (via.length) {
      const setting = variableFix(rule, via);
      if (setting.length === 0) continue;
      const names = setting.map((v) => v.name).join(', ');
      out.fixes.push({ rule: rule.id, title: rule.title, pack: rule.pack, items: [], variables: setting, effect: `${fixEffect(rule)}; sets this cluster's value of the profile variable ${names} with the apply (the shared profile keeps the reference)`, accepted: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
      if (chooser) {
        out.variableFixes.push(...setting);
        out.fixed.add(rule.id);
      }
      continue;
    }
    const items = ruleFixes(rule, state.values);
    if (items.length === 0) continue;
    out.fixes.push({ rule: rule.id, title: rule.title, pack: rule.pack, items, effect: fixEffect(rule), accepted: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
    if (!chooser) continue;
    await writeFix(run, rule, state, base, items);
    out.fixed.add(rule.id);
  }
  return out;
}
