/**
 * The profile API routes of the double. The `spec` dialect serves the spec's section 4 as written
 * (its list included); the `palette` dialect serves what palette-sdk-go's spec (4.4-4.8) has and
 * nothing else: no `GET /v1/clusterprofiles` (that path takes only POST, the create: 405), the
 * dashboard lists instead, the manifests endpoint, the clone and the cluster routes. Each handler
 * returns what to answer and, for mutations, what the audit log should say it did; the server owns
 * auth, faults and the wire.
 */
import { errorBody } from './http.js';
import { clusterRoutes } from './cluster-routes.js';
import { dashboardRoutes } from './dashboard-routes.js';
import { packVersionRefusal, storedValues } from './palette-put.js';
import { refuseUndefinedVariables, variableRoutes } from './variable-routes.js';
import { interpretPut } from './put-payload.js';
import { clusterProfilesDocument, listItem, manifestsDocument, profileDocument } from './shapes.js';
import type { ApiContext, ApiResult, Handler, Route } from './route-types.js';
import type { LabProfile, PaletteDialect } from './types.js';

export type { ApiContext, ApiResult, Handler, Route } from './route-types.js';

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

/** The spec's list (section 4, shape 2.4); the spec shows no paging, so it answers all. */
const listProfiles: Handler = (ctx) => ok({ items: ctx.store.list().map((p) => listItem(p)) });

/** A real Palette's create (`POST /v1/clusterprofiles`, `v1ClusterProfileEntity`): the path exists there, but the lab models no create. */
const createProfile: Handler = (ctx) => fail(ctx, 501, 'NotImplemented', 'The lab does not model creating cluster profiles');

const getProfile = withProfile((ctx, profile) => ok(profileDocument(profile, ctx.dialect, ctx.store.versionsOf(profile.name), ctx.hooks.inUseClusters?.(profile.uid))));

const putProfile = withProfile((ctx, profile, _params, body) => {
  if (ctx.ignorePut) return { status: 204, effect: 'ignored', note: `ignorePut fault: draft of ${profile.name} not written` };
  const outcome = interpretPut(profile, body);
  if (outcome.kind === 'ignored') return { status: 204, effect: 'ignored', note: `${outcome.reason}: nothing changed on ${profile.name}` };
  if (outcome.kind === 'invalid') return fail(ctx, 400, outcome.code, outcome.message);
  const palette = ctx.dialect === 'palette';
  if (palette) {
    const refused = packVersionRefusal(profile.draft ?? profile.published, outcome.sent, outcome.draft.packs, ctx.registries);
    if (refused) return fail(ctx, 400, refused.code, refused.message);
    for (const pack of outcome.draft.packs) pack.values = storedValues(pack.values);
  }
  const undeclared = refuseUndefinedVariables(ctx, profile, outcome.draft.packs);
  if (undeclared) return undeclared;
  // On a real Palette each version is its own object: another label renames this one in place.
  const label = (profile.draft ?? profile.published)?.version;
  const renames = palette && label !== undefined && label !== outcome.draft.version;
  ctx.store.writeDraft(profile.uid, outcome.draft);
  if (outcome.annotations) profile.annotations = outcome.annotations;
  if (outcome.labels) profile.labels = outcome.labels;
  // The spec's service keeps what the payload carries; a real Palette reads only its update entity
  // (metadata, spec.version, spec.template.{type, packs}): anything else is dropped unread.
  if (!palette) {
    if (outcome.packServerRefs) profile.packServerRefs = outcome.packServerRefs;
    profile.extraMetadata = outcome.extraMetadata;
    profile.extraSpec = outcome.extraSpec;
  }
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
    { method: 'GET', pattern: new RegExp(`^/v1/clusterprofiles/${segment}$`), handler: getProfile },
    { method: 'PUT', pattern: new RegExp(`^/v1/clusterprofiles/${segment}$`), handler: putProfile },
    { method: 'PATCH', pattern: new RegExp(`^/v1/clusterprofiles/${segment}/publish$`), handler: publish },
  ];
  if (dialect === 'spec') {
    routes.push({ method: 'GET', pattern: /^\/v1\/clusterprofiles$/, handler: listProfiles });
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/clusters/${segment}/profiles$`), handler: clusterProfiles });
  } else {
    routes.push({ method: 'POST', pattern: /^\/v1\/clusterprofiles$/, handler: createProfile });
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/clusterprofiles/${segment}/packs/${segment}/manifests$`), handler: packManifests });
    routes.push({ method: 'GET', pattern: new RegExp(`^/v1/spectroclusters/${segment}/profiles$`), handler: clusterProfiles });
    routes.push(...dashboardRoutes(), ...clusterRoutes(), ...variableRoutes());
  }
  return routes;
}

/** Finds and runs the route; unknown paths are 404 and known paths with another method 405. */
export function dispatch(routes: Route[], ctx: ApiContext, method: string, path: string, body: string, query: URLSearchParams): ApiResult {
  const matching = routes.flatMap((r) => {
    const m = r.pattern.exec(path);
    return m ? [{ route: r, params: m.slice(1).map(decode) }] : [];
  });
  if (matching.length === 0) return { ...fail(ctx, 404, 'ResourceNotFound', `No such resource: ${path}`), unknownRoute: true };
  const hit = matching.find((m) => m.route.method === method);
  if (!hit) {
    const allow = matching.map((m) => m.route.method).join(', ');
    return { ...fail(ctx, 405, 'MethodNotAllowed', `${method} is not supported on ${path}`), headers: { allow }, unknownRoute: true };
  }
  const result = hit.route.handler(ctx, hit.params, body, query);
  return hit.route.read ? { ...result, read: true } : result;
}
