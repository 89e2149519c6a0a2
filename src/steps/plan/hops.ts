/**
 * Each hop's profile changes: per profile, the packs whose tag the hop's reference profile changes
 * (the orchestration pack always to the hop's version), the new version label, and where the new
 * defaults come from. Pure: every profile it needs has been read already.
 */
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { PackDoc, ProfileDoc } from '../../palette/api.js';
import type { PlannedHop, PlannedPack, PlannedProfile } from '../contracts.js';
import { componentVersions } from './components.js';
import type { Hop } from './ladder.js';
import { checkLabel, nextLabel } from './labels.js';
import { referenceFor, sameVersion, type ValuesFolder } from './sources.js';

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

export function planHops(input: HopInputs): HopsResult {
  const { site, folder } = input;
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
      const refPacks = ref ? packsOf(ref) : [];
      const holdsVmo = before.packs.has(vmo);
      const changes: PlannedPack[] = [];
      for (const [name, from] of before.packs) {
        const refPack = refPacks.find((p) => p.name === name);
        if (name === vmo) {
          if (refPack && !sameVersion(refPack.tag, hop.to)) {
            return refuse(
              `The reference profile ${ref!.name} (${refUid}) given for ${hop.to} holds ${vmo} ${refPack.tag}, not ${hop.to}.`,
              `Fix references[] in the params file: the entry for ${hop.to} must point at reference profiles of that version.`,
            );
          }
          const to = refPack?.tag ?? hop.to;
          if (to !== from) changes.push({ name, from, to });
          if (refPack) vmoValues = refPack.values;
        } else if (refPack && refPack.tag !== from) changes.push({ name, from, to: refPack.tag });
      }
      if (holdsVmo && vmoValues === undefined) vmoValues = folder?.read(vmo, hop.to);
      if (changes.length === 0) continue;

      // Changes without a reference profile can only be the orchestration pack's, from the values folder.
      let reference: NonNullable<PlannedProfile['reference']>;
      if (ref && refUid) reference = { kind: 'profile', uid: refUid };
      else if (holdsVmo && folder && vmoValues !== undefined) reference = { kind: 'folder', path: folder.dir };
      else {
        return refuse(
          `No reference defaults for ${before.name} at ${vmo} ${hop.to}: neither a reference profile (references[] with version ${hop.to} and ${role}) nor ${folder ? folder.path(vmo, hop.to) : 'a values folder (valuesDir)'}.`,
          `Add a references entry for ${hop.to} with the ${role} reference profile uid${folder ? `, or put the default values at ${folder.path(vmo, hop.to)}` : ', or set valuesDir'}; spec 9.1.5 compares the deployed profiles with these defaults.`,
        );
      }

      const chosen = refSet?.labels?.[role];
      if (chosen !== undefined) {
        const check = checkLabel(chosen, before.version, used[role], before.name);
        if (!check.ok) return refuse(check.reason, check.hint);
      }
      const toVersion = chosen ?? nextLabel(before.version, used[role]);
      planned.push({ role, uid: before.uid, name: before.name, fromVersion: before.version, toVersion, packs: changes, reference });
      used[role].add(toVersion);
      for (const c of changes) before.packs.set(c.name, c.to);
      before.version = toVersion;
    }
    const components = componentVersions(vmoValues);
    hops.push({
      index: i + 1,
      from: hop.from,
      to: hop.to,
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
