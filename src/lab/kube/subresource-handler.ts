/**
 * Subresources the world serves through `hooks.subresource`, such as KubeVirt's
 * `PUT /apis/subresources.kubevirt.io/v1/namespaces/{ns}/virtualmachines/{name}/restart`
 * (`{}` or an empty body; answers 202). The parent object must exist, as in virt-api.
 */
import { emptyReply, parseBody, statusReply } from './http.js';
import type { Handled, HandlerDeps, KubeRequest } from './request.js';
import { isKubeStatusError, notFound, pathNotFound } from './status.js';

export function handleSubresource(req: KubeRequest, deps: HandlerDeps): Handled {
  const { type, namespace, name, subresource } = req.target;
  const note = `${subresource!} ${type.resource} ${namespace ? `${namespace}/` : ''}${name!}`;
  // virt-api decodes bodies as YAML or JSON; kubectl replace --raw sends the file as it is.
  const body = req.method === 'GET' ? undefined : (parseBody(req.body, req.contentType, true) ?? {});
  if (!deps.store.get(type.resource, namespace, name!)) return { reply: statusReply(notFound(type, name!)), note };

  const result = deps.hooks.subresource?.({ resource: type.resource, namespace, name: name!, subresource: subresource!, method: req.method, body });
  if (result === undefined) return { reply: statusReply(pathNotFound()), note };
  if (isKubeStatusError(result)) return { reply: statusReply(result), note };
  if (result.body === undefined) return { reply: emptyReply(result.status), note };
  const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  return { reply: { status: result.status, contentType: 'application/json', body: text }, note };
}
