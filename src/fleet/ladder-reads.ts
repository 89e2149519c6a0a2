/**
 * The reads behind the fleet plan's ladders (ladders.ts): each cluster's attached profiles and the
 * orchestration pack's tag it runs, read as a single cluster's plan reads them
 * (`getClusterProfiles`), a few clusters at a time through the fleet's shared rate limiter; and which
 * versions exist, from the params (hops, references, values folder) or else the pack registry, read
 * once for the fleet.
 */
import type { Params } from '../engine/params.js';
import type { VersionNote } from '../values/version-notes-schema.js';
import { toErrorInfo } from '../errors.js';
import { eachAtMost } from '../io/concurrency.js';
import type { PaletteApi } from '../palette/api.js';
import { packsOf } from '../domain/ladder/hops.js';
import { registryVersions, registryView } from '../steps/plan/registry-source.js';
import { valuesFolder } from '../steps/plan/sources.js';
import { availableVersions } from '../domain/ladder/reference-sources.js';
import { steppingStones } from '../domain/ladder/version-notes.js';
import type { SteppingStone } from '../domain/ladder/ladder.js';
import type { AvailableForLadder, ClusterStart } from './ladders.js';

/** Clusters read at once: enough to plan 200 in seconds, few enough to leave the rate budget to running sessions. */
const AT_ONCE = 8;

export async function readStarts(palette: PaletteApi, clusters: ReadonlyArray<{ name: string; uid: string; stage: string; pack: string }>, signal?: AbortSignal): Promise<ClusterStart[]> {
  return eachAtMost(clusters, AT_ONCE, async (c): Promise<ClusterStart> => {
    try {
      const docs = await palette.getClusterProfiles(c.uid, signal ? { signal } : {});
      const profiles = docs.map((d) => ({ name: d.name, ...(d.uid ? { uid: d.uid } : {}), version: d.version || (d.revision !== undefined ? `revision ${d.revision}` : '?') }));
      const vmo = docs.flatMap((d) => d.packs).find((p) => p.name === c.pack)?.tag;
      return vmo ? { name: c.name, stage: c.stage, vmo, profiles } : { name: c.name, stage: c.stage, profiles, error: `no profile attached to it carries the ${c.pack} pack` };
    } catch (err) {
      if (signal?.aborted) throw err;
      return { name: c.name, stage: c.stage, profiles: [], error: toErrorInfo(err).message };
    }
  });
}

export interface FleetVersions {
  available: AvailableForLadder;
  /** The target as the source spells it (the registry's tag for `4.6` may be `4.6.3`). */
  target: string;
  source: string;
  stones: SteppingStone[];
}

/** Which versions exist, as the first cluster's params say or else its profiles' pack registry; a sentence when neither can. */
export async function readFleetVersions(params: Params, palette: PaletteApi, notes: readonly VersionNote[], signal?: AbortSignal): Promise<FleetVersions | { error: string }> {
  const pack = params.packs.orchestration;
  const stones = steppingStones(notes, pack);
  const fromParams = availableVersions(params, valuesFolder(params.valuesDir));
  if (fromParams) return { available: { versions: fromParams.versions, explicit: fromParams.explicit }, target: params.target, source: fromParams.source, stones };
  try {
    const opts = { manifests: false, ...(signal ? { signal } : {}) };
    const [addon, infra] = await Promise.all([palette.getProfile(params.profiles.addon.uid, opts), palette.getProfile(params.profiles.infra.uid, opts)]);
    const registry = registryView(params, palette, [...packsOf(addon), ...packsOf(infra)]);
    if (!registry) return { error: 'no hops, references or values folder in the params, and this profile API client reads no pack registry' };
    const read = await registryVersions(registry, pack, params.target, signal ?? new AbortController().signal);
    return { available: { versions: read.versions, explicit: false }, target: read.target, source: read.label, stones };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { error: toErrorInfo(err).message };
  }
}
