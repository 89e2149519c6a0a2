/**
 * GET of a collection or an item, as plain JSON or as a Table. Lists apply the selectors on the
 * server (only the field labels the real apiserver supports for the type), then page in key order.
 */
import { negotiate, statusReply, type Reply } from './http.js';
import { apiVersionOf, type ServedType } from './kinds.js';
import { listBody } from './list-body.js';
import { paginate, parseLimit } from './paging.js';
import type { Handled, HandlerDeps, KubeRequest } from './request.js';
import { parseFieldSelector } from './selectors.js';
import { KubeStatusException, badRequest, methodNotAllowed, notAcceptable, notFound } from './status.js';
import type { StoredEntry } from './store.js';
import { parseIncludeObject, tableBody, type TableRowSource } from './table.js';

function checkFieldLabels(type: ServedType, fieldSelector: string): void {
  for (const r of parseFieldSelector(fieldSelector)) {
    if (!type.fieldLabels.includes(r.path)) throw new KubeStatusException(badRequest(`field label not supported: ${r.path}`));
  }
}

function rowSources(deps: HandlerDeps, entries: readonly StoredEntry[]): TableRowSource[] {
  return entries.map((e) => ({ obj: e.obj, json: () => deps.store.json(e) }));
}

export function handleList(req: KubeRequest, deps: HandlerDeps): Handled {
  const { type, namespace } = req.target;
  if (req.query.get('watch') === 'true' || req.query.get('watch') === '1') {
    return { reply: statusReply({ ...methodNotAllowed(), message: 'watch is not supported by the lab Kubernetes API' }) };
  }
  const representation = negotiate(req.accept, true);
  if (!representation) return { reply: statusReply(notAcceptable()) };
  const labelSelector = req.query.get('labelSelector') ?? '';
  const fieldSelector = req.query.get('fieldSelector') ?? '';
  checkFieldLabels(type, fieldSelector);
  const entries = deps.store.select(type.resource, { namespace, labelSelector, fieldSelector });
  const page = paginate(entries, {
    scope: [type.resource, namespace ?? '', labelSelector, fieldSelector].join('\u0000'),
    limit: parseLimit(req.query.get('limit')),
    continueToken: req.query.get('continue') ?? undefined,
  });
  // Like the apiserver, count what remains only for an unfiltered list.
  const unfiltered = labelSelector === '' && fieldSelector === '';
  const meta = {
    resourceVersion: deps.store.resourceVersion(),
    ...(page.continue ? { continue: page.continue } : {}),
    ...(page.remaining !== undefined && unfiltered ? { remainingItemCount: page.remaining } : {}),
  };
  if (representation.as === 'table') {
    const includeObject = parseIncludeObject(req.query.get('includeObject'));
    const body = tableBody({ type, rows: rowSources(deps, page.items), includeObject, meta, now: deps.store.now(), apiVersion: representation.apiVersion });
    return { reply: tableReply(body, representation.apiVersion) };
  }
  const body = listBody(`${type.kind}List`, apiVersionOf(type), meta, page.items.map((e) => deps.store.json(e)));
  return { reply: { status: 200, contentType: 'application/json', body } };
}

export function handleGet(req: KubeRequest, deps: HandlerDeps): Handled {
  const { type, namespace, name } = req.target;
  const representation = negotiate(req.accept, true);
  if (!representation) return { reply: statusReply(notAcceptable()) };
  const entry = deps.store.entry(type.resource, namespace, name!);
  if (!entry) return { reply: statusReply(notFound(type, name!)) };
  if (representation.as === 'table') {
    const includeObject = parseIncludeObject(req.query.get('includeObject'));
    const meta = { resourceVersion: entry.obj.metadata.resourceVersion ?? deps.store.resourceVersion() };
    const body = tableBody({ type, rows: rowSources(deps, [entry]), includeObject, meta, now: deps.store.now(), apiVersion: representation.apiVersion });
    return { reply: tableReply(body, representation.apiVersion) };
  }
  return { reply: { status: 200, contentType: 'application/json', body: deps.store.json(entry) } };
}

function tableReply(body: string[], apiVersion: string): Reply {
  const version = apiVersion.split('/')[1]!;
  return { status: 200, contentType: `application/json;as=Table;v=${version};g=meta.k8s.io`, body };
}
