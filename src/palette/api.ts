/**
 * What the engine and the steps need from the profile API. The client in this folder implements it
 * over HTTP; the only method that changes anything is `execute`, which the engine alone calls.
 * Everything else reads; the draft → publish steps use `draftMatches` and `isPublished` to settle
 * an ambiguous mutation by looking instead of sending again.
 */
import type { PaletteMutation } from '../engine/mutation.js';
import type { PackRegistryApi } from './registry.js';
import type { DeployedProfileDoc, DraftBody, DraftCheck, PackManifest, ProfileDoc, ProfileSummary, ReadOptions } from './types.js';

export type * from './types.js';

export interface PaletteApi {
  /** Sends one mutation (PUT a draft, PATCH publish). Called only through the engine's journaled gateway. */
  execute(request: PaletteMutation, signal?: AbortSignal): Promise<void>;
  /** `GET /v1/clusterprofiles` (every page). */
  listProfiles(opts?: ReadOptions): Promise<ProfileSummary[]>;
  /**
   * `GET /v1/clusterprofiles/{uid}`, normalized. In the palette dialect manifests are references;
   * their content is read too unless `manifests: false` (a PUT needs it, a status check does not).
   */
  getProfile(uid: string, opts?: ReadOptions & { manifests?: boolean }): Promise<ProfileDoc>;
  /** `GET /v1/clusterprofiles/{uid}/packs/{packName}/manifests` (palette dialect; the spec's shows them inline). */
  getPackManifests(profileUid: string, packName: string, opts?: ReadOptions): Promise<PackManifest[]>;
  /** `GET /v1/{clusters|spectroclusters}/{uid}/profiles`: what the cluster runs. */
  getClusterProfiles(clusterUid: string, opts?: ReadOptions): Promise<DeployedProfileDoc[]>;
  /** Reads the profile and compares its draft with a PUT body: catches the API's silent no-op. */
  draftMatches(uid: string, body: DraftBody, opts?: ReadOptions): Promise<DraftCheck>;
  /** Whether `version` of the profile is published (settles a publish whose answer was lost). */
  isPublished(uid: string, version: string, opts?: ReadOptions): Promise<boolean>;
  /** The pack registry (every pack version's defaults and tags); absent on clients that cannot read one. */
  readonly registry?: PackRegistryApi;
}
