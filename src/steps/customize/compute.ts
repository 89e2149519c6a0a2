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
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import { profileRoles, type ProfileRole } from '../../engine/params.js';
import { parseValues } from '../../values/index.js';
import { bindRule } from '../../values/rule-binding.js';
import { readValues, type ComputeInput, type ProfileRun } from './compute-input.js';
import { draftAdditions } from './draft-additions.js';
import { offerFixes } from './fix-offers.js';
import { customizePack } from './pack-customize.js';
import { referenceFor, sourceFor, type PackState } from './pack-state.js';
import { profileRules } from './profile-rules.js';
import { applying, type Bound } from './rule-outcomes.js';
import type { CustomizeOutput, PackCustomization, ProfileCustomization } from './types.js';

export type { ComputeInput } from './compute-input.js';

/** What runs across the hops: each pack's values as the last hop left them, and its last new defaults (the next hop's old ones). */
interface Carried {
  current: Map<string, PackState>;
  previousDefaults: Map<string, PackState>;
}

/** The pack versions this profile's hop writes, each customized from what the hop before left. */
async function customizePacks(run: ProfileRun, carried: Carried, before: Map<string, PackState>): Promise<void> {
  const { input, hop, planned } = run;
  for (const change of planned.packs) {
    const key = `${planned.role}/${change.name}`;
    const deployed = (await run.deployedState(change.name)) ?? { values: parseValues('', 'no values'), manifests: [], from: 'not deployed (new pack)' };
    let oldDefaults = carried.previousDefaults.get(key);
    if (!oldDefaults) {
      const old = await sourceFor(input.sources, referenceFor(input.site, hop.from, planned.role), planned.uid, change.name, change.from, true);
      if (old) oldDefaults = { values: readValues(input, old.values, `the ${change.name} ${change.from} defaults`), manifests: old.manifests, from: old.from };
    }
    const r = await customizePack(input, hop, planned, change, deployed, oldDefaults);
    run.packs.push(r.result);
    before.set(change.name, r.before);
    run.defaultsOf.set(change.name, r.newDefaults);
    run.entered.set(change.name, r.entered);
    carried.current.set(key, r.state);
    carried.previousDefaults.set(key, r.newDefaults);
  }
}

/** One profile in one hop: its packs, the fixes offered, the additions listed, its rules judged. */
async function customizeProfile(input: ComputeInput, hop: ComputeInput['plan']['hops'][number], role: ProfileRole, carried: Carried): Promise<ProfileCustomization> {
  const { site, sources } = input;
  const { current } = carried;
  const changes = hop.profiles.find((p) => p.role === role);
  // A profile this hop leaves alone: its rules are still judged on what stays, and shown.
  const planned: PlannedProfile = changes ?? { role, uid: site.profiles[role].uid, name: (await sources.profile(site.profiles[role].uid)).name, fromVersion: '', toVersion: '', packs: [] };
  const deployedState = async (pack: string): Promise<PackState | undefined> => {
    const key = `${planned.role}/${pack}`;
    const known = current.get(key);
    if (known) return known;
    const content = await sources.fromProfile(planned.uid, pack);
    if (!content) return undefined;
    const state = { values: readValues(input, content.values, `the deployed values of ${pack}`), manifests: content.manifests, from: content.from };
    current.set(key, state);
    return state;
  };
  // What the site runs before this hop, per pack (the rules judge the change from it).
  const before = new Map<string, PackState>();
  const start = new Map(current);
  const run: ProfileRun = {
    input,
    hop,
    planned,
    changes,
    current,
    packs: [] as PackCustomization[],
    deployedState,
    beforeOf: async (pack) => {
      if (!before.has(pack)) {
        const state = start.get(`${planned.role}/${pack}`) ?? (await deployedState(pack));
        if (state) before.set(pack, state);
      }
      return before.get(pack);
    },
    defaultsOf: new Map(),
    entered: new Map(),
  };

  // Which pack plays each rule's kind in this profile, and where it keeps the setting.
  const held = (await sources.profile(planned.uid)).packs.map((p) => p.name);
  const ctx = { kinds: site.packs, held, profileName: planned.role === 'addon' ? 'add-on' : 'infrastructure' };
  const bound: Bound[] = input.rules.filter((r) => r.profile === planned.role).map((rule) => ({ rule, binding: bindRule(rule, ctx) }));
  await customizePacks(run, carried, before);
  const fixes = await offerFixes(run, applying(bound));
  const additions = await draftAdditions(run, fixes.fixes);
  const rules = await profileRules(run, bound, fixes);
  return { role: planned.role, name: planned.name, packs: run.packs, rules, fixes: fixes.fixes, additions };
}

export async function computeCustomizations(input: ComputeInput): Promise<CustomizeOutput> {
  const carried: Carried = { current: new Map(), previousDefaults: new Map() };
  const out: CustomizeOutput = { byHop: [], conflicts: 0, ruleFailures: 0, notOnSite: 0 };
  for (const hop of input.plan.hops) {
    const profiles: ProfileCustomization[] = [];
    for (const role of profileRoles) {
      const p = await customizeProfile(input, hop, role, carried);
      out.conflicts += p.packs.reduce((n, k) => n + k.counts.conflict, 0);
      out.ruleFailures += p.rules.filter((r) => r.status === 'fail').length;
      out.notOnSite += p.rules.filter((r) => r.status === 'notOnSite').length;
      profiles.push(p);
    }
    out.byHop.push({ index: hop.index, from: hop.from, to: hop.to, profiles });
  }
  return out;
}
