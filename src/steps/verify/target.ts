/**
 * What standalone `verify` expects from the params' `target`, with no session to say what was
 * published: the profile that carries the orchestration pack runs it at the target tag (9.3.1),
 * and KubeVirt and CDI run the versions the target's reference values deploy (9.3.2). A cluster
 * still on the old versions is then red, not green.
 */
import { profileRoles, type Params } from '../../engine/params.js';
import type { VerifyExpectations } from '../../domain/checks/types.js';
import type { DeployedProfileView } from '../../kube/checks/verify-data.js';
import type { PaletteApi } from '../../palette/api.js';
import { toErrorInfo } from '../../errors.js';
import { componentVersions, type ComponentVersions } from '../../domain/versions/components.js';
import { packsOf } from '../../domain/ladder/hops.js';
import { registryView } from '../plan/registry-source.js';
import { registryApi } from '../../palette/registry.js';
import { valuesFolder } from '../plan/sources.js';
import { referenceFor } from '../../domain/ladder/reference-sources.js';

export interface TargetExpectations {
  expectations: Pick<VerifyExpectations, 'profiles' | 'kubevirtVersion' | 'cdiVersion'>;
  /** One line per thing the operator should know about how the target was read. */
  notes: string[];
}

/**
 * The component versions the target's default values deploy: a reference profile's pack, else the
 * values folder, else the pack registry (the one the site's profile names for the pack), as the plan reads them.
 */
export type TargetComponents = { versions: ComponentVersions; from?: string; problem?: string };

export async function targetComponents(site: Params, palette: PaletteApi, signal?: AbortSignal): Promise<TargetComponents> {
  const pack = site.packs.orchestration;
  const ref = referenceFor(site, site.target);
  for (const role of profileRoles) {
    const uid = ref?.[role];
    if (!uid) continue;
    try {
      const doc = await palette.getProfile(uid, { manifests: false, ...(signal ? { signal } : {}) });
      const values = packsOf(doc).find((p) => p.name === pack)?.values;
      if (values) return { versions: componentVersions(values), from: `reference profile ${doc.name}` };
    } catch (err) {
      return { versions: {}, problem: `the reference profile ${uid} for ${site.target} could not be read (${toErrorInfo(err).message})` };
    }
  }
  const folder = valuesFolder(site.valuesDir);
  const text = folder?.read(pack, site.target);
  if (folder && text) return { versions: componentVersions(text), from: folder.path(pack, site.target) };
  if (registryApi(palette)) {
    try {
      // The registry the site's profile names for the pack (the cluster's view of it does not say).
      const docs = await Promise.all(profileRoles.map((r) => palette.getProfile(site.profiles[r].uid, { manifests: false, ...(signal ? { signal } : {}) })));
      const registry = registryView(site, palette, docs.flatMap((d) => packsOf(d)))!;
      const uid = registry.registryOf(pack);
      const [found, label] = await Promise.all([registry.api.values(pack, site.target, uid, signal), registry.api.label(uid, signal)]);
      return { versions: componentVersions(found.values), from: `the ${pack} ${site.target} defaults in ${label}` };
    } catch (err) {
      return { versions: {}, problem: `the ${pack} ${site.target} defaults could not be read from the pack registry (${toErrorInfo(err).message})` };
    }
  }
  return { versions: {}, problem: `no reference values for ${pack} ${site.target} (references[] or valuesDir in the params, or a pack registry)` };
}

/**
 * `components`: the target's component versions when the caller started reading them already
 * (verify reads them while the cluster is read: they do not depend on what the cluster runs).
 */
export async function targetExpectations(site: Params, palette: PaletteApi, deployed: DeployedProfileView[] | undefined, signal?: AbortSignal, components?: Promise<TargetComponents>): Promise<TargetExpectations> {
  const pack = site.packs.orchestration;
  const notes: string[] = [];
  const holder = deployed?.find((p) => p.packs.some((k) => k.name === pack));
  const named = profileRoles.map((r) => site.profiles[r].name).filter((n): n is string => Boolean(n));
  const profiles: NonNullable<VerifyExpectations['profiles']> = [
    // No deployed profile carries the pack: expected all the same, so the panel says it is missing.
    { name: holder?.name ?? `the profile that carries ${pack}`, packs: [{ name: pack, tag: site.target }] },
    ...named.filter((n) => n !== holder?.name).map((name) => ({ name })),
  ];
  const { versions, from, problem } = await (components ?? targetComponents(site, palette, signal));
  if (problem) notes.push(`Target ${site.target}: ${problem}; the VM orchestration components are checked for health, not for their version.`);
  else notes.push(`Target ${pack} ${site.target}${versions.kubevirt ? `: KubeVirt ${versions.kubevirt}` : ''}${versions.cdi ? `, CDI ${versions.cdi}` : ''} (from ${from}).`);
  return {
    expectations: {
      ...(deployed ? { profiles } : {}),
      ...(versions.kubevirt ? { kubevirtVersion: versions.kubevirt } : {}),
      ...(versions.cdi ? { cdiVersion: versions.cdi } : {}),
    },
    notes,
  };
}
