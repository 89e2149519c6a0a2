/**
 * The profile API's mutations as engine requests. Steps build them; the engine journals, gates and
 * sends them through `PaletteApi.execute` (or records them in a rehearsal). The spec's service has
 * two (PUT a draft, PATCH publish); a real Palette adds the clone of a version, the apply of versions
 * to a cluster and the approval of a node rebuild.
 */
import type { PaletteMutation } from '../engine/mutation.js';
import type { DraftBody } from './types.js';

/**
 * In a rehearsal a version that a clone would create has no uid yet: requests name it with this
 * placeholder (`<uid of vmo-infra 1.5.0>`), kept readable in paths. Nothing carrying it is ever sent.
 */
export const pendingUid = (name: string, version: string): string => `<uid of ${name} ${version}>`;
export const isPendingUid = (uid: string): boolean => uid.startsWith('<') && uid.endsWith('>');

const seg = (uid: string) => (isPendingUid(uid) ? uid : encodeURIComponent(uid));
const profilePath = (uid: string) => `/v1/clusterprofiles/${seg(uid)}`;
const clusterPath = (uid: string) => `/v1/spectroclusters/${seg(uid)}`;

/** `PUT /v1/clusterprofiles/{uid}`: writes a draft only (spec 3); nothing reaches clusters yet. */
export function putProfileRequest(uid: string, body: DraftBody, summary: string): PaletteMutation {
  return { target: 'palette', method: 'PUT', path: profilePath(uid), body, summary };
}

/** `PATCH /v1/clusterprofiles/{uid}/publish`: the draft becomes the published content of that version. */
export function publishRequest(uid: string, summary: string): PaletteMutation {
  return { target: 'palette', method: 'PATCH', path: `${profilePath(uid)}/publish`, summary };
}

/** The body of a clone (palette-sdk-go `V1ClusterProfileCloneEntity`). */
export interface CloneBody {
  metadata: { name: string; version: string; target: { scope: 'project'; projectUid: string } };
}

/** `POST /v1/clusterprofiles/{uid}/clone` → 201 `{uid}`: a new version object with the source's content. */
export function cloneRequest(sourceUid: string, to: { name: string; version: string; projectUid: string }, summary: string): PaletteMutation {
  const body: CloneBody = { metadata: { name: to.name, version: to.version, target: { scope: 'project', projectUid: to.projectUid } } };
  return { target: 'palette', method: 'POST', path: `${profilePath(sourceUid)}/clone`, body, summary };
}

/** The new version's uid from a clone's 201 answer (`v1Uid`), when the answer holds one. */
export function clonedUidOf(answer: unknown): string | undefined {
  const uid = typeof answer === 'object' && answer !== null ? (answer as { uid?: unknown }).uid : undefined;
  return typeof uid === 'string' && uid !== '' ? uid : undefined;
}

/** One entry of the apply body (palette-sdk-go `V1SpectroClusterProfileEntity`). */
export interface ApplyProfile {
  uid: string;
  /** The attached version this one replaces; without it a second version is attached beside the first. */
  replaceWithProfile?: string;
  /** Values of the version's profile variables for this cluster (`v1SpectroClusterVariable`): carried as read, or a marker filled in as it is sent (variable-values.ts). */
  variables?: Array<{ name: string; value: string }>;
}

/**
 * `PATCH /v1/spectroclusters/{uid}/profiles?resolveNotification=true` with `{profiles}`: attaches new
 * versions in place of old ones, or (same uid) applies the pending update of an edited version.
 */
export function applyProfilesRequest(clusterUid: string, profiles: ApplyProfile[], summary: string): PaletteMutation {
  return { target: 'palette', method: 'PATCH', path: `${clusterPath(clusterUid)}/profiles?resolveNotification=true`, body: { profiles }, summary };
}

/** `PATCH /v1/spectroclusters/{uid}/repave/approve`: lets Palette drain and rebuild the nodes. */
export function approveRepaveRequest(clusterUid: string, summary: string): PaletteMutation {
  return { target: 'palette', method: 'PATCH', path: `${clusterPath(clusterUid)}/repave/approve`, summary };
}

const putPath = /^\/v1\/clusterprofiles\/([^/?]+)$/;
const publishPath = /^\/v1\/clusterprofiles\/([^/?]+)\/publish$/;
const clonePath = /^\/v1\/clusterprofiles\/([^/?]+)\/clone$/;
const applyPath = /^\/v1\/spectroclusters\/([^/?]+)\/profiles(?:\?.*)?$/;
const repavePath = /^\/v1\/spectroclusters\/([^/?]+)\/repave\/approve$/;

export type MutationKind =
  | { kind: 'put' | 'publish' | 'clone'; uid: string }
  | { kind: 'apply' | 'repave'; clusterUid: string }
  | { kind: 'other' };

const uidOf = (m: RegExpExecArray | null): string | undefined => (m?.[1] ? decodeURIComponent(m[1]) : undefined);

/** Which mutation a request is, from its method and path (a journaled request has only those). */
export function classifyMutation(request: Pick<PaletteMutation, 'method' | 'path'>): MutationKind {
  const { method, path } = request;
  const put = method === 'PUT' ? uidOf(putPath.exec(path)) : undefined;
  if (put) return { kind: 'put', uid: put };
  const pub = method === 'PATCH' ? uidOf(publishPath.exec(path)) : undefined;
  if (pub) return { kind: 'publish', uid: pub };
  const clone = method === 'POST' ? uidOf(clonePath.exec(path)) : undefined;
  if (clone) return { kind: 'clone', uid: clone };
  const apply = method === 'PATCH' ? uidOf(applyPath.exec(path)) : undefined;
  if (apply) return { kind: 'apply', clusterUid: apply };
  const repave = method === 'PATCH' ? uidOf(repavePath.exec(path)) : undefined;
  if (repave) return { kind: 'repave', clusterUid: repave };
  return { kind: 'other' };
}
