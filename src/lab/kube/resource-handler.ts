/**
 * Picks the handler for a request on a resource: list, get, delete, pod logs, or a subresource the
 * world serves. Everything else is a method the lab does not allow (as read-only as the product
 * needs it to be: the tool only deletes migrations and restarts VMs).
 */
import { handleDelete } from './delete-handler.js';
import { statusReply } from './http.js';
import { handleLogs } from './logs-handler.js';
import { handleGet, handleList } from './read-handlers.js';
import type { Handled, HandlerDeps, KubeRequest } from './request.js';
import { methodNotAllowed } from './status.js';
import { handleSubresource } from './subresource-handler.js';

export function handleResource(req: KubeRequest, deps: HandlerDeps): Handled {
  const { name, subresource } = req.target;
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (subresource === 'log') return read ? handleLogs(req, deps) : { reply: statusReply(methodNotAllowed()) };
  if (subresource !== undefined) return req.method === 'PUT' ? handleSubresource(req, deps) : { reply: statusReply(methodNotAllowed()) };
  if (read) return name === undefined ? handleList(req, deps) : handleGet(req, deps);
  if (req.method === 'DELETE' && name !== undefined) return handleDelete(req, deps);
  return { reply: statusReply(methodNotAllowed()) };
}
