/**
 * The profile API's two mutations as engine requests. Steps build them; the engine journals,
 * gates and sends them through `PaletteApi.execute` (or records them in a rehearsal).
 */
import type { PaletteMutation } from '../engine/mutation.js';
import type { DraftBody } from './types.js';

const profilePath = (uid: string) => `/v1/clusterprofiles/${encodeURIComponent(uid)}`;

/** `PUT /v1/clusterprofiles/{uid}`: writes a draft only (spec 3); nothing reaches clusters yet. */
export function putProfileRequest(uid: string, body: DraftBody, summary: string): PaletteMutation {
  return { target: 'palette', method: 'PUT', path: profilePath(uid), body, summary };
}

/** `PATCH /v1/clusterprofiles/{uid}/publish`: clusters using the profile reconcile against the draft. */
export function publishRequest(uid: string, summary: string): PaletteMutation {
  return { target: 'palette', method: 'PATCH', path: `${profilePath(uid)}/publish`, summary };
}

const putPath = /^\/v1\/clusterprofiles\/([^/]+)$/;
const publishPath = /^\/v1\/clusterprofiles\/([^/]+)\/publish$/;

export type MutationKind = { kind: 'put'; uid: string } | { kind: 'publish'; uid: string } | { kind: 'other' };

/** Which mutation a request is, from its method and path (a journaled request has only those). */
export function classifyMutation(request: PaletteMutation): MutationKind {
  const put = request.method === 'PUT' ? putPath.exec(request.path) : null;
  if (put?.[1]) return { kind: 'put', uid: decodeURIComponent(put[1]) };
  const pub = request.method === 'PATCH' ? publishPath.exec(request.path) : null;
  if (pub?.[1]) return { kind: 'publish', uid: decodeURIComponent(pub[1]) };
  return { kind: 'other' };
}
