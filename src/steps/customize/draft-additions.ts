/**
 * Every value of the drafts that is neither the site's (before the hop) nor the new default: a
 * rule's fix, a value typed at the review, or anything else. Listed; in the draft only when chosen
 * (a typed value was chosen by typing it); any other is put back to the new default, or the site's
 * value, or removed.
 */
import { mergeValuesDocument, type CarryItem } from '../../values/index.js';
import { deepEqual } from '../../io/deep-equal.js';
import { findAdditions } from '../../values/provenance.js';
import type { ProfileRun } from './compute-input.js';
import { entryWords, valueAt, type PackState } from './pack-state.js';
import type { DraftAddition, FixOffer, PackCustomization } from './types.js';

/** The fixes' settings, each an addition (in the draft when the fix was chosen). */
const fixAdditions = (fixes: readonly FixOffer[]): DraftAddition[] =>
  fixes.flatMap((f) => f.items.map((item): DraftAddition => ({ pack: f.pack, path: item.path, value: item.value, source: 'ruleFix', rule: f.rule, what: `${entryWords({ path: item.path, result: item.value })}: ${f.effect}`, included: f.accepted, ...(f.chosenBy ? { chosenBy: f.chosenBy } : {}) })));

/** Values typed at the review that are neither the site's nor the new default. */
function typedAdditions(p: PackCustomization, typed: ReadonlyArray<{ path: string; value: unknown }>, base: PackState, defaults: PackState | undefined): DraftAddition[] {
  return typed.flatMap((t) => {
    const site = valueAt(base.values, t.path);
    const isDefault = defaults ? valueAt(defaults.values, t.path) : { found: false };
    if ((site.found && deepEqual(site.value, t.value)) || (isDefault.found && deepEqual(isDefault.value, t.value))) return [];
    return [{ pack: p.name, path: t.path, value: t.value, source: 'entered' as const, what: `${entryWords({ path: t.path, result: t.value })} (typed at the customizations review)`, included: true, chosenBy: { by: 'operator' as const } }];
  });
}

/** Any other value nobody chose: listed, and put back in the draft unless chosen. */
function otherAdditions(run: ProfileRun, p: PackCustomization, state: PackState, base: PackState, decided: string[]): { additions: DraftAddition[]; revert: CarryItem[] } {
  const chosen = run.input.fixes ?? {};
  const defaults = run.defaultsOf.get(p.name);
  const found = findAdditions(state.values, defaults ? [base.values, defaults.values] : [base.values], { listKeys: run.input.settings.listKeys, decided });
  const additions: DraftAddition[] = [];
  const revert: CarryItem[] = [];
  for (const a of found) {
    const chooser = chosen[`${run.hop.index}/${run.planned.role}/${p.name}/${a.path}`];
    additions.push({ pack: p.name, path: a.path, value: a.value, source: 'other', what: `${entryWords({ path: a.path, result: a.value })}, neither the site's value nor the new default`, included: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
    if (chooser) continue;
    const def = defaults ? valueAt(defaults.values, a.path) : { found: false };
    const site = valueAt(base.values, a.path);
    revert.push(def.found ? { path: a.path, value: def.value } : site.found ? { path: a.path, value: site.value } : { path: a.path, remove: true });
  }
  return { additions, revert };
}

export async function draftAdditions(run: ProfileRun, fixes: readonly FixOffer[]): Promise<DraftAddition[]> {
  const additions = fixAdditions(fixes);
  for (const p of run.packs) {
    const key = `${run.planned.role}/${p.name}`;
    const state = run.current.get(key);
    const base = await run.beforeOf(p.name);
    if (!state || !base) continue;
    const typed = run.entered.get(p.name) ?? [];
    additions.push(...typedAdditions(p, typed, base, run.defaultsOf.get(p.name)));
    const decided = [...fixes.filter((f) => f.accepted && f.pack === p.name).flatMap((f) => f.items.map((i) => i.path)), ...typed.map((t) => t.path)];
    const other = otherAdditions(run, p, state, base, decided);
    additions.push(...other.additions);
    if (other.revert.length) {
      const values = mergeValuesDocument({ newDefaults: state.values, carry: other.revert, deployed: base.values });
      p.values = values.text;
      run.current.set(key, { ...state, values });
    }
  }
  return additions;
}
