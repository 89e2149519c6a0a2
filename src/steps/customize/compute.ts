/**
 * Customization for every hop of the plan (spec 9.1.5, 9.2): for each pack that changes version,
 * compare the deployed values with the new reference defaults (3-way when the old defaults are
 * known), carry the site's settings into the new defaults' document, carry site-added manifests,
 * make the runbook's rules hold, and check them on the result. Hop n starts from hop n-1's result;
 * every document is parsed once and reused.
 */
import { StepFailedError } from '../../errors.js';
import type { Params, ProfileRole } from '../../engine/params.js';
import type { RuleSpec } from '../../engine/runbook.js';
import {
  decide,
  decideManifests,
  diffManifests,
  diffValues,
  evaluateRule,
  mergeManifests,
  mergeValuesDocument,
  parsePath,
  parseValues,
  resolvePattern,
  type CarryItem,
  type Decision,
  type Manifest,
  type ValuesDocument,
  type ValuesSettings,
} from '../../values/index.js';
import { bindRule, type Binding, type BoundRule } from '../../values/rule-binding.js';
import { itemHolds } from '../../values/rules.js';
import type { PlanContract, PlannedProfile, RuleOutcome } from '../contracts.js';
import type { PackContent, PackSources } from './sources.js';
import { decisionKey, type CustomizeEntry, type CustomizeOutput, type DecisionMap, type EntryLabel, type PackCustomization, type ProfileCustomization } from './types.js';

export interface ComputeInput {
  plan: PlanContract;
  site: Params;
  rules: RuleSpec[];
  settings: ValuesSettings;
  sources: PackSources;
  decisions: DecisionMap;
}

interface PackState {
  values: ValuesDocument;
  manifests: Manifest[];
  from: string;
}

const show = (v: unknown) => v;

function countLabels(entries: CustomizeEntry[], ignored: number): Record<EntryLabel, number> {
  const counts: Record<EntryLabel, number> = { carried: 0, newDefault: 0, conflict: 0, ignored, candidate: 0, ruleFix: 0 };
  for (const e of entries) counts[e.label]++;
  return counts;
}

/** The reference set of the version a hop starts from (for the old defaults of a 3-way diff). */
function referenceFor(site: Params, version: string, role: ProfileRole): string | undefined {
  return site.references.find((r) => r.version === version)?.[role];
}

/**
 * A pack version's defaults: the reference profile, else the values folder, else the pack registry
 * (`profileUid` is the profile whose pack names its registry). Old defaults are optional: a registry
 * without the deployed tag only turns the comparison 2-way.
 */
async function sourceFor(sources: PackSources, profileRef: string | undefined, profileUid: string, pack: string, tag: string, optional = false): Promise<PackContent | undefined> {
  return (profileRef ? await sources.fromProfile(profileRef, pack, tag) : undefined) ?? sources.fromFolder(pack, tag) ?? (await sources.fromRegistry(profileUid, pack, tag, optional));
}

/**
 * Rules with a known required value (`equals`, `contains` on a list or a map) are made to hold on the
 * merged values: the value comes from the operator's own params, so this restores a customization
 * lost before (or lost to a conflict decision) instead of writing a draft the rule would refuse.
 */
function ruleFixes(rule: BoundRule, values: ValuesDocument): CarryItem[] {
  if (!rule.path || (rule.assert !== 'equals' && rule.assert !== 'contains') || rule.value === null) return [];
  const matches = resolvePattern(values, parsePath(rule.path));
  const fixes: CarryItem[] = [];
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

function outcome(rule: BoundRule, values: ValuesDocument | undefined, manifests: Manifest[] | undefined, where: string, note?: string): RuleOutcome {
  const r = evaluateRule(rule, { values, manifests });
  const message = `${where}: ${r.status === 'pass' ? r.actual : r.message}${note ? ` (${note})` : ''}`;
  return { id: rule.id, title: rule.title, profile: rule.profile, status: r.status, message, reason: rule.reason, pack: rule.pack };
}

/** A rule that does not apply to this site: grey, with the reason; it never blocks a draft. */
function notApplicable(rule: RuleSpec, binding: Extract<Binding, { applies: false }>): RuleOutcome {
  return { id: rule.id, title: rule.title, profile: rule.profile, status: 'notApplicable', message: binding.reason, reason: rule.reason, ...(binding.pack ? { pack: binding.pack } : {}) };
}

type Bound = { rule: RuleSpec; binding: Binding };
const applying = (bound: Bound[]): Array<{ rule: BoundRule; note?: string }> => bound.flatMap((b) => (b.binding.applies ? [{ rule: b.binding.rule, ...(b.binding.note ? { note: b.binding.note } : {}) }] : []));

async function customizePack(
  input: ComputeInput,
  hop: PlanContract['hops'][number],
  planned: PlannedProfile,
  change: { name: string; from: string; to: string },
  deployed: PackState,
  oldDefaults: PackState | undefined,
  bound: BoundRule[],
): Promise<{ result: PackCustomization; state: PackState; newDefaults: PackState }> {
  const { sources, settings } = input;
  const refUid = planned.reference?.kind === 'profile' ? planned.reference.uid : undefined;
  const fresh = await sourceFor(sources, refUid, planned.uid, change.name, change.to);
  if (!fresh) {
    throw new StepFailedError('customize.no-defaults', `No default values for ${change.name} ${change.to} (hop ${hop.index}, ${planned.name}).`, {
      hint: `Give hop ${hop.index} a reference profile holding ${change.name} ${change.to} (params references), add ${change.name}/${change.to}.yaml to the values folder (params valuesDir), or name the pack registry (params palette.registryUid).`,
    });
  }
  const newDefaults: PackState = { values: parseValues(fresh.values, `the ${change.name} ${change.to} defaults from ${fresh.from}`), manifests: fresh.manifests, from: fresh.from };
  const diff = diffValues({ deployed: deployed.values, newDefaults: newDefaults.values, oldDefaults: oldDefaults?.values, settings });

  // Conflicts keep the site's value unless the operator decided otherwise: customizations must survive.
  const decisions: Record<string, Decision> = {};
  const entries: CustomizeEntry[] = [];
  let ignored = 0;
  for (const e of diff.entries) {
    if (e.label === 'ignored') {
      ignored++;
      continue;
    }
    const given = input.decisions[decisionKey(hop.index, planned.role, change.name, e.path)];
    // Conflicts keep the site's value unless the operator decided otherwise, except a list both sides
    // changed (feature gates): there the site's items join the new version's, so neither side's are lost.
    const merge = e.suggestion !== undefined ? { value: e.suggestion } : undefined;
    let kind: CustomizeEntry['decision'];
    if (given === 'merge' && merge) [decisions[e.path], kind] = [merge, 'merged'];
    else if (given !== undefined && given !== 'merge') [decisions[e.path], kind] = [given, given === 'keepSite' ? 'keepSite' : given === 'takeNew' ? 'takeNew' : 'value'];
    else if (e.label === 'conflict') [decisions[e.path], kind] = merge ? [merge, 'merged'] : ['keepSite', 'keepSite'];
    entries.push({
      path: e.path,
      label: e.label,
      ...('deployed' in e ? { deployed: show(e.deployed) } : {}),
      ...('oldDefault' in e ? { oldDefault: show(e.oldDefault) } : {}),
      ...('newDefault' in e ? { newDefault: show(e.newDefault) } : {}),
      ...(e.label === 'conflict' && kind ? { decision: kind } : {}),
      ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}),
      ...(e.note ? { note: e.note } : {}),
    } as CustomizeEntry);
  }
  const carry = decide(diff, decisions);
  let merged = mergeValuesDocument({ newDefaults: newDefaults.values, carry, deployed: deployed.values });

  const packRules = bound.filter((r) => r.pack === change.name && r.path);
  const fixes = packRules.flatMap((r) => (evaluateRule(r, { values: merged }).status === 'fail' ? ruleFixes(r, merged) : []));
  if (fixes.length) {
    merged = mergeValuesDocument({ newDefaults: merged, carry: fixes, deployed: deployed.values });
    for (const f of fixes) entries.push({ path: f.path, label: 'ruleFix', result: 'value' in f ? f.value : undefined, note: 'set so a customization rule holds' });
  }
  const result = new Map(carry.map((c) => [c.path, c]));
  for (const e of entries) if (e.result === undefined) e.result = result.has(e.path) ? ('value' in result.get(e.path)! ? result.get(e.path)!.value : undefined) : e.newDefault;

  const mdiff = diffManifests(deployed.manifests, newDefaults.manifests, oldDefaults?.manifests);
  const manifests = mergeManifests(newDefaults.manifests, decideManifests(mdiff));
  const manifestChanges = mdiff.entries.map((m) => `${m.name}: ${m.label}`);

  return {
    result: {
      name: change.name,
      from: change.from,
      tag: change.to,
      values: merged.text,
      manifests: manifests.map((m) => ({ name: m.name, content: m.content })),
      carried: entries.filter((e) => e.label === 'carried' || e.label === 'candidate' || e.label === 'ruleFix' || (e.label === 'conflict' && e.decision !== 'takeNew')).length,
      mode: diff.mode,
      counts: countLabels(entries, ignored),
      entries,
      manifestChanges,
      sources: { deployed: deployed.from, newDefaults: newDefaults.from, ...(oldDefaults ? { oldDefaults: oldDefaults.from } : {}) },
      deployedValues: deployed.values.text,
    },
    state: { values: merged, manifests, from: `hop ${hop.index} result` },
    newDefaults,
  };
}

export async function computeCustomizations(input: ComputeInput): Promise<CustomizeOutput> {
  const { plan, site, sources } = input;
  const current = new Map<string, PackState>();
  const previousDefaults = new Map<string, PackState>();
  const out: CustomizeOutput = { byHop: [], conflicts: 0, ruleFailures: 0 };

  const deployedState = async (planned: PlannedProfile, pack: string): Promise<PackState | undefined> => {
    const key = `${planned.role}/${pack}`;
    const known = current.get(key);
    if (known) return known;
    const content = await sources.fromProfile(planned.uid, pack);
    if (!content) return undefined;
    const state = { values: parseValues(content.values, `the deployed values of ${pack}`), manifests: content.manifests, from: content.from };
    current.set(key, state);
    return state;
  };

  for (const hop of plan.hops) {
    const profiles: ProfileCustomization[] = [];
    for (const planned of hop.profiles) {
      const packs: PackCustomization[] = [];
      // Which pack plays each rule's kind in this profile, and where it keeps the setting.
      const held = (await sources.profile(planned.uid)).packs.map((p) => p.name);
      const ctx = { kinds: site.packs, held, profileName: planned.role === 'addon' ? 'add-on' : 'infrastructure' };
      const bound: Bound[] = input.rules.filter((r) => r.profile === planned.role).map((rule) => ({ rule, binding: bindRule(rule, ctx) }));
      const applies = applying(bound);
      for (const change of planned.packs) {
        const key = `${planned.role}/${change.name}`;
        const deployed = (await deployedState(planned, change.name)) ?? { values: parseValues('', 'no values'), manifests: [], from: 'not deployed (new pack)' };
        let oldDefaults = previousDefaults.get(key);
        if (!oldDefaults) {
          const old = await sourceFor(sources, referenceFor(site, hop.from, planned.role), planned.uid, change.name, change.from, true);
          if (old) oldDefaults = { values: parseValues(old.values, `the ${change.name} ${change.from} defaults`), manifests: old.manifests, from: old.from };
        }
        const { result, state, newDefaults } = await customizePack(input, hop, planned, change, deployed, oldDefaults, applies.map((a) => a.rule));
        packs.push(result);
        current.set(key, state);
        previousDefaults.set(key, newDefaults);
        out.conflicts += result.counts.conflict;
      }
      // A rule that fails on a pack this hop leaves alone is a customization lost earlier: restore it
      // (values only, same tag) when the rule says what the value must be.
      for (const { rule } of applies.filter((a) => !planned.packs.some((p) => p.name === a.rule.pack) && a.rule.path)) {
        const state = current.get(`${planned.role}/${rule.pack}`) ?? (await deployedState(planned, rule.pack));
        if (!state || evaluateRule(rule, { values: state.values }).status === 'pass') continue;
        const fixes = ruleFixes(rule, state.values);
        if (fixes.length === 0) continue;
        const fixed = mergeValuesDocument({ newDefaults: state.values, carry: fixes, deployed: state.values });
        const tag = (await sources.profile(planned.uid)).packs.find((p) => p.name === rule.pack)?.tag ?? '';
        const existing = packs.find((p) => p.name === rule.pack);
        const entries: CustomizeEntry[] = fixes.map((f) => ({ path: f.path, label: 'ruleFix', result: 'value' in f ? f.value : undefined, note: `restored so "${rule.title}" holds` }));
        if (existing) {
          existing.values = fixed.text;
          existing.entries.push(...entries);
          existing.counts.ruleFix += entries.length;
          existing.carried += entries.length;
        } else {
          packs.push({
            name: rule.pack,
            from: tag,
            tag,
            values: fixed.text,
            carried: entries.length,
            mode: 'twoWay',
            counts: countLabels(entries, 0),
            entries,
            manifestChanges: [],
            sources: { deployed: state.from, newDefaults: 'unchanged (same tag)' },
            deployedValues: state.values.text,
          });
        }
        current.set(`${planned.role}/${rule.pack}`, { ...state, values: fixed });
      }
      // Every rule of this profile, on what the draft will hold (or on what stays deployed).
      const rules: RuleOutcome[] = [];
      for (const { rule, binding } of bound) {
        if (!binding.applies) {
          rules.push(notApplicable(rule, binding));
          continue;
        }
        const pack = binding.rule.pack;
        const state = current.get(`${planned.role}/${pack}`) ?? (await deployedState(planned, pack));
        const changed = packs.some((p) => p.name === pack);
        rules.push(outcome(binding.rule, state?.values, state?.manifests, `${pack}${changed ? ' (draft)' : ' (unchanged)'}`, binding.note));
      }
      out.ruleFailures += rules.filter((r) => r.status === 'fail').length;
      profiles.push({ role: planned.role, name: planned.name, packs, rules });
    }
    out.byHop.push({ index: hop.index, from: hop.from, to: hop.to, profiles });
  }
  return out;
}
