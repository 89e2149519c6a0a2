/**
 * A real Palette's routes beyond the profile API (palette dialect only): the clone of a profile
 * version, and per cluster the object, the apply of versions, the repave approval and status, the
 * events and the notifications. Shapes after palette-sdk-go's spec (see cluster-shapes.ts); state
 * and behaviour come from the world through `hooks.cluster`.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isVersionLabel, versionLabelRule } from '../../palette/version-label.js';
import type { ApiContext, ApiResult } from './route-types.js';
import { clusterDocument, eventItem, notificationItem, page, settledView } from './cluster-shapes.js';
import { parseBody, rejected } from './route-results.js';
import { recordApplyVariables } from './variable-routes.js';
import type { LabClusterView, LabResult } from './types.js';

type Handler = (ctx: ApiContext, params: string[], body: string, query: URLSearchParams) => ApiResult;

const ok = (body: unknown, status = 200): ApiResult => ({ status, body, effect: 'applied' });
const fail = rejected;
const clusterNotFound = (ctx: ApiContext, uid: string) => fail(ctx, 404, 'ResourceNotFound', `Cluster '${uid}' not found`);

const parse = parseBody;

const CloneEntity = z.looseObject({
  metadata: z.looseObject({
    name: z.string().min(1),
    version: z.string().optional(),
    target: z.looseObject({ scope: z.enum(['system', 'tenant', 'project', 'resource']), projectUid: z.string().optional() }).optional(),
  }),
});

/** `POST /v1/clusterprofiles/{uid}/clone` → 201 `{uid}`: a new version object with the source's published content. */
const cloneProfile: Handler = (ctx, params, body) => {
  const source = ctx.store.get(params[0] ?? '');
  if (!source) return fail(ctx, 404, 'ResourceNotFound', `Cluster profile '${params[0] ?? ''}' not found`);
  const parsed = parse(ctx, body, CloneEntity);
  if ('error' in parsed) return parsed.error;
  const { name, version } = parsed.data.metadata;
  const label = version ?? source.published?.version ?? '';
  if (!isVersionLabel(label)) return fail(ctx, 400, 'InvalidProfileVersion', `metadata.version: "${label}" is not a valid profile version (${versionLabelRule})`);
  if (!source.published) return fail(ctx, 400, 'ClusterProfileNotPublished', `Cluster profile '${source.name}' has no published version to clone`);
  if (ctx.store.findVersion(name, label)) return fail(ctx, 409, 'ClusterProfileAlreadyExists', `Cluster profile '${name}' version '${label}' already exists`);
  const uid = randomBytes(12).toString('hex');
  ctx.store.clone(source.uid, { uid, name, version: label });
  return { status: 201, body: { uid }, effect: 'applied', note: `clone ${source.name} ${source.published.version} to ${name} ${label} (${uid})` };
};

function viewOf(ctx: ApiContext, uid: string): LabClusterView | undefined {
  if (ctx.hooks.cluster) return ctx.hooks.cluster.view(uid);
  const deployed = ctx.hooks.clusterProfiles(uid);
  return deployed ? settledView(uid, deployed, (p) => ctx.store.get(p)) : undefined;
}

const getCluster: Handler = (ctx, params) => {
  const view = viewOf(ctx, params[0] ?? '');
  return view ? ok(clusterDocument(view, ctx.clusterShape)) : clusterNotFound(ctx, params[0] ?? '');
};

const ApplyBody = z.looseObject({
  profiles: z.array(z.looseObject({ uid: z.string().min(1), replaceWithProfile: z.string().min(1).optional() })).min(1),
});

const fromResult = (ctx: ApiContext, r: LabResult): ApiResult => (r.ok ? { status: 204, effect: 'applied', note: r.note } : fail(ctx, r.status, r.code, r.message));

const noClusterHooks = (ctx: ApiContext, uid: string): ApiResult =>
  ctx.hooks.clusterProfiles(uid) ? fail(ctx, 501, 'NotImplemented', 'This lab models no cluster changes') : clusterNotFound(ctx, uid);

/** `PATCH /v1/spectroclusters/{uid}/profiles?resolveNotification=true` with `{profiles:[{uid, replaceWithProfile?}]}`. */
const applyProfiles: Handler = (ctx, params, body, query) => {
  const uid = params[0] ?? '';
  if (!ctx.hooks.cluster) return noClusterHooks(ctx, uid);
  const parsed = parse(ctx, body, ApplyBody);
  if ('error' in parsed) return parsed.error;
  const entries = parsed.data.profiles.map((p) => (p.replaceWithProfile ? { uid: p.uid, replaceWithProfile: p.replaceWithProfile } : { uid: p.uid }));
  const result = fromResult(ctx, ctx.hooks.cluster.apply(uid, entries, query.get('resolveNotification') === 'true'));
  if (result.status === 204) recordApplyVariables(ctx, uid, parsed.data.profiles);
  return result;
};

const approveRepave: Handler = (ctx, params) => {
  const uid = params[0] ?? '';
  return ctx.hooks.cluster ? fromResult(ctx, ctx.hooks.cluster.approveRepave(uid)) : noClusterHooks(ctx, uid);
};

const repaveStatus: Handler = (ctx, params) => {
  const uid = params[0] ?? '';
  const view = viewOf(ctx, uid);
  if (!view) return clusterNotFound(ctx, uid);
  const reasons = ctx.hooks.cluster?.repaveReasons(uid) ?? [];
  return ok({
    metadata: { uid, name: view.name },
    spec: {
      spectroClusterUid: uid,
      source: 'palette',
      reasons: reasons.map((r) => ({ code: r.code, message: r.message, ...(r.pack ? { pack: { current: r.pack.current ? { name: r.pack.name, tag: r.pack.current, layer: 'k8s' } : null, target: r.pack.target ? { name: r.pack.name, tag: r.pack.target, layer: 'k8s' } : null, diffConfigKeys: [] } } : {}) })),
    },
    status: { ...(view.repave ? { state: view.repave } : {}), message: view.repave === 'Pending' ? 'Waiting for approval to repave the cluster' : '' },
  });
};

/** `GET /v1/events/components/spectrocluster/{uid}` (newest first, paged). */
const clusterEvents: Handler = (ctx, params, _body, query) => {
  const uid = params[0] ?? '';
  const view = viewOf(ctx, uid);
  if (!view) return clusterNotFound(ctx, uid);
  const all = ctx.hooks.cluster?.events(uid) ?? [];
  const { items, listmeta } = page(all.map((e, i) => eventItem(e, view, all.length - i)), query);
  return ok({ items, listmeta });
};

/** `GET /v1/notifications/spectrocluster/{uid}?isDone=false`. */
const clusterNotifications: Handler = (ctx, params, _body, query) => {
  const uid = params[0] ?? '';
  const view = viewOf(ctx, uid);
  if (!view) return clusterNotFound(ctx, uid);
  const isDone = query.get('isDone');
  const all = (ctx.hooks.cluster?.notifications(uid) ?? []).filter((n) => isDone === null || String(n.isDone) === isDone);
  const { items, listmeta } = page(all.map((n) => notificationItem(n, view)), query);
  return ok({ items, listmeta });
};

const segment = '([^/]+)';

/** The routes, for `apiRoutes` to add in the palette dialect. */
export function clusterRoutes(): Array<{ method: string; pattern: RegExp; handler: Handler }> {
  return [
    { method: 'POST', pattern: new RegExp(`^/v1/clusterprofiles/${segment}/clone$`), handler: cloneProfile },
    { method: 'GET', pattern: new RegExp(`^/v1/spectroclusters/${segment}$`), handler: getCluster },
    { method: 'PATCH', pattern: new RegExp(`^/v1/spectroclusters/${segment}/profiles$`), handler: applyProfiles },
    { method: 'PATCH', pattern: new RegExp(`^/v1/spectroclusters/${segment}/repave/approve$`), handler: approveRepave },
    { method: 'GET', pattern: new RegExp(`^/v1/spectroclusters/${segment}/repave/status$`), handler: repaveStatus },
    { method: 'GET', pattern: new RegExp(`^/v1/events/components/spectrocluster/${segment}$`), handler: clusterEvents },
    { method: 'GET', pattern: new RegExp(`^/v1/notifications/spectrocluster/${segment}$`), handler: clusterNotifications },
  ];
}
