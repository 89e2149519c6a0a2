/**
 * DELETE of one object. The world may refuse (beforeDelete) and reacts afterwards (afterDelete:
 * deleting a migration cancels it). As in the apiserver (k8s.io/apiserver `registry/rest`
 * BeforeDelete, `registry/generic/registry` Store.Delete): an object without finalizers is gone
 * when the answer leaves; one with finalizers (a VMIM's `kubevirt.io/migrationJobFinalize`) only
 * gets a `deletionTimestamp` (and `deletionGracePeriodSeconds: 0`, its generation bumped) and stays
 * until its controller removes the last finalizer; deleting it again changes nothing. Either way
 * the answer is 200 with the object, so kubectl prints `... deleted`.
 */
import { parseBody, statusReply } from './http.js';
import type { Handled, HandlerDeps, KubeRequest } from './request.js';
import { KubeStatusException, badRequest, conflict, notFound } from './status.js';

interface DeleteOptions {
  dryRun?: unknown;
  preconditions?: { uid?: unknown; resourceVersion?: unknown };
}

function deleteOptions(req: KubeRequest): DeleteOptions {
  const body = parseBody(req.body, req.contentType, false);
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new KubeStatusException(badRequest('the body of the request must be a DeleteOptions object'));
  return body as DeleteOptions;
}

function isDryRun(req: KubeRequest, opts: DeleteOptions): boolean {
  return req.query.getAll('dryRun').includes('All') || (Array.isArray(opts.dryRun) && opts.dryRun.includes('All'));
}

export function handleDelete(req: KubeRequest, deps: HandlerDeps): Handled {
  const { type, namespace, name } = req.target;
  const opts = deleteOptions(req);
  const where = `${type.resource} ${namespace ? `${namespace}/` : ''}${name!}`;
  const current = deps.store.get(type.resource, namespace, name!);
  if (!current) return { reply: statusReply(notFound(type, name!)), note: `delete ${where}` };

  const uid = opts.preconditions?.uid;
  if (typeof uid === 'string' && uid !== current.metadata.uid) {
    const why = `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`;
    return { reply: statusReply(conflict(type, name!, why)), note: `delete ${where}` };
  }
  const rv = opts.preconditions?.resourceVersion;
  if (typeof rv === 'string' && rv !== current.metadata.resourceVersion) {
    const why = `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`;
    return { reply: statusReply(conflict(type, name!, why)), note: `delete ${where}` };
  }

  const refusal = deps.hooks.beforeDelete?.(type.resource, current);
  if (refusal) return { reply: statusReply(refusal), note: `delete ${where}` };

  if (isDryRun(req, opts)) {
    return { reply: { status: 200, contentType: 'application/json', body: JSON.stringify(current) }, effect: 'ignored', note: `delete ${where} (dry run)` };
  }
  if (current.metadata.deletionTimestamp) return { reply: { status: 200, contentType: 'application/json', body: JSON.stringify(current) }, note: `delete ${where} (already being deleted)` };
  if ((current.metadata.finalizers ?? []).length > 0) {
    const at = new Date(deps.hooks.now?.() ?? Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const marked = deps.store.update(type.resource, namespace, name!, (o) => {
      o.metadata.deletionTimestamp = at;
      o.metadata.deletionGracePeriodSeconds = 0;
      if (o.metadata.generation !== undefined) o.metadata.generation += 1;
    })!;
    deps.hooks.afterDelete?.(type.resource, marked);
    return { reply: { status: 200, contentType: 'application/json', body: JSON.stringify(deps.store.get(type.resource, namespace, name!) ?? marked) }, note: `delete ${where} (held by finalizers)` };
  }
  const removed = deps.store.remove(type.resource, namespace, name!) ?? current;
  deps.hooks.afterDelete?.(type.resource, removed);
  return { reply: { status: 200, contentType: 'application/json', body: JSON.stringify(removed) }, note: `delete ${where}` };
}
