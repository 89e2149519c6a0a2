/**
 * A real Palette's profile lists (palette dialect only), after palette-sdk-go's spec 4.4-4.8:
 *
 * - `GET /v1/dashboard/clusterprofiles/metadata` → `v1ClusterProfilesMetadata`: one item per profile
 *   version object, `metadata` (`v1ObjectEntity` {name, uid}) and `spec {version, cloudType}`; not
 *   paged (the operation takes no `limit`). The SDK's `GetClusterProfileUID` reads it to find a
 *   version by name and label.
 * - `POST /v1/dashboard/clusterprofiles` → `v1ClusterProfilesSummary`: body `v1ClusterProfilesFilterSpec`
 *   (`filter.profileName` is a `v1FilterString` {eq, ne, contains, beginsWith, ignoreCase (default
 *   true)}; `filter.profileType`), paged with `limit` (at most 50), `offset` and `continue`. An item
 *   is a `v1ClusterProfileSummary`: `metadata` (`v1ObjectMeta`), `specSummary {version ("latest
 *   version"), versions[] ("all the versions") {uid, version}, draft, published}`, `status`; going by
 *   those field descriptions, one item stands for a profile name with its latest version.
 *   The other filters and `sort` are not modelled: the lab refuses them (501) rather than ignore them.
 */
import type { ApiContext, ApiResult, Route } from './route-types.js';
import { rejected } from './route-results.js';
import { isPublished } from './shapes.js';
import type { LabProfile, LabProfileContent } from './types.js';

type Json = Record<string, unknown>;

/** "Maximum value of the limit is 50." */
const MAX_LIMIT = 50;

const ok = (body: unknown): ApiResult => ({ status: 200, body, effect: 'applied' });
const fail = rejected;
const label = (p: LabProfile) => (p.draft ?? p.published)?.version ?? '';

const metadataList = (ctx: ApiContext): ApiResult =>
  ok({ items: ctx.store.list().map((p) => ({ metadata: { name: p.name, uid: p.uid }, spec: { version: label(p), cloudType: p.cloudType } })) });

function templateSummary(p: LabProfile, content: LabProfileContent): Json {
  return { cloudType: p.cloudType, type: p.type, packs: content.packs.map((k) => ({ name: k.name, tag: k.tag, packUid: k.uid, layer: k.layer, type: k.type, displayName: k.name })) };
}

function summary(ctx: ApiContext, latest: LabProfile): Json {
  const extra = latest.extraMetadata ?? {};
  return {
    metadata: { ...('creationTimestamp' in extra ? { creationTimestamp: extra.creationTimestamp } : {}), name: latest.name, uid: latest.uid, annotations: { ...latest.annotations }, labels: { ...latest.labels } },
    specSummary: {
      version: label(latest),
      versions: ctx.store.versionsOf(latest.name),
      ...(latest.draft ? { draft: templateSummary(latest, latest.draft) } : {}),
      ...(latest.published ? { published: templateSummary(latest, latest.published) } : {}),
    },
    status: { isPublished: isPublished(latest) },
  };
}

/** `v1FilterString`: every condition given holds (text compared without case unless `ignoreCase: false`). */
export function matchesText(value: string, filter: Json): boolean {
  const fold = (s: string) => (filter.ignoreCase === false ? s : s.toLowerCase());
  const v = fold(value);
  const text = (k: string) => (typeof filter[k] === 'string' ? fold(filter[k] as string) : undefined);
  const [eq, ne, contains, beginsWith] = [text('eq'), text('ne'), text('contains'), text('beginsWith')];
  return (eq === undefined || v === eq) && (ne === undefined || v !== ne) && (contains === undefined || v.includes(contains)) && (beginsWith === undefined || v.startsWith(beginsWith));
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const modelledFilters = new Set(['profileName', 'profileType']);

const search = (ctx: ApiContext, _params: string[], body: string, query: URLSearchParams): ApiResult => {
  const limitText = query.get('limit');
  const limit = limitText === null ? MAX_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return fail(ctx, 400, 'BadRequest', `limit: must be an integer from 1 to ${MAX_LIMIT}, got ${limitText}`);
  let spec: unknown;
  try {
    spec = JSON.parse(body || '{}');
  } catch {
    return fail(ctx, 400, 'BadRequest', 'The request body is not valid JSON');
  }
  if (!isObject(spec)) return fail(ctx, 400, 'BadRequest', 'The request body must be a v1ClusterProfilesFilterSpec object');
  if (spec.sort !== undefined) return fail(ctx, 501, 'NotImplemented', 'The lab does not model sorting the profile list');
  const filter = isObject(spec.filter) ? spec.filter : {};
  const unmodelled = Object.keys(filter).find((k) => !modelledFilters.has(k));
  if (unmodelled) return fail(ctx, 501, 'NotImplemented', `The lab does not model the filter ${unmodelled}`);
  const types = Array.isArray(filter.profileType) ? filter.profileType : undefined;
  const byName = new Map<string, LabProfile>();
  for (const p of ctx.store.list()) {
    if (isObject(filter.profileName) && !matchesText(p.name, filter.profileName)) continue;
    if (types && !types.includes(p.type)) continue;
    // The latest version of each profile stands for it.
    const seen = byName.get(p.name);
    const latestUid = ctx.store.versionsOf(p.name).at(-1)?.uid;
    if (!seen || p.uid === latestUid) byName.set(p.name, p);
  }
  const all = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)).map((p) => summary(ctx, p));
  const offset = Math.max(0, Number(query.get('continue') ?? query.get('offset')) || 0);
  const next = offset + limit < all.length ? String(offset + limit) : '';
  return ok({ items: all.slice(offset, offset + limit), listmeta: { count: all.length, limit, offset, continue: next } });
};

export function dashboardRoutes(): Route[] {
  return [
    { method: 'GET', pattern: /^\/v1\/dashboard\/clusterprofiles\/metadata$/, handler: metadataList },
    { method: 'POST', pattern: /^\/v1\/dashboard\/clusterprofiles$/, handler: search, read: true },
  ];
}
