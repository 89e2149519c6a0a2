/**
 * Kubernetes `Status` failures with the messages the real apiserver writes, because kubectl prints
 * them verbatim (`Error from server (NotFound): pods "x" not found`) and callers match on them.
 */
import { qualifiedResource } from './kinds.js';
import type { KubeStatusError, StatusDetails } from './types.js';

/** Thrown anywhere below the server to answer with a Status; the server catches it. */
export class KubeStatusException extends Error {
  constructor(readonly status: KubeStatusError) {
    super(status.message);
    this.name = 'KubeStatusException';
  }
}

export function isKubeStatusError(value: unknown): value is KubeStatusError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'number' && typeof v.reason === 'string' && typeof v.message === 'string';
}

export function statusBody(err: KubeStatusError): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason: err.reason,
    ...(err.details ? { details: err.details } : {}),
    code: err.code,
  };
}

interface ResourceRef {
  group: string;
  resource: string;
}

function details(ref: ResourceRef, name?: string): StatusDetails {
  return { ...(name ? { name } : {}), ...(ref.group ? { group: ref.group } : {}), kind: ref.resource };
}

export function notFound(ref: ResourceRef, name: string): KubeStatusError {
  return { code: 404, reason: 'NotFound', message: `${qualifiedResource(ref.group, ref.resource)} "${name}" not found`, details: details(ref, name) };
}

/** What the apiserver answers for a path it does not serve. */
export function pathNotFound(): KubeStatusError {
  return { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} };
}

export function badRequest(message: string): KubeStatusError {
  return { code: 400, reason: 'BadRequest', message };
}

export function unauthorized(): KubeStatusError {
  return { code: 401, reason: 'Unauthorized', message: 'Unauthorized' };
}

export interface ForbiddenRequest extends ResourceRef {
  user: string;
  verb: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export function forbidden(req: ForbiddenRequest): KubeStatusError {
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const scope = req.namespace ? `in the namespace "${req.namespace}"` : 'at the cluster scope';
  const why = `User "${req.user}" cannot ${req.verb} resource "${resource}" in API group "${req.group}" ${scope}`;
  const subject = qualifiedResource(req.group, req.resource);
  const message = req.name ? `${subject} "${req.name}" is forbidden: ${why}` : `${subject} is forbidden: ${why}`;
  return { code: 403, reason: 'Forbidden', message, details: details(req, req.name) };
}

export function conflict(ref: ResourceRef, name: string, why: string): KubeStatusError {
  return {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${qualifiedResource(ref.group, ref.resource)} "${name}": ${why}`,
    details: details(ref, name),
  };
}

export function methodNotAllowed(): KubeStatusError {
  return { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', details: {} };
}

export function notAcceptable(): KubeStatusError {
  return { code: 406, reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json' };
}

export function unsupportedMediaType(contentType: string): KubeStatusError {
  return { code: 415, reason: 'UnsupportedMediaType', message: `the body of the request was in an unknown format - accepted media types include: application/json (got ${contentType})` };
}

export function tooLarge(limitBytes: number): KubeStatusError {
  return { code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: limit is ${limitBytes}` };
}

export function tooManyRequests(retryAfterSeconds: number): KubeStatusError {
  return { code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds } };
}

export function serverError(code: number, message: string): KubeStatusError {
  const reason = code === 503 ? 'ServiceUnavailable' : code === 504 ? 'Timeout' : 'InternalError';
  return { code, reason, message };
}
