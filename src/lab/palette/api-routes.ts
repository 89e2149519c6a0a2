/**
 * The profile API routes of the double (spec section 4, plus Palette's manifests endpoint in the
 * `palette` dialect). Each handler returns what to answer and, for mutations, what the audit log
 * should say it did; the server owns auth, faults and the wire.
 */
import type { AuditEntry } from '../audit.js';
import { errorBody } from './http.js';
import { clusterRoutes } from './cluster-routes.js';
import { refuseUndefinedVariables, variableRoutes } from './variable-routes.js';
import { interpretPut } from './put-payload.js';
import { clusterProfilesDocument, listItem, manifestsDocument, profileDocument } from './shapes.js';
import type { ProfileStore } from './store.js';
import type { LabProfile, PaletteDialect, PaletteLabHooks } from './types.js';

export interface ApiContext {
  store: ProfileStore;
  hooks: PaletteLabHooks;
  dialect: PaletteDialect;
  ref: string;
  /** The `ignorePut` fault: accept the PUT, store nothing. */
  ignorePut: boolean;
}

export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  effect: AuditEntry['effect'];
  note?: string;
}

export type Handler = (ctx: ApiContext, params: string[], body: string, query: URLSearchParams) => ApiResult;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const ok = (body: unknown): ApiResult => ({ status: 200, body, effect: 'applied' });
const fail = (ctx: ApiContext, status: number, code: string, message: string): ApiResult => ({
  status,
  body: errorBody(code, message, ctx.ref),
  effect: 'rejected',
  note: message,
});
const profileNotFound = (ctx: ApiContext, uid: string) => fail(ctx, 404, 'ResourceNotFound', `Cluster profile '${uid}' not found`);

function withProfile(handler: (ctx: ApiContext, profile: LabProfile, params: string[], body: string, query: URLSearchParams) => ApiResult): Handler {
  return (ctx, params, body, query) => {
    const uid = params[0] ?? '';
    const profile = ctx.store.get(uid);
    return profile ? handler(ctx, profile, params, body, query) : profileNotFound(ctx, uid);
  };
}

/** Palette pages its lists (`limit`, `continue`); the spec shows no paging, so the spec dialect answers all. */
const listProfiles: Handler = (ctx, _params, _body, query) => {
  const all = ctx.store.list();
  if (ctx.dialect === 'spec') return ok({ items: all.map((p) => listItem(p, 'spec')) });
  const limit = Math.max(1, Math.min(Number(query.get('limit')) || 50, 500));
  const offset = Math.max(0, Number(query.get('continue')) || 0);
  const page = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? String(offset + limit) : '';
  return ok({ items: page.map((p) => listItem(p, 'palette')), listmeta: { count: all.length, limit, offset, continue: next } });
};

const getProfile = withProfile((ctx, profile) => ok(profileDocument(profile, ctx.dialect, ctx.store.versionsOf(profile.name))));

const putProfile = withProfile((ctx, profile, _params, body) => {
  if (ctx.ignorePut) return { status: 204, effect: 'ignored', note: `ignorePut fault: draft of ${profile.name} not written` };
  const outcome = interpretPut(profile, body);
  if (outcome.kind === 'ignored') return { status: 204, effect: 'ignored', note: `${outcome.reason}: nothing changed on ${profile.name}` };
  if (outcome.kind === 'invalid') return fail(ctx, 400, outcome.code, outcome.message);
  const undeclared = refuseUndefinedVariables(ctx, profile, outcome.draft.packs);
  if (undeclared) return undeclared;
  // On a real Palette each version is its own object: another label renames this one in place.
  const label = (profile.draft ?? profile.published)?.version;
  const renames = ctx.dialect === 'palette' && label !== undefined && label !== outcome.draft.version;
  ctx.store.writeDraft(profile.uid, outcome.draft);
  if (outcome.annotations) profile.annotations = outcome.annotations;
  if (outcome.labels) profile.labels = outcome.labels;
  if (outcome.packServerRefs) profile.packServerRefs = outcome.packServerRefs;
  profile.extraMetadata = outcome.extraMetadata;
  profile.extraSpec = outcome.extraSpec;
  return { status: 204, effect: 'applied', note: `draft ${profile.name} ${outcome.draft.version}${renames ? ` (renames ${label} in place)` : ''}` };
});

const publish = withProfile((ctx, profile) => {
  // Nothing to publish is a state conflict, not a malformed request or a missing resource: 409, as
  // Palette answers other state conflicts on profiles (ClusterProfileAlreadyExists). A client that
  // retried a publish whose first attempt had in fact succeeded lands here too, which is why the
  // client settles by reading the profile instead of retrying blindly.
  if (!profile.draft) return fail(ctx, 409, 'ClusterProfileNoDraft', `Cluster profile '${profile.name}' has no draft to publish`);
  ctx.store.publish(profile.uid, { renameInPlace: ctx.dialect === 'palette' });
  const note = `publish ${profile.name} ${profile.published?.version ?? ''}`;
  try {
    ctx.hooks.onPublish?.(profile);
  } catch (err) {
    // Published already; the world failed to react. Say so, as a server error would.
    const message = `published, but the lab world failed to react: ${err instanceof Error ? err.message : String(err)}`;
    return { status: 500, body: errorBody('InternalError', message, ctx.ref), effect: 'applied', note: `${note} (${message})` };
  }
  return { status: 204, effect: 'applied', note };
});

const packManifests = withProfile((ctx, profile, params) => {
  const packName = params[1] ?? '';
  const doc = manifestsDocument(profile, packName);
  return doc ? ok(doc) : fail(ctx, 404, 'ResourceNotFound', `Pack '${packName}' not found in cluster profile '${profile.uid}'`);
});

const clusterProfiles: Handler = (ctx, params) => {
  const uid = params[0] ?? '';
  const deployed = ctx.hooks.clusterProfiles(uid);
  if (!deployed) return fail(ctx, 404, 'ResourceNotFound', `Cluster '${uid}' not found`);
  return ok(clusterProfilesDocument(deployed, ctx.dialect, (p) => ctx.store.get(p)));
};

const segment = '([^/]+)';

const decode = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

export function apiRoutes(dialect: PaletteDialect): Route[] {
  const routes: Route[] = [
    { method: 'GET', pattern: /^\/v1\/clusterprofiles$/, handler: listProfiles },
    { method: 'GET', pattern: new RegExp(`^/v1/clusterprofiles/${segment}$`), handler: getProfile },
    { method: 'PUT', pattern: new RegExp(`^/v1/clusterprofiles/${segment}$`), handler: putProfile },
    { method: 'PATCH', pattern: new RegExp(`^/v1/clusterprofiles/${segment}/publish$`), handler: publish },
  ];
  if (dialect === 'spec') {
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/clusters/${segment}/profiles$`), handler: clusterProfiles });
  } else {
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/clusterprofiles/${segment}/packs/${segment}/manifests$`), handler: packManifests });
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/spectroclusters/${segment}/profiles$`), handler: clusterProfiles });
    routes.push(...clusterRoutes());
    routes.push(...variableRoutes());
  }
  return routes;
}

/** Finds and runs the route; unknown paths are 404 and known paths with another method 405. */
export function dispatch(routes: Route[], ctx: ApiContext, method: string, path: string, body: string, query: URLSearchParams): ApiResult {
  const matching = routes.flatMap((r) => {
    const m = r.pattern.exec(path);
    return m ? [{ route: r, params: m.slice(1).map(decode) }] : [];
  });
  if (matching.length === 0) return fail(ctx, 404, 'ResourceNotFound', `No such resource: ${path}`);
  const hit = matching.find((m) => m.route.method === method);
  if (!hit) {
    const allow = matching.map((m) => m.route.method).join(', ');
    return { ...fail(ctx, 405, 'MethodNotAllowed', `${method} is not supported on ${path}`), headers: { allow } };
  }
  return hit.route.handler(ctx, hit.params, body, query);
}
