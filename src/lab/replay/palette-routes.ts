/**
 * The profile API of a replay: the answers the site gave, served again. A document (a profile, a
 * cluster, a pack's tags) is answered as captured whatever the query; the paged and filtered
 * collections (the profile list, a cluster's events and notifications, the registry's pack search)
 * are merged from every captured page and paged and filtered here, so a client asking with another
 * page size or filter than the capture did still gets what the site holds. Anything not captured
 * is a 404 that says so; every change is refused (405): a replay is frozen.
 */
import type { Handler, Route } from '../palette/api-routes.js';
import { errorBody } from '../palette/http.js';
import { matchesText } from '../palette/dashboard-routes.js';
import { parseFilters } from '../palette/registry-routes.js';
import type { PaletteAnswer } from '../../capture/types.js';

type Item = Record<string, unknown>;

const ok = (body: unknown) => ({ status: 200, body, effect: 'applied' as const });

/** What a replay answers to a change: refused, nothing happens. */
export const READ_ONLY_MESSAGE = 'This lab replays a capture of a site: it is frozen and read-only, and nothing was changed. Rehearse against it (upgrade-pilot rehearse) instead of starting an upgrade.';

const readOnly: Handler = (ctx) => ({ status: 405, body: errorBody('ReplayIsReadOnly', READ_ONLY_MESSAGE, ctx.ref), effect: 'rejected', note: 'replay: read-only' });

/** A path the capture never read: the site's answer is unknown, so none is made up. */
const notCaptured: Handler = (ctx, params) => ({ status: 404, body: errorBody('ResourceNotFound', `Not in this capture: GET ${params[0] ?? ''} was not read when the site was captured`, ctx.ref), effect: 'rejected', note: 'replay: not captured' });

const pathOf = (p: string) => p.split('?')[0]!;
const queryOf = (p: string) => new URLSearchParams(p.includes('?') ? p.slice(p.indexOf('?') + 1) : '');

/** Items of every captured page of a collection, each once (by uid when it has one), in the order first seen. */
function mergedItems(answers: PaletteAnswer[]): Item[] {
  const seen = new Map<string, Item>();
  for (const a of answers) {
    const items = (a.body as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) continue;
    for (const item of items as Item[]) {
      const uid = (item.metadata as { uid?: unknown } | undefined)?.uid;
      seen.set(typeof uid === 'string' ? uid : JSON.stringify(item), item);
    }
  }
  return [...seen.values()];
}

/** One page of `items` (`limit` at most 50, `continue` an offset), in Palette's list shape. */
function paged(items: Item[], query: URLSearchParams): unknown {
  const limit = Math.max(1, Math.min(Number(query.get('limit')) || 50, 50));
  const offset = Math.max(0, Number(query.get('continue')) || 0);
  const next = offset + limit < items.length ? String(offset + limit) : '';
  return { items: items.slice(offset, offset + limit), listmeta: { count: items.length, limit, offset, continue: next } };
}

const specField = (item: Item, field: string): unknown => {
  const spec = item.spec as Record<string, unknown> | undefined;
  return field.startsWith('spec.') ? spec?.[field.slice('spec.'.length)] : undefined;
};

/** A collection handler over its merged items. */
function collection(answers: PaletteAnswer[], kind: 'list' | 'events' | 'notifications' | 'packs'): Handler {
  const items = mergedItems(answers);
  const first = answers[0]?.body as Record<string, unknown> | undefined;
  return (ctx, _params, _body, query) => {
    if (kind === 'list') {
      // The whole list in one answer, in the shape it was captured in (the spec's service sends no listmeta).
      return ok({ ...first, items, ...(first && 'listmeta' in first ? { listmeta: { count: items.length, continue: '' } } : {}) });
    }
    let selected = items;
    if (kind === 'notifications' && query.has('isDone')) selected = items.filter((n) => String((n.action as { isDone?: unknown } | undefined)?.isDone ?? false) === query.get('isDone'));
    if (kind === 'packs') {
      const raw = query.get('filters') ?? '';
      const filters = raw ? parseFilters(raw) : [];
      if (!filters) return { status: 400, body: errorBody('InvalidFilter', `Cannot read the filters '${raw}'`, ctx.ref), effect: 'rejected' };
      selected = items.filter((p) => filters.every((f) => String(specField(p, f.field) ?? '') === f.value));
    }
    return ok(paged(selected, query));
  };
}

const COLLECTIONS: Array<[RegExp, 'list' | 'events' | 'notifications' | 'packs']> = [
  [/^\/v1\/clusterprofiles$/, 'list'],
  [/^\/v1\/events\/components\/spectrocluster\/[^/]+$/, 'events'],
  [/^\/v1\/notifications\/spectrocluster\/[^/]+$/, 'notifications'],
  [/^\/v1\/packs$/, 'packs'],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A real Palette's dashboard search (`POST /v1/dashboard/clusterprofiles`, a read): the summaries of
 * every captured search, filtered again by the name filter the request carries, paged.
 */
function search(answers: PaletteAnswer[]): Handler {
  const items = mergedItems(answers);
  return (ctx, _params, body, query) => {
    let spec: { filter?: { profileName?: Record<string, unknown> } };
    try {
      spec = JSON.parse(body || '{}') as typeof spec;
    } catch {
      return { status: 400, body: errorBody('BadRequest', 'The request body is not valid JSON', ctx.ref), effect: 'rejected' };
    }
    const name = spec?.filter?.profileName;
    const selected = name && typeof name === 'object' ? items.filter((i) => matchesText(String((i.metadata as { name?: unknown } | undefined)?.name ?? ''), name)) : items;
    return ok(paged(selected, query));
  };
}

export function replayRoutes(answers: readonly PaletteAnswer[]): Route[] {
  const byPath = new Map<string, PaletteAnswer[]>();
  const searches = new Map<string, PaletteAnswer[]>();
  for (const a of answers) {
    if (a.status < 200 || a.status >= 300) continue;
    const into = a.method === 'POST' ? searches : byPath;
    into.set(pathOf(a.path), [...(into.get(pathOf(a.path)) ?? []), a]);
  }
  const routes: Route[] = [];
  for (const [path, list] of searches) routes.push({ method: 'POST', pattern: new RegExp(`^${escape(path)}$`), handler: search(list), read: true });
  for (const [path, list] of byPath) {
    const kind = COLLECTIONS.find(([re]) => re.test(path))?.[1];
    const handler: Handler = kind
      ? collection(list, kind)
      : (_ctx, _params, _body, query) => {
          // The answer to the same query if there is one, else the latest to this path.
          const exact = list.find((a) => queryOf(a.path).toString() === query.toString());
          return ok((exact ?? list.at(-1)!).body);
        };
    routes.push({ method: 'GET', pattern: new RegExp(`^${escape(path)}$`), handler });
  }
  for (const method of ['PUT', 'PATCH', 'POST', 'DELETE']) routes.push({ method, pattern: /^\/v1\//, handler: readOnly });
  routes.push({ method: 'GET', pattern: /^(\/v1\/.*)$/, handler: notCaptured });
  return routes;
}
