/**
 * The upgrade plan, from what is deployed to the target: read once (the cluster's profiles, the
 * two profiles, the profile list for labels in use, the reference profiles, the KubeVirt CR, VMs
 * and VMIs), then the ladder, each hop's changes, the expectations and the VM impact. Shared by the
 * `plan` step and the `plan` command. A plan that would break spec 9.1.1 comes back refused.
 */
import { InputError, StepFailedError } from '../../errors.js';
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { KubeApi } from '../../kube/api.js';
import { PaletteApiError } from '../../palette/errors.js';
import type { DeployedProfileDoc, PaletteApi, ProfileDoc, ProfileSummary } from '../../palette/api.js';
import { componentVersions } from './components.js';
import { finalExpectations } from './expectations.js';
import { planHops, packsOf, stateOf } from './hops.js';
import { countImpact, predictImpact } from './impact.js';
import { readUpdateConfig } from './kubevirt-config.js';
import { buildLadder } from './ladder.js';
import { availableVersions, referenceFor, valuesFolder, type ValuesFolder } from './sources.js';
import type { PlanOutput } from './types.js';

export interface PlanDeps {
  site: Params;
  palette: PaletteApi;
  kube: KubeApi;
  signal: AbortSignal;
  /** Default: the params' `valuesDir`. */
  folder?: ValuesFolder | undefined;
  progress?: (headline: string) => void;
}

/** A wrong uid in the params is not an unreachable API: say which one; bad input, exit 2 rather than 4. */
async function mustExist<T>(what: string, where: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof PaletteApiError && err.code === 'palette.not-found') {
      throw new InputError('plan.not-found', `${what} was not found (${err.where ?? 'the profile API'}).`, { hint: `Check ${where} in the params file.`, where });
    }
    throw err;
  }
}

function usedLabels(doc: ProfileDoc, list: ProfileSummary[]): Set<string> {
  const labels = [...doc.versions, doc.version, doc.publishedVersion, doc.draftVersion, ...list.filter((p) => p.name === doc.name).map((p) => p.version)];
  return new Set(labels.filter((l): l is string => typeof l === 'string' && l !== ''));
}

function deployedVmo(deployed: DeployedProfileDoc[], pack: string): string {
  const hit = deployed.flatMap((d) => d.packs).find((p) => p.name === pack);
  if (!hit) {
    throw new StepFailedError('plan.no-orchestration-pack', `No profile deployed on the cluster carries the ${pack} pack.`, {
      hint: 'Check cluster.uid and packs.orchestration in the params file.',
    });
  }
  return hit.tag;
}

export async function computePlan(deps: PlanDeps): Promise<PlanOutput> {
  const { site, palette } = deps;
  const pack = site.packs.orchestration;
  const folder = deps.folder ?? valuesFolder(site.valuesDir);
  deps.progress?.('Reading the deployed profiles, the profiles and the cluster…');
  // The first failed read stops the others (their kubectl processes included) instead of leaving them running.
  const stop = new AbortController();
  const signal = AbortSignal.any([deps.signal, stop.signal]);
  const reader = deps.kube.reader(signal);
  const reads = Promise.all([
    mustExist(`The cluster ${site.cluster.uid}`, 'cluster.uid', () => palette.getClusterProfiles(site.cluster.uid, { signal })),
    mustExist(`The add-on profile ${site.profiles.addon.uid}`, 'profiles.addon.uid', () => palette.getProfile(site.profiles.addon.uid, { manifests: false, signal })),
    mustExist(`The infrastructure profile ${site.profiles.infra.uid}`, 'profiles.infra.uid', () => palette.getProfile(site.profiles.infra.uid, { manifests: false, signal })),
    palette.listProfiles({ signal }),
    readUpdateConfig(reader, site.kubevirt.namespace, site.kubevirt.name, signal),
    reader.vms(),
    reader.vmis(),
  ]);
  const [deployed, addon, infra, list, kubevirt, vms, vmis] = await reads.catch((err: unknown) => {
    stop.abort();
    throw err;
  });
  const docs: Record<ProfileRole, ProfileDoc> = { addon, infra };
  const impact = predictImpact(kubevirt, vms, vmis);
  const deployedTag = deployedVmo(deployed, pack);
  const base = { pack, deployed: deployedTag, target: site.target, impactCounts: countImpact(impact), impact };
  const notes = [
    kubevirt.found
      ? `KubeVirt ${kubevirt.observedVersion ?? '?'}: workload update methods ${kubevirt.methods.join(', ') || 'none'}; eviction strategy ${kubevirt.clusterEvictionStrategy ?? 'not set'}.`
      : `The KubeVirt resource ${site.kubevirt.namespace}/${site.kubevirt.name} was not found: the VM impact assumes no automatic workload update.`,
  ];
  const refused = (reason: string, hint: string): PlanOutput => ({ status: 'refused', refusal: { reason, hint }, ...base, hops: [], notes });

  const vmoRole = profileRoles.find((r) => packsOf(docs[r]).some((p) => p.name === pack));
  if (!vmoRole) {
    return refused(`Neither ${addon.name} nor ${infra.name} holds the ${pack} pack.`, 'Check profiles.addon, profiles.infra and packs.orchestration in the params file.');
  }
  const profileTag = packsOf(docs[vmoRole]).find((p) => p.name === pack)!.tag;
  if (profileTag !== deployedTag) {
    return refused(
      `The profile ${docs[vmoRole].name} holds ${pack} ${profileTag}, but the cluster runs ${deployedTag}: a published change has not been picked up.`,
      'Wait for the cluster to reconcile (or find out why it does not), then plan again.',
    );
  }

  const available = availableVersions(site, folder);
  const ladder = buildLadder(deployedTag, site.target, available.versions, available.explicit);
  if (!ladder.ok) return refused(ladder.reason, ladder.hint);
  notes.unshift(...ladder.notes);

  deps.progress?.('Reading the reference profiles…');
  const uids = [...new Set(ladder.hops.flatMap((h) => profileRoles.map((r) => referenceFor(site, h.to)?.[r]).filter((u): u is string => u !== undefined)))];
  const docsByUid = await Promise.all(uids.map((uid) => mustExist(`The reference profile ${uid}`, 'references[]', () => palette.getProfile(uid, { manifests: false, signal }))));
  const references = new Map(uids.map((uid, i) => [uid, docsByUid[i]!]));
  const current = { addon: stateOf('addon', addon), infra: stateOf('infra', infra) };
  const hops = planHops({ site, ladder: ladder.hops, current, usedLabels: { addon: usedLabels(addon, list), infra: usedLabels(infra, list) }, references, folder });
  if (!hops.ok) return refused(hops.reason, hops.hint);

  const deployedValues = packsOf(docs[vmoRole]).find((p) => p.name === pack)?.values;
  if (base.impactCounts.restart > 0 && hops.hops.length > 1) {
    notes.push('VMs that need a restart must be restarted after each hop, before the next: two minors behind, they could not live-migrate (spec 9.1.1).');
  }
  return { status: 'planned', ...base, hops: hops.hops, expectations: finalExpectations(hops.final, hops.hops, componentVersions(deployedValues)), notes };
}
