/**
 * The double's pack registry, in both dialects, after palette-sdk-go `api/spec/palette-apis-spec.json`:
 * - `GET /v1/packs?filters=spec.name=<n>ANDspec.version=<t>` → `V1PackSummaries` (paged: `limit`
 *   at most 50, `continue`), every registry's matches;
 * - `GET /v1/packs/{name}/registries/{registryUid}` → `V1PackTagEntity` (`tags[]` and `packValues[]`);
 * - `GET /v1/registries/metadata` → `V1RegistriesMetadata`.
 */
import type { Route } from './route-types.js';
import type { LabRegistry, LabRegistryPack } from './types.js';
import { errorBody } from './http.js';

export type { LabRegistry, LabRegistryPack } from './types.js';

/** Fields the filters query can select on (Palette indexes only some fields). */
const filterFields: Record<string, (p: LabRegistryPack, registry: LabRegistry) => string> = {
  'spec.name': (p) => p.name,
  'spec.version': (p) => p.tag,
  'spec.registryUid': (_p, r) => r.uid,
  'spec.layer': (p) => p.layer,
};

export type Filter = { field: string; value: string };

/** `spec.name=nginxANDspec.version=1.12.1` → its terms; undefined when a term is not `field=value`. */
export function parseFilters(text: string): Filter[] | undefined {
  const terms: Filter[] = [];
  for (const part of text.split('AND')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    terms.push({ field: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() });
  }
  return terms;
}

/** `4.6.3` → `['4.x', '4.6.x']`, as Palette groups a pack's tags. */
function parentTags(tag: string): string[] {
  const m = /^v?(\d+)\.(\d+)\./.exec(tag);
  return m ? [`${m[1]}.x`, `${m[1]}.${m[2]}.x`] : [];
}

const fail = (status: number, code: string, message: string, ref: string) => ({ status, body: errorBody(code, message, ref), effect: 'rejected' as const, note: message });

function summary(p: LabRegistryPack, registry: LabRegistry): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'pack',
    metadata: { uid: p.uid, name: p.name },
    spec: { name: p.name, displayName: p.name, version: p.tag, layer: p.layer, type: p.type, registryUid: registry.uid, cloudTypes: ['all'], values: p.values },
    status: {},
  };
}

export function registryRoutes(registries: readonly LabRegistry[]): Route[] {
  if (registries.length === 0) return [];
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/packs$/,
      handler: (ctx, _params, _body, query) => {
        const raw = query.get('filters') ?? '';
        const filters = raw ? parseFilters(raw) : [];
        if (!filters) return fail(400, 'InvalidFilter', `Cannot read the filters '${raw}': expected field=value terms joined by AND`, ctx.ref);
        const unknown = filters.find((f) => !(f.field in filterFields));
        if (unknown) return fail(400, 'InvalidFilter', `The field '${unknown.field}' cannot be filtered on`, ctx.ref);
        const all = registries.flatMap((r) => r.packs.filter((p) => filters.every((f) => filterFields[f.field]!(p, r) === f.value)).map((p) => summary(p, r)));
        const limit = Math.max(1, Math.min(Number(query.get('limit')) || 50, 50));
        const offset = Math.max(0, Number(query.get('continue')) || 0);
        const next = offset + limit < all.length ? String(offset + limit) : '';
        return { status: 200, body: { items: all.slice(offset, offset + limit), listmeta: { count: all.length, limit, offset, continue: next } }, effect: 'applied' };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/packs\/([^/]+)\/registries\/([^/]+)$/,
      handler: (ctx, params) => {
        const [name = '', registryUid = ''] = params;
        const registry = registries.find((r) => r.uid === registryUid);
        const packs = registry?.packs.filter((p) => p.name === name) ?? [];
        if (!registry || packs.length === 0) return fail(404, 'ResourceNotFound', `Pack '${name}' not found in registry '${registryUid}'`, ctx.ref);
        return {
          status: 200,
          body: {
            name,
            displayName: name,
            layer: packs[0]!.layer,
            registryUid,
            cloudTypes: ['all'],
            tags: packs.map((p) => ({ tag: p.tag, version: p.tag, packUid: p.uid, parentTags: parentTags(p.tag) })),
            packValues: packs.map((p) => ({ packUid: p.uid, values: p.values, readme: '', schema: [], presets: [] })),
          },
          effect: 'applied',
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/registries\/metadata$/,
      handler: () => ({
        status: 200,
        body: { items: registries.map((r, i) => ({ uid: r.uid, name: r.name, kind: 'pack', scope: 'system', isDefault: i === 0, isPrivate: false })) },
        effect: 'applied',
      }),
    },
  ];
}
