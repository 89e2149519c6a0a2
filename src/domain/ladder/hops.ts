/**
 * Each hop's profile changes: per profile, the packs whose tag the hop's reference profile changes
 * (the orchestration pack always to the hop's version), the new version label, and where the new
 * defaults come from. Without a reference profile a hop moves the orchestration pack and only the
 * packs the params' `moveWith` names; the rest stay. Pure: everything it needs was read already.
 */
import { profileRoles, type MoveWith, type Params, type ProfileRole } from '../../engine/params.js';
import type { PackDoc, ProfileDoc } from '../../palette/api.js';
import type { PlannedHop, PlannedPack, PlannedProfile } from '../plan/planned-hop.js';
import { componentVersions } from '../versions/components.js';
import type { Hop } from './ladder.js';
import { checkLabel, nextLabel } from './labels.js';
import { referenceFor, type ValuesFolder } from './reference-sources.js';
import { compareVersions, parseVersion, sameVersion, type Version } from '../versions/version.js';

export interface ProfileState {
  role: ProfileRole;
  uid: string;
  name: string;
  version: string;
  /** Pack name → tag, in the profile's order. */
  packs: Map<string, string>;
}

export interface HopInputs {
  site: Params;
  ladder: Hop[];
  /** The profiles as published now. */
  current: Record<ProfileRole, ProfileState>;
  /** Labels each profile has used (published versions, same-named profiles, the draft's). */
  usedLabels: Record<ProfileRole, Set<string>>;
  /** Reference profiles read, by uid. */
  references: ReadonlyMap<string, ProfileDoc>;
  folder: ValuesFolder | undefined;
  /** What the pack registry said, for hops without a reference profile; undefined without one. */
  registry?: RegistryFacts | undefined;
  /** Where each hop's version came from, by hop target. */
  versionSources?: ReadonlyMap<string, string>;
}

/** Registry reads the plan made beforehand (planHops stays pure). */
export interface RegistryFacts {
  /** The orchestration pack's registry and its description. */
  registryUid: string;
  label: string;
  /** The orchestration pack's defaults per hop version. */
  vmoValues: ReadonlyMap<string, string>;
  /** Registry tags of each moveWith pack. */
  moveWithTags: ReadonlyMap<string, string[]>;
}

export type HopsResult =
  | { ok: true; hops: PlannedHop[]; final: Record<ProfileRole, ProfileState> }
  | { ok: false; reason: string; hint: string };

export const packsOf = (doc: ProfileDoc): PackDoc[] => doc.publishedPacks ?? doc.packs;

export function stateOf(role: ProfileRole, doc: ProfileDoc): ProfileState {
  return { role, uid: doc.uid, name: doc.name, version: doc.publishedVersion ?? doc.version, packs: new Map(packsOf(doc).map((p) => [p.name, p.tag])) };
}

function refuse(reason: string, hint: string): HopsResult {
  return { ok: false, reason, hint };
}

/** The highest registry tag in `from`'s minor above it, or undefined when `from` is the latest patch. */
export function latestPatch(from: string, tags: readonly string[]): string | undefined {
  const v = parseVersion(from);
  if (!v) return undefined;
  let best: { tag: string; version: Version } | undefined;
  for (const tag of tags) {
    const t = parseVersion(tag);
    if (!t || t.major !== v.major || t.minor !== v.minor || compareVersions(t, v) <= 0) continue;
    if (!best || compareVersions(t, best.version) > 0) best = { tag, version: t };
  }
  return best?.tag;
}

/** Where a `moveWith` pack goes in the hop to `to`: its tag and why, or undefined when it stays. */
function movedTag(how: MoveWith, from: string, to: string, tags: readonly string[] | undefined): PlannedPack | undefined {
  if (how === 'latest-patch') {
    const tag = latestPatch(from, tags ?? []);
    return tag ? { name: '', from, to: tag, source: 'moveWith: latest patch' } : undefined;
  }
  const hit = Object.entries(how).find(([hop]) => sameVersion(hop, to));
  return hit && hit[1] !== from ? { name: '', from, to: hit[1], source: `moveWith: ${hit[1]} for ${hit[0]}` } : undefined;
}

/** Changes without a reference profile: the orchestration pack to the hop's version, and the packs `moveWith` names. */
function changesWithoutReference(site: Params, before: ProfileState, hop: Hop, registry: RegistryFacts | undefined): PlannedPack[] {
  const changes: PlannedPack[] = [];
  for (const [name, from] of before.packs) {
    if (name === site.packs.orchestration) {
      if (from !== hop.to) changes.push({ name, from, to: hop.to, source: "the hop's version" });
      continue;
    }
    const how = site.moveWith[name];
    const moved = how ? movedTag(how, from, hop.to, registry?.moveWithTags.get(name)) : undefined;
    if (moved) changes.push({ ...moved, name });
  }
  return changes;
}

export function planHops(input: HopInputs): HopsResult {
  const { site, folder, registry } = input;
  const vmo = site.packs.orchestration;
  const state = { infra: cloneState(input.current.infra), addon: cloneState(input.current.addon) };
  const used = { infra: new Set(input.usedLabels.infra), addon: new Set(input.usedLabels.addon) };
  const hops: PlannedHop[] = [];

  for (const [i, hop] of input.ladder.entries()) {
    const refSet = referenceFor(site, hop.to);
    const planned: PlannedProfile[] = [];
    let vmoValues: string | undefined;
    for (const role of profileRoles) {
      const before = state[role];
      const refUid = refSet?.[role];
      const ref = refUid ? input.references.get(refUid) : undefined;
      const holdsVmo = before.packs.has(vmo);
      let changes: PlannedPack[] = [];
      let reference: PlannedProfile['reference'];
      if (ref && refUid) {
        const refPacks = packsOf(ref);
        for (const [name, from] of before.packs) {
          const refPack = refPacks.find((p) => p.name === name);
          if (name === vmo) {
            if (refPack && !sameVersion(refPack.tag, hop.to)) {
              return refuse(
                `The reference profile ${ref.name} (${refUid}) given for ${hop.to} holds ${vmo} ${refPack.tag}, not ${hop.to}.`,
                `Fix references[] in the params file: the entry for ${hop.to} must point at reference profiles of that version.`,
              );
            }
            const to = refPack?.tag ?? hop.to;
            if (to !== from) changes.push({ name, from, to, source: "the hop's version" });
            if (refPack) vmoValues = refPack.values;
          } else if (refPack && refPack.tag !== from) changes.push({ name, from, to: refPack.tag, source: 'reference profile' });
        }
        reference = { kind: 'profile', uid: refUid };
      } else {
        changes = changesWithoutReference(site, before, hop, registry);
        const folderVmo = holdsVmo ? folder?.read(vmo, hop.to) : undefined;
        const onlyVmo = changes.every((c) => c.name === vmo);
        if (holdsVmo && folder && folderVmo !== undefined && onlyVmo) reference = { kind: 'folder', path: folder.dir };
        else if (registry) reference = { kind: 'registry', registryUid: registry.registryUid, label: registry.label };
        else if (changes.length > 0) {
          return refuse(
            `No reference defaults for ${before.name} at ${vmo} ${hop.to}: neither a reference profile (references[] with version ${hop.to} and ${role}), nor ${folder ? folder.path(vmo, hop.to) : 'a values folder (valuesDir)'}, nor a pack registry.`,
            `Add a references entry for ${hop.to} with the ${role} reference profile uid${folder ? `, or put the default values at ${folder.path(vmo, hop.to)}` : ', or set valuesDir'}; spec 9.1.5 compares the deployed profiles with these defaults.`,
          );
        }
      }
      if (holdsVmo && vmoValues === undefined) vmoValues = folder?.read(vmo, hop.to) ?? registry?.vmoValues.get(hop.to);
      if (changes.length === 0) continue;

      const chosen = refSet?.labels?.[role];
      if (chosen !== undefined) {
        const check = checkLabel(chosen, before.version, used[role], before.name);
        if (!check.ok) return refuse(check.reason, check.hint);
      }
      const toVersion = chosen ?? nextLabel(before.version, used[role]);
      const stays = ref ? undefined : [...before.packs].filter(([name]) => !changes.some((c) => c.name === name)).map(([name, tag]) => `${name} ${tag}`);
      planned.push({ role, uid: before.uid, name: before.name, fromVersion: before.version, toVersion, packs: changes, ...(reference ? { reference } : {}), ...(stays?.length ? { stays } : {}) });
      used[role].add(toVersion);
      for (const c of changes) before.packs.set(c.name, c.to);
      before.version = toVersion;
    }
    const components = componentVersions(vmoValues);
    const source = input.versionSources?.get(hop.to);
    hops.push({
      index: i + 1,
      from: hop.from,
      to: hop.to,
      ...(source ? { source } : {}),
      profiles: planned,
      ...(components.kubevirt ? { kubevirtVersion: components.kubevirt } : {}),
      ...(components.cdi ? { cdiVersion: components.cdi } : {}),
    });
  }
  return { ok: true, hops, final: state };
}

function cloneState(s: ProfileState): ProfileState {
  return { ...s, packs: new Map(s.packs) };
}
