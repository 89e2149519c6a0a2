/**
 * Customization for every hop of the plan (spec 9.1.5, 9.2): for each pack that changes version,
 * compare the deployed values with the new reference defaults (3-way when the old defaults are
 * known), with the keys the new version moved put in their new place first (version notes), carry
 * the site's settings into the new defaults' document, carry site-added manifests, and judge every
 * rule on the change: what the site ran before the hop against the draft. Hop n starts from hop
 * n-1's result; every document is parsed once and reused.
 *
 * Nothing is added that nobody chose: a rule's fix is offered, never applied unless chosen, and any
 * value of a draft that is neither the site's nor a new default is listed and left out unless chosen.
 */
import { StepFailedError } from '../../errors.js';
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { RuleSpec, VersionNote } from '../../engine/runbook.js';
import {
  decide,
  decideManifests,
  diffManifests,
  diffValues,
  mergeManifests,
  mergeValuesDocument,
  parseConcretePath,
  parsePath,
  parseValues,
  resolvePattern,
  showValue,
  type CarryItem,
  type Decision,
  type Manifest,
  type ValuesDocument,
  type ValuesSettings,
} from '../../values/index.js';
import { deepEqual } from '../../values/equal.js';
import { findAdditions } from '../../values/provenance.js';
import { relocate, type Move } from '../../values/relocate.js';
import { bindRule, type Binding, type BoundRule } from '../../values/rule-binding.js';
import { judgeRule } from '../../values/rule-judgment.js';
import { itemHolds } from '../../values/rules.js';
import { evaluateThroughVariables, variableFix, variablesAt, withValues, type VariableView } from '../../values/rule-variables.js';
import type { ValuesCache } from '../../values/values-cache.js';
import { notesFor } from '../../values/version-notes.js';
import type { PlanContract, PlannedProfile, RuleOutcome } from '../contracts.js';
import { parsedValues } from '../parsed-values.js';
import type { PackContent, PackSources } from './sources.js';
import {
  decisionKey,
  type CustomizeEntry,
  type CustomizeOutput,
  type DecisionMap,
  type DraftAddition,
  type EntryLabel,
  type FixChoices,
  type FixOffer,
  type PackCustomization,
  type ProfileCustomization,
} from './types.js';

export interface ComputeInput {
  plan: PlanContract;
  site: Params;
  rules: RuleSpec[];
  settings: ValuesSettings;
  sources: PackSources;
  decisions: DecisionMap;
  /** The runbook's version notes: keys a version moved or removed. */
  notes?: readonly VersionNote[] | undefined;
  /** Fixes and additions chosen so far (rule id, or an addition's key → who chose it). */
  fixes?: FixChoices | undefined;
  /**
   * Per profile, the variables it declares with this cluster's values (a real Palette): a rule whose
   * setting is a `{{.spectro.var.NAME}}` reference is judged on the cluster's value of NAME.
   */
  variables?: Partial<Record<ProfileRole, VariableView>> | undefined;
  /** Where values documents are parsed once (default: the process's cache, `parsed-values.ts`). */
  parsed?: ValuesCache | undefined;
}

/** A values text parsed, or taken from the cache when this process parsed it before. */
const read = (input: ComputeInput, text: string, what: string): ValuesDocument => (input.parsed ?? parsedValues).parse(text, what);

interface PackState {
  values: ValuesDocument;
  manifests: Manifest[];
  from: string;
}

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
 * What would make a rule with a known required value (`equals`, `contains` on a list or a map) hold
 * on these values. Only ever offered: written when someone chooses it.
 */
function ruleFixes(rule: BoundRule, values: ValuesDocument): Array<{ path: string; value: unknown }> {
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
function notApplicable(rule: RuleSpec, binding: Extract<Binding, { applies: false }>): RuleOutcome {
  return { id: rule.id, title: rule.title, profile: rule.profile, status: 'notApplicable', message: binding.reason, reason: rule.reason, ...(binding.pack ? { pack: binding.pack } : {}) };
}

/**
 * A rule on the change: before the hop against the draft (or against what stays, for a pack the hop
 * leaves alone). A setting held by a profile variable is judged on the cluster's value of it: before
 * on the value the cluster has, after on the value the apply will send (the same, carried to the new
 * version, unless a chosen fix sets the rule's).
 */
function judged(rule: BoundRule, before: PackState | undefined, after: PackState | undefined, where: string, opts: { fixApplied: boolean; offered: boolean; note?: string | undefined; view?: VariableView | undefined; viewAfter?: VariableView | undefined }): RuleOutcome {
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

type Bound = { rule: RuleSpec; binding: Binding };
const applying = (bound: Bound[]): Array<{ rule: BoundRule; note?: string }> => bound.flatMap((b) => (b.binding.applies ? [{ rule: b.binding.rule, ...(b.binding.note ? { note: b.binding.note } : {}) }] : []));

/** The value a path holds in a document (undefined when it does not exist). */
function valueAt(values: ValuesDocument, path: string): { found: boolean; value?: unknown } {
  const p = parseConcretePath(path);
  const [m] = resolvePattern(values, p);
  return m && m.found ? { found: true, value: m.value } : { found: false };
}

/** `to` plus what follows `from` in `path`, when `path` is at or under `from` (for "moved from" notes). */
function under(path: string, prefix: string): string | undefined {
  if (path === prefix) return '';
  if (path.startsWith(prefix) && (path[prefix.length] === '.' || path[prefix.length] === '[')) return path.slice(prefix.length);
  return undefined;
}

const entryWords = (e: { path: string; result?: unknown }) => `sets \`${e.path}\` to ${showValue(e.result)}`;

interface PackResult {
  result: PackCustomization;
  state: PackState;
  newDefaults: PackState;
  /** The site's values as the new version lays them out (moved keys in their new place). */
  before: PackState;
  /** Paths whose values someone typed at the review. */
  entered: Array<{ path: string; value: unknown }>;
}

async function customizePack(
  input: ComputeInput,
  hop: PlanContract['hops'][number],
  planned: PlannedProfile,
  change: { name: string; from: string; to: string },
  deployed: PackState,
  oldDefaults: PackState | undefined,
): Promise<PackResult> {
  const { sources, settings } = input;
  const refUid = planned.reference?.kind === 'profile' ? planned.reference.uid : undefined;
  const fresh = await sourceFor(sources, refUid, planned.uid, change.name, change.to);
  if (!fresh) {
    throw new StepFailedError('customize.no-defaults', `No default values for ${change.name} ${change.to} (hop ${hop.index}, ${planned.name}).`, {
      hint: `Give hop ${hop.index} a reference profile holding ${change.name} ${change.to} (params references), add ${change.name}/${change.to}.yaml to the values folder (params valuesDir), or name the pack registry (params palette.registryUid).`,
    });
  }
  const newDefaults: PackState = { values: read(input, fresh.values, `the ${change.name} ${change.to} defaults from ${fresh.from}`), manifests: fresh.manifests, from: fresh.from };

  // What the vendor says this version changed: moved keys go to their new place before comparing.
  const notes = notesFor(input.notes ?? [], change.name, input.site.packs.orchestration, change.from, change.to);
  const moves: Move[] = notes.flatMap((n) => n.moved);
  const removedKeys = notes.flatMap((n) => n.removed.map((r) => ({ ...r, since: n.since })));
  const relocated = relocate(deployed.values, moves, newDefaults.values);
  const oldRelocated = oldDefaults ? relocate(oldDefaults.values, moves, newDefaults.values).values : undefined;
  const before: PackState = { ...deployed, values: relocated.values };
  const diff = diffValues({ deployed: relocated.values, newDefaults: newDefaults.values, oldDefaults: oldRelocated, settings });

  const decisions: Record<string, Decision> = {};
  const entries: CustomizeEntry[] = [];
  const entered: Array<{ path: string; value: unknown }> = [];
  let ignored = 0;
  for (const e of diff.entries) {
    if (e.label === 'ignored') {
      ignored++;
      continue;
    }
    const given = input.decisions[decisionKey(hop.index, planned.role, change.name, e.path)];
    // A site value at a key the new version removed: said so, and dropped unless the operator keeps it
    // (a value at a key nothing reads any more is not a customization carried, it is a dead key).
    const noted = removedKeys.find((r) => under(e.path, r.path) !== undefined || under(r.path, e.path) !== undefined);
    const removed = 'deployed' in e && !('newDefault' in e) && (noted !== undefined || (diff.mode === 'threeWay' && e.label === 'conflict' && 'oldDefault' in e))
      ? (noted ? noted.reason : `${change.name} ${change.to} no longer has this key`)
      : undefined;
    const label = removed ? 'conflict' : e.label;
    // Conflicts keep the site's value unless the operator decided otherwise, except a list both sides
    // changed (feature gates): there the site's items join the new version's, so neither side's are lost.
    const merge = e.suggestion !== undefined ? { value: e.suggestion } : undefined;
    let kind: CustomizeEntry['decision'];
    if (given === 'merge' && merge) [decisions[e.path], kind] = [merge, 'merged'];
    else if (given !== undefined && given !== 'merge') [decisions[e.path], kind] = [given, given === 'keepSite' ? 'keepSite' : given === 'takeNew' ? 'takeNew' : 'value'];
    else if (removed) [decisions[e.path], kind] = ['takeNew', 'takeNew'];
    else if (label === 'conflict') [decisions[e.path], kind] = merge ? [merge, 'merged'] : ['keepSite', 'keepSite'];
    if (given !== undefined && given !== 'merge' && given !== 'keepSite' && given !== 'takeNew') entered.push({ path: e.path, value: given.value });
    const moved = relocated.moved.map((m) => ({ m, rest: under(e.path, m.to) })).find((x) => x.rest !== undefined);
    const note = removed ? `removed in the new version: dropped unless kept (${removed})` : e.note;
    entries.push({
      path: e.path,
      label,
      ...('deployed' in e ? { deployed: e.deployed } : {}),
      ...('oldDefault' in e ? { oldDefault: e.oldDefault } : {}),
      ...('newDefault' in e ? { newDefault: e.newDefault } : {}),
      ...(label === 'conflict' && kind ? { decision: kind } : {}),
      ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}),
      ...(note ? { note } : {}),
      ...(moved ? { movedFrom: `${moved.m.from}${moved.rest}` } : {}),
      ...(removed ? { removed } : {}),
    } as CustomizeEntry);
  }
  const carry = decide(diff, decisions);
  const merged = mergeValuesDocument({ newDefaults: newDefaults.values, carry, deployed: relocated.values });
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
      carried: entries.filter((e) => e.label === 'carried' || e.label === 'candidate' || (e.label === 'conflict' && e.decision !== 'takeNew')).length,
      mode: diff.mode,
      counts: countLabels(entries, ignored),
      entries,
      manifestChanges,
      sources: { deployed: deployed.from, newDefaults: newDefaults.from, ...(oldDefaults ? { oldDefaults: oldDefaults.from } : {}) },
      deployedValues: deployed.values.text,
    },
    state: { values: merged, manifests, from: `hop ${hop.index} result` },
    newDefaults,
    before,
    entered,
  };
}

/** Where the fix's words come from: the rule's `effect`, else its title and reason. */
function fixEffect(rule: BoundRule): string {
  return rule.effect ?? `makes "${rule.title}" hold (${rule.reason})`;
}

export async function computeCustomizations(input: ComputeInput): Promise<CustomizeOutput> {
  const { plan, site, sources } = input;
  const current = new Map<string, PackState>();
  const previousDefaults = new Map<string, PackState>();
  const out: CustomizeOutput = { byHop: [], conflicts: 0, ruleFailures: 0, notOnSite: 0 };
  const chosen = input.fixes ?? {};

  const deployedState = async (planned: Pick<PlannedProfile, 'role' | 'uid'>, pack: string): Promise<PackState | undefined> => {
    const key = `${planned.role}/${pack}`;
    const known = current.get(key);
    if (known) return known;
    const content = await sources.fromProfile(planned.uid, pack);
    if (!content) return undefined;
    const state = { values: read(input, content.values, `the deployed values of ${pack}`), manifests: content.manifests, from: content.from };
    current.set(key, state);
    return state;
  };

  for (const hop of plan.hops) {
    const profiles: ProfileCustomization[] = [];
    for (const role of profileRoles) {
      const changes = hop.profiles.find((p) => p.role === role);
      // A profile this hop leaves alone: its rules are still judged on what stays, and shown.
      const planned: PlannedProfile = changes ?? { role, uid: site.profiles[role].uid, name: (await sources.profile(site.profiles[role].uid)).name, fromVersion: '', toVersion: '', packs: [] };
      const packs: PackCustomization[] = [];
      // What the site runs before this hop, per pack (the rules judge the change from it).
      const before = new Map<string, PackState>();
      const start = new Map(current);
      const beforeOf = async (pack: string): Promise<PackState | undefined> => {
        if (!before.has(pack)) {
          const state = start.get(`${planned.role}/${pack}`) ?? (await deployedState(planned, pack));
          if (state) before.set(pack, state);
        }
        return before.get(pack);
      };
      const defaultsOf = new Map<string, PackState>();
      const entered = new Map<string, Array<{ path: string; value: unknown }>>();

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
          if (old) oldDefaults = { values: read(input, old.values, `the ${change.name} ${change.from} defaults`), manifests: old.manifests, from: old.from };
        }
        const r = await customizePack(input, hop, planned, change, deployed, oldDefaults);
        packs.push(r.result);
        before.set(change.name, r.before);
        defaultsOf.set(change.name, r.newDefaults);
        entered.set(change.name, r.entered);
        current.set(key, r.state);
        previousDefaults.set(key, r.newDefaults);
        out.conflicts += r.result.counts.conflict;
      }

      // Fixes: offered for every rule that does not hold in the draft (or on a pack this hop leaves
      // alone), and written only when someone chose them.
      const fixes: FixOffer[] = [];
      const fixed = new Set<string>();
      /** Variable values chosen fixes set for this cluster (the apply sends them; the drafts do not change). */
      const variableFixes: Array<{ name: string; value: string }> = [];
      // (Only where the hop makes a new version: a profile it leaves alone has no draft to hold a fix.)
      for (const { rule } of changes ? applies.filter((a) => a.rule.path) : []) {
        const key = `${planned.role}/${rule.pack}`;
        const base = await beforeOf(rule.pack);
        const state = current.get(key) ?? base;
        const view = input.variables?.[planned.role];
        if (!state || evaluateThroughVariables(rule, { values: state.values }, view).result.status === 'pass') continue;
        const chooser = chosen[rule.id];
        // A setting the profile holds as a variable: the remedy is this cluster's value of it, sent
        // with the apply; the shared version keeps the reference (a literal there would be one
        // cluster's value published to every cluster of the version).
        const via = variablesAt(rule, state.values, view);
        if (via.length) {
          const setting = variableFix(rule, via);
          if (setting.length === 0) continue;
          const names = setting.map((v) => v.name).join(', ');
          fixes.push({ rule: rule.id, title: rule.title, pack: rule.pack, items: [], variables: setting, effect: `${fixEffect(rule)}; sets this cluster's value of the profile variable ${names} with the apply (the shared profile keeps the reference)`, accepted: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
          if (chooser) {
            variableFixes.push(...setting);
            fixed.add(rule.id);
          }
          continue;
        }
        const items = ruleFixes(rule, state.values);
        if (items.length === 0) continue;
        fixes.push({ rule: rule.id, title: rule.title, pack: rule.pack, items, effect: fixEffect(rule), accepted: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
        if (!chooser) continue;
        const values = mergeValuesDocument({ newDefaults: state.values, carry: items, deployed: base?.values });
        const fixEntries: CustomizeEntry[] = items.map((f) => ({ path: f.path, label: 'ruleFix', result: f.value, note: `chosen fix for "${rule.title}"` }));
        const existing = packs.find((p) => p.name === rule.pack);
        if (existing) {
          existing.values = values.text;
          existing.entries.push(...fixEntries);
          existing.counts.ruleFix += fixEntries.length;
        } else {
          const tag = (await sources.profile(planned.uid)).packs.find((p) => p.name === rule.pack)?.tag ?? '';
          packs.push({
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
        current.set(key, { ...state, values });
        fixed.add(rule.id);
      }

      // Every value of the drafts that is neither the site's nor the new default: listed; left out unless chosen.
      const additions: DraftAddition[] = [];
      for (const f of fixes) {
        for (const item of f.items) additions.push({ pack: f.pack, path: item.path, value: item.value, source: 'ruleFix', rule: f.rule, what: `${entryWords({ path: item.path, result: item.value })}: ${f.effect}`, included: f.accepted, ...(f.chosenBy ? { chosenBy: f.chosenBy } : {}) });
      }
      for (const p of packs) {
        const key = `${planned.role}/${p.name}`;
        const state = current.get(key);
        const base = await beforeOf(p.name);
        if (!state || !base) continue;
        const typed = entered.get(p.name) ?? [];
        for (const t of typed) {
          const site = valueAt(base.values, t.path);
          const def = defaultsOf.get(p.name);
          const isDefault = def ? valueAt(def.values, t.path) : { found: false };
          if ((site.found && deepEqual(site.value, t.value)) || (isDefault.found && deepEqual(isDefault.value, t.value))) continue;
          additions.push({ pack: p.name, path: t.path, value: t.value, source: 'entered', what: `${entryWords({ path: t.path, result: t.value })} (typed at the customizations review)`, included: true, chosenBy: { by: 'operator' } });
        }
        const decided = [...fixes.filter((f) => f.accepted && f.pack === p.name).flatMap((f) => f.items.map((i) => i.path)), ...typed.map((t) => t.path)];
        const defaults = defaultsOf.get(p.name);
        const found = findAdditions(state.values, defaults ? [base.values, defaults.values] : [base.values], { listKeys: input.settings.listKeys, decided });
        const revert: CarryItem[] = [];
        for (const a of found) {
          const id = `${hop.index}/${planned.role}/${p.name}/${a.path}`;
          const chooser = chosen[id];
          additions.push({ pack: p.name, path: a.path, value: a.value, source: 'other', what: `${entryWords({ path: a.path, result: a.value })}, neither the site's value nor the new default`, included: chooser !== undefined, ...(chooser ? { chosenBy: chooser } : {}) });
          if (chooser) continue;
          const def = defaults ? valueAt(defaults.values, a.path) : { found: false };
          const site = valueAt(base.values, a.path);
          revert.push(def.found ? { path: a.path, value: def.value } : site.found ? { path: a.path, value: site.value } : { path: a.path, remove: true });
        }
        if (revert.length) {
          const values = mergeValuesDocument({ newDefaults: state.values, carry: revert, deployed: base.values });
          p.values = values.text;
          current.set(key, { ...state, values });
        }
      }

      // Every rule of this profile, on the change: before the hop against the draft (or what stays).
      const rules: RuleOutcome[] = [];
      for (const { rule, binding } of bound) {
        if (!binding.applies) {
          rules.push(notApplicable(rule, binding));
          continue;
        }
        const pack = binding.rule.pack;
        const after = current.get(`${planned.role}/${pack}`) ?? (await deployedState(planned, pack));
        const changed = packs.some((p) => p.name === pack);
        const where = `${pack}${changed ? ' (draft)' : changes ? ' (unchanged)' : ` (the ${planned.role === 'addon' ? 'add-on' : 'infrastructure'} profile is unchanged in this hop)`}`;
        const view = input.variables?.[planned.role];
        rules.push(judged(binding.rule, await beforeOf(pack), after, where, { fixApplied: fixed.has(rule.id), offered: fixes.some((f) => f.rule === rule.id), note: binding.note, view, viewAfter: withValues(view, variableFixes) }));
      }
      out.ruleFailures += rules.filter((r) => r.status === 'fail').length;
      out.notOnSite += rules.filter((r) => r.status === 'notOnSite').length;
      profiles.push({ role: planned.role, name: planned.name, packs, rules, fixes, additions });
    }
    out.byHop.push({ index: hop.index, from: hop.from, to: hop.to, profiles });
  }
  return out;
}
