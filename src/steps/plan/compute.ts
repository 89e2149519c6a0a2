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
import { componentVersions } from '../../domain/versions/components.js';
import { finalExpectations } from './expectations.js';
import { planHops, packsOf, stateOf } from '../../domain/ladder/hops.js';
import { countImpact, predictImpact } from '../../domain/impact/impact.js';
import { readUpdateConfig } from './kubevirt-config.js';
import { planWindow } from '../../domain/window/window.js';
import { readDirtyRates, readWindow } from './window-reads.js';
import { lastKubevirtRollout } from '../../domain/window/rollout.js';
import { windowTotalText } from '../../domain/window/window-verdict.js';
import { planRoom, rebuildingLayers } from '../../domain/room/cluster-room.js';
import type { PlannedHop } from '../../domain/plan/planned-hop.js';
import { buildLadder } from '../../domain/ladder/ladder.js';
import { steppingStones, withVariables } from '../../domain/ladder/version-notes.js';
import type { VersionNote } from '../../values/version-notes-schema.js';
import { registryFacts, moveWithNote } from './registry-facts.js';
import { registryVersions, registryView } from './registry-source.js';
import { valuesFolder } from './sources.js';
import { availableVersions, referenceFor, type ValuesFolder } from '../../domain/ladder/reference-sources.js';
import { compareVersions, minorText, parseVersion, sameVersion } from '../../domain/versions/version.js';
import type { PlanOutput } from './types.js';
import { attachedDocs, withFlavor } from './flavor.js';
import { readProfileVariables } from './profile-variables.js';

export interface PlanDeps {
  site: Params;
  palette: PaletteApi;
  kube: KubeApi;
  signal: AbortSignal;
  /** Default: the params' `valuesDir`. */
  folder?: ValuesFolder | undefined;
  /** The runbook's version notes: stepping stones and the profile variables a version introduces. */
  notes?: readonly VersionNote[] | undefined;
  progress?: (headline: string) => void;
  /** The cluster's now (the lab's clock in the lab): when the hop would start, for the VMs' restart windows. */
  now?: number;
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

function isUpgrade(deployed: string, target: string): boolean {
  const d = parseVersion(deployed);
  const t = parseVersion(target);
  return d !== undefined && t !== undefined && d.major === t.major && compareVersions(t, d) > 0;
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
  // Which profile API this is, first: with `auto` and nothing read yet the client reads the add-on
  // profile to decide, and the cluster's read depends on the answer, so a wrong add-on uid must be
  // named as such, not as a missing cluster. (In a session, preflight has decided already: no read.)
  const choice = await mustExist(`The add-on profile ${site.profiles.addon.uid}`, 'profiles.addon.uid', () => palette.flavor({ signal }));
  const reads = Promise.all([
    mustExist(`The cluster ${site.cluster.uid}`, 'cluster.uid', () => palette.getClusterProfiles(site.cluster.uid, { signal })),
    mustExist(`The add-on profile ${site.profiles.addon.uid}`, 'profiles.addon.uid', () => palette.getProfile(site.profiles.addon.uid, { manifests: false, signal })),
    mustExist(`The infrastructure profile ${site.profiles.infra.uid}`, 'profiles.infra.uid', () => palette.getProfile(site.profiles.infra.uid, { manifests: false, signal })),
    palette.listProfiles({ signal }),
    readUpdateConfig(reader, site.kubevirt.namespace, site.kubevirt.name, signal),
    reader.vms(),
    reader.vmis(),
    readWindow(reader, site.kubevirt.namespace),
    site.metrics ? readDirtyRates(site.metrics.prometheusUrl, site.metrics.timeout, signal) : Promise.resolve<{ rates: Map<string, number>; note?: string }>({ rates: new Map() }),
  ]);
  const [deployed, addon, infra, list, kubevirt, vms, vmis, windowReads, dirty] = await reads.catch((err: unknown) => {
    stop.abort();
    throw err;
  });
  const attached = await attachedDocs({ addon, infra }, deployed, choice, palette, signal);
  const docs: Record<ProfileRole, ProfileDoc> = attached.docs;
  const { variables, unserved } = await readProfileVariables(palette, choice, docs, site.cluster.uid, signal);
  // A Palette that does not serve profile variables: read as none, said among the notes.
  const flavored = (out: PlanOutput): PlanOutput =>
    withFlavor({ ...out, ...(variables.length ? { profileVariables: variables } : {}), ...(unserved ? { notes: [...out.notes, unserved] } : {}) }, choice, docs, site.cluster.uid);
  const lastRollout = lastKubevirtRollout(windowReads.kubevirtPods, kubevirt.observedVersion, kubevirt.rolloutEndedAt);
  const window = planWindow(kubevirt.limits, predictImpact(kubevirt, vms, vmis), vmis, { ...windowReads, ...(lastRollout ? { lastRollout } : {}) }, dirty.rates, { vms, nowMs: deps.now ?? Date.now() });
  const impact = window.impact;
  const deployedTag = deployedVmo(deployed, pack);
  const { eta, ...limitsView } = window.view;
  const base = { pack, deployed: deployedTag, target: site.target, impactCounts: countImpact(impact), impact, window: limitsView };
  const notes = [
    kubevirt.found
      ? `KubeVirt ${kubevirt.observedVersion ?? '?'}: workload update methods ${kubevirt.methods.join(', ') || 'none'}; eviction strategy ${kubevirt.clusterEvictionStrategy ?? 'not set'}.`
      : `The KubeVirt resource ${site.kubevirt.namespace}/${site.kubevirt.name} was not found: the VM impact assumes no automatic workload update.`,
    ...attached.notes,
    ...(windowReads.policiesNote ? [`${windowReads.policiesNote}: every VM migrates with the KubeVirt resource's settings.`] : []),
    ...(dirty.note ? [dirty.note] : []),
  ];
  const refused = (reason: string, hint: string): PlanOutput => flavored({ status: 'refused', refusal: { reason, hint }, ...base, hops: [], notes });

  const vmoRole = profileRoles.find((r) => packsOf(docs[r]).some((p) => p.name === pack));
  if (!vmoRole) {
    return refused(`Neither ${docs.addon.name} nor ${docs.infra.name} holds the ${pack} pack.`, 'Check profiles.addon, profiles.infra and packs.orchestration in the params file.');
  }
  const profileTag = packsOf(docs[vmoRole]).find((p) => p.name === pack)!.tag;
  if (profileTag !== deployedTag) {
    return refused(
      `The profile ${docs[vmoRole].name} holds ${pack} ${profileTag}, but the cluster runs ${deployedTag}: a published change has not been picked up.`,
      'Wait for the cluster to reconcile (or find out why it does not), then plan again.',
    );
  }

  const profilePacks = [...packsOf(docs.addon), ...packsOf(docs.infra)];
  const registry = registryView(site, palette, profilePacks);
  let available = availableVersions(site, folder);
  let target = site.target;
  // Only an upgrade needs the registry: a target already reached, older or in another major is answered without it.
  if (!available && !isUpgrade(deployedTag, site.target)) available = { versions: [], explicit: false, source: 'the target in the params file' };
  if (!available) {
    if (!registry) {
      return refused('No source says which versions exist: no hops, no references and no values folder in the params, and this profile API client reads no pack registry.', 'Add references (or hops, or valuesDir) to the params file.');
    }
    deps.progress?.('Reading the pack registry…');
    const fromRegistry = await registryVersions(registry, pack, site.target, signal);
    available = { versions: fromRegistry.versions, explicit: false, source: fromRegistry.label };
    target = fromRegistry.target;
  }
  const ladder = buildLadder(deployedTag, target, available.versions, available.explicit, steppingStones(deps.notes ?? [], pack));
  if (!ladder.ok) return refused(ladder.reason, ladder.hint);
  notes.unshift(...ladder.notes);
  const versionSources = new Map(ladder.hops.map((h) => [h.to, h.reason ?? (sameVersion(h.to, target) ? 'the target in the params file' : available.explicit ? available.source : `the highest ${minorText(h.to)} tag in ${available.source}`)]));

  deps.progress?.('Reading the reference profiles…');
  const uids = [...new Set(ladder.hops.flatMap((h) => profileRoles.map((r) => referenceFor(site, h.to)?.[r]).filter((u): u is string => u !== undefined)))];
  const docsByUid = await Promise.all(uids.map((uid) => mustExist(`The reference profile ${uid}`, 'references[]', () => palette.getProfile(uid, { manifests: false, signal }))));
  const references = new Map(uids.map((uid, i) => [uid, docsByUid[i]!]));
  const facts = registry ? await registryFacts({ site, registry, ladder: ladder.hops, references, folder, held: new Set(profilePacks.map((p) => p.name)), vmoRole, signal, progress: deps.progress }) : undefined;
  const current = { addon: stateOf('addon', docs.addon), infra: stateOf('infra', docs.infra) };
  const hops = planHops({ site, ladder: ladder.hops, current, usedLabels: { addon: usedLabels(docs.addon, list), infra: usedLabels(docs.infra, list) }, references, folder, registry: facts, versionSources });
  if (!hops.ok) return refused(hops.reason, hops.hint);
  withVariables(hops.hops, deps.notes ?? [], pack, vmoRole);
  if (hops.hops.some((h) => h.profiles.some((p) => p.reference?.kind !== 'profile'))) notes.unshift(moveWithNote(site));

  const deployedValues = packsOf(docs[vmoRole]).find((p) => p.name === pack)?.values;
  if (base.impactCounts.restart > 0 && hops.hops.length > 1) {
    notes.push('VMs that need a restart must be restarted after each hop, before the next: two minors behind, they could not live-migrate (spec 9.1.1).');
  }
  // Already at the target: nothing is published, so no VM moves or needs a restart for it (VMs left
  // on an old launcher by an earlier upgrade are the recovery's, which lists them itself).
  const moved = hops.hops.length ? base : { ...base, impact: [], impactCounts: countImpact([]) };
  if (!hops.hops.length) notes.push('Nothing is published, so no VM moves: a VM still on an older launcher is offered a restart by the recovery step.');
  // A hop that changes an os or k8s pack makes Palette drain and rebuild every node: the VMs of each need room on the others.
  const layers = new Map(profilePacks.map((p) => [p.name, p.layer ?? '']));
  const rebuildsOf = (h: PlannedHop) => [...new Set(h.profiles.flatMap((p) => p.packs).filter((k) => k.from !== k.to && rebuildingLayers.has(layers.get(k.name) ?? '')).map((k) => k.name))];
  let room: ReturnType<typeof planRoom> | undefined;
  if (hops.hops.some((h) => rebuildsOf(h).length)) {
    deps.progress?.('Reading the pods: is there room to move the VMs off each node rebuilt?');
    room = planRoom(windowReads.nodes, await reader.pods(), vmis);
  }
  // Every hop moves every running VM once more: the same window each time.
  const timed = hops.hops.map((h) => {
    const rebuilds = rebuildsOf(h);
    return { ...h, eta, ...(room && rebuilds.length ? { room: { rebuilds, ...room } } : {}) };
  });
  const windowTotal = windowTotalText(timed, moved.impactCounts.restart, site.window);
  return flavored({ status: 'planned', ...moved, versionSource: available.source, hops: timed, ...(windowTotal ? { windowTotal, bookedWindowMs: site.window } : {}), expectations: finalExpectations(hops.final, hops.hops, componentVersions(deployedValues)), notes });
}
