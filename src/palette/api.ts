/**
 * What the engine and the steps need from the profile API. The client in this folder implements it
 * over HTTP; the only method that changes anything is `execute`, which the engine alone calls.
 * Everything else reads; the steps use `draftMatches`, `isPublished`, `findProfileVersion` and the
 * cluster reads to settle an ambiguous mutation by looking instead of sending again.
 */
import type { PaletteMutation } from '../engine/mutation.js';
import type { PackRegistryApi } from './registry.js';
import type { ClusterDoc, ClusterEvent, ClusterNotification, RepaveStatus } from './cluster-types.js';
import type { FlavorChoice } from './flavor.js';
import type { DeployedProfileDoc, DraftBody, DraftCheck, PackManifest, ProfileDoc, ProfileSummary, ReadOptions } from './types.js';

export type * from './types.js';
export type * from './cluster-types.js';
export type { FlavorChoice } from './flavor.js';

declare module '../engine/effects.js' {
  /** The profile API is a port of the steps' effects. */
  interface EffectPorts {
    palette: PaletteApi;
  }
}

export interface PaletteApi {
  /**
   * Sends one mutation (PUT a draft, PATCH publish, clone, apply, repave approval). Called only
   * through the engine's journaled gateway. Answers with the API's JSON answer, if any (a clone's
   * `{uid}`: the new version).
   */
  execute(request: PaletteMutation, signal?: AbortSignal): Promise<unknown>;
  /** The spec's service or a real Palette, decided once (params, first profile read, or adopted from the journal). */
  flavor(opts?: ReadOptions): Promise<FlavorChoice>;
  /** Takes the session's journaled choice, so a resumed session keeps the flavor it started with. */
  adoptFlavor(choice: FlavorChoice): void;
  /** Every profile version the project sees: the spec's `GET /v1/clusterprofiles` (every page), or a real Palette's `GET /v1/dashboard/clusterprofiles/metadata`. */
  listProfiles(opts?: ReadOptions): Promise<ProfileSummary[]>;
  /**
   * `GET /v1/clusterprofiles/{uid}`, normalized. In the palette dialect manifests are references;
   * their content is read too unless `manifests: false` (a PUT needs it, a status check does not).
   */
  getProfile(uid: string, opts?: ReadOptions & { manifests?: boolean }): Promise<ProfileDoc>;
  /** `GET /v1/clusterprofiles/{uid}/packs/{packName}/manifests` (palette dialect; the spec's shows them inline). */
  getPackManifests(profileUid: string, packName: string, opts?: ReadOptions): Promise<PackManifest[]>;
  /** What the cluster runs: names, version labels, packs (per flavor: the profiles read, or the cluster's attached templates, whose packs come without values). */
  getClusterProfiles(clusterUid: string, opts?: ReadOptions): Promise<DeployedProfileDoc[]>;
  /** Reads the profile and compares its draft with a PUT body: catches the API's silent no-op. */
  draftMatches(uid: string, body: DraftBody, opts?: ReadOptions): Promise<DraftCheck>;
  /** Whether `version` of the profile is published (settles a publish whose answer was lost). */
  isPublished(uid: string, version: string, opts?: ReadOptions): Promise<boolean>;
  /** The pack registry (every pack version's defaults and tags); absent on clients that cannot read one. */
  readonly registry?: PackRegistryApi;
  /** A profile version by name and label (settles a clone whose answer was lost: never a second copy). */
  findProfileVersion(name: string, version: string, opts?: ReadOptions & { near?: ProfileDoc }): Promise<ProfileSummary | undefined>;
  /** Real Palette: `GET /v1/spectroclusters/{uid}` (its packs' names and tags, not their values); an empty `profileVersion` is read from the version object. */
  getCluster(clusterUid: string, opts?: ReadOptions): Promise<ClusterDoc>;
  /** Real Palette: the cluster's latest events, newest first (pages followed up to `limit`). */
  listClusterEvents(clusterUid: string, opts?: ReadOptions & { limit?: number }): Promise<ClusterEvent[]>;
  /** Real Palette: the cluster's notifications not yet done (a pending profile update). */
  listPendingNotifications(clusterUid: string, opts?: ReadOptions): Promise<ClusterNotification[]>;
  /** Real Palette: whether a node rebuild waits for approval, and why. */
  getRepaveStatus(clusterUid: string, opts?: ReadOptions): Promise<RepaveStatus>;
}
