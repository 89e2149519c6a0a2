/**
 * Preflight questions for the profile API: does it answer with this key and project, do the two
 * profiles exist (with the expected names), and does the cluster exist and run them?
 */
import type { Params, ProfileRole } from '../../engine/params.js';
import { profileRoles } from '../../engine/params.js';
import type { DeployedProfileDoc, PaletteApi, ProfileDoc } from '../../palette/api.js';
import { PaletteApiError } from '../../palette/errors.js';
import { chooseFlavor, flavorTitle, type FlavorChoice } from '../../palette/flavor.js';
import { failedItem, timed } from './failure.js';
import { notChecked, pass, red, warn, type PreflightItem } from './types.js';

const TITLES = {
  api: 'Profile API answers with this key and project',
  profiles: 'The profiles exist',
  cluster: 'The cluster exists and runs the profiles',
  flavor: 'Which profile API this is',
} as const;

export async function profileApiItems(palette: PaletteApi, site: Params, signal: AbortSignal, onItem: (item: PreflightItem) => void): Promise<PreflightItem[]> {
  const docs = new Map<ProfileRole, ProfileDoc>();
  const api = await timed('profile-api', TITLES.api, async () => {
    // One profile read (both APIs have it) says that the API answers with this key and project, and
    // which API it is: no list is needed for that. Then the list that API has (the spec's
    // GET /v1/clusterprofiles, or a real Palette's dashboard metadata).
    const addon = await palette.getProfile(site.profiles.addon.uid, { manifests: false, signal }).catch((err: unknown) => {
      if (err instanceof PaletteApiError && err.code === 'palette.not-found') return undefined;
      throw err;
    });
    const answered = `${site.palette.baseUrl} answered for project ${site.palette.projectUid}`;
    // A missing profile is the next panel's to name; the list would need to know the API first.
    if (!addon) return pass('profile-api', TITLES.api, `${answered}.`);
    docs.set('addon', addon);
    const list = await palette.listProfiles({ signal });
    return pass('profile-api', TITLES.api, `${answered}: ${list.length} profile version(s) visible.`);
  });
  onItem(api);
  if (api.status === 'fail' && api.failure === 'environment') {
    const why = 'the profile API did not answer';
    const rest = [notChecked('profiles', TITLES.profiles, why), notChecked('cluster', TITLES.cluster, why)];
    rest.forEach(onItem);
    return [api, ...rest];
  }
  const profiles = await timed('profiles', TITLES.profiles, () => checkProfiles(palette, site, signal, docs));
  onItem(profiles);
  const cluster = await timed('cluster', TITLES.cluster, () => checkCluster(palette, site, signal, docs));
  onItem(cluster);
  return [api, profiles, cluster];
}

async function checkProfiles(palette: PaletteApi, site: Params, signal: AbortSignal, docs: Map<ProfileRole, ProfileDoc>): Promise<PreflightItem> {
  const found: string[] = [];
  const problems: PreflightItem[] = [];
  const drafts: string[] = [];
  for (const role of profileRoles) {
    const ref = site.profiles[role];
    let doc: ProfileDoc;
    try {
      // The add-on profile was read already by the first panel.
      doc = docs.get(role) ?? (await palette.getProfile(ref.uid, { manifests: false, signal }));
    } catch (err) {
      problems.push(failedItem('profiles', TITLES.profiles, err));
      continue;
    }
    docs.set(role, doc);
    if (ref.name && doc.name !== ref.name) {
      problems.push(red('profiles', TITLES.profiles, `Profile ${ref.uid} is named "${doc.name}", not "${ref.name}" as the params file says.`, 'failed', `Check profiles.${role} in the params file: the uid or the name is wrong.`));
      continue;
    }
    found.push(`${role}: ${doc.name} ${doc.publishedVersion ?? doc.version} (${doc.uid}), ${doc.packs.length} pack(s)`);
    if (doc.draftVersion !== undefined || doc.draftPacks !== undefined) drafts.push(`${doc.name} has an unpublished draft${doc.draftVersion ? ` (${doc.draftVersion})` : ''}`);
  }
  const firstProblem = problems[0];
  if (firstProblem) return { ...firstProblem, lines: [...found, ...problems.slice(1).map((p) => p.summary)] };
  if (drafts.length) {
    return warn('profiles', TITLES.profiles, `Both profiles exist; ${drafts.join('; ')}.`, found, 'Someone may be editing the profile: the upgrade writes its own draft over it. Publish or discard that draft first if it matters.');
  }
  return pass('profiles', TITLES.profiles, found.map((f) => f.replace(/^\w+: /, '')).join('; '), found);
}

async function checkCluster(palette: PaletteApi, site: Params, signal: AbortSignal, docs: Map<ProfileRole, ProfileDoc>): Promise<PreflightItem> {
  const deployed: DeployedProfileDoc[] = await palette.getClusterProfiles(site.cluster.uid, { signal });
  const clusterName = site.cluster.name ?? site.cluster.uid;
  const lines = deployed.map((d) => `${d.name} ${d.version || '?'}: ${d.packs.map((p) => `${p.name} ${p.tag}`).join(', ')}`);
  const missing = profileRoles
    .map((role) => docs.get(role)?.name ?? site.profiles[role].name)
    .filter((name): name is string => name !== undefined && !deployed.some((d) => d.name === name));
  if (missing.length) {
    return red('cluster', TITLES.cluster, `The cluster ${clusterName} does not run ${missing.join(' and ')}.`, 'failed', 'Check cluster.uid and the profile uids in the params file: the profiles must be the ones attached to this cluster.', lines);
  }
  const vmo = deployed.flatMap((d) => d.packs).find((p) => p.name === site.packs.orchestration);
  if (!vmo) {
    return red('cluster', TITLES.cluster, `No profile deployed on ${clusterName} carries the ${site.packs.orchestration} pack.`, 'failed', 'Check packs.orchestration in the params file (the name of the VM orchestration pack).', lines);
  }
  return pass('cluster', TITLES.cluster, `${clusterName} runs ${deployed.map((d) => `${d.name} ${d.version || '?'}`).join(', ')}; ${vmo.name} ${vmo.tag}.`, lines);
}

/**
 * The session's flavor, decided here on the first profile read (or taken from the params), shown as
 * a panel: what the hop steps will really do. Undefined when the profile API could not be read.
 */
export async function flavorItem(palette: PaletteApi, api: PreflightItem[], signal: AbortSignal, onItem: (item: PreflightItem) => void): Promise<FlavorChoice | undefined> {
  if (api.some((i) => i.status === 'fail' || i.status === 'unknown')) {
    onItem(notChecked('flavor', TITLES.flavor, 'the profiles could not be read'));
    return undefined;
  }
  try {
    const choice = await palette.flavor({ signal });
    const per = choice.flavor === 'palette'
      ? [choice.versioning === 'in-place' ? 'each hop: draft on the deployed version (label kept), publish, apply the update' : 'each hop: clone to a new version, draft on the clone, publish, apply with replaceWithProfile', 'then: approve a node rebuild if Palette asks, watch every pack of the new versions until Ready']
      : ['each hop: draft under a new label, publish; the cluster reconciles by itself', "then: watch the cluster's profiles read"];
    onItem(pass('flavor', TITLES.flavor, flavorTitle(choice), [`why: ${choice.evidence}`, ...per]));
    return choice;
  } catch (err) {
    onItem(failedItem('flavor', TITLES.flavor, err));
    return undefined;
  }
}

/** On resume: a flavor that was detected and no longer matches what the API answers. */
export async function flavorDrift(palette: PaletteApi, site: Params, recorded: FlavorChoice, signal: AbortSignal): Promise<string[]> {
  if (recorded.source !== 'detected') return [];
  const doc = await palette.getProfile(site.profiles.addon.uid, { manifests: false, signal });
  const now = chooseFlavor('auto', recorded.versioning ?? 'clone', doc.dialect);
  return now && now.flavor !== recorded.flavor ? [`the profile API now answers as ${flavorTitle(now)}; this session keeps ${flavorTitle(recorded)}`] : [];
}
