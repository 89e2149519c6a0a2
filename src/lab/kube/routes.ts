/**
 * URL paths of the Kubernetes API, parsed into what they address: discovery documents, a
 * collection, an item, or an item's subresource (at cluster or namespace scope).
 */
import { pathSegments, resourcePath } from '../../kube/api-path.js';
import { findForeignSubresource, findServedType, localSubresources, servedType, type ServedType } from './kinds.js';

export interface ResourceTarget {
  /** The addressed type (for `virtualmachines/restart`, the VirtualMachine type). */
  type: ServedType;
  /** The API group of the request path (`subresources.kubevirt.io` for KubeVirt's subresources). */
  group: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'apiVersions' }
  | { kind: 'apiGroupList' }
  | { kind: 'apiGroup'; group: string }
  | { kind: 'resourceList'; group: string; version: string }
  | { kind: 'resource'; target: ResourceTarget }
  | { kind: 'unknown' };

const UNKNOWN: Route = { kind: 'unknown' };

function resourceRoute(group: string, version: string, rest: string[]): Route {
  const path = resourcePath(rest);
  if (!path) return UNKNOWN;
  const { resource, namespace, name, subresource } = path;

  if (subresource !== undefined) {
    const foreign = findForeignSubresource(group, version, resource, subresource);
    if (foreign) {
      if (foreign.namespaced !== (namespace !== undefined)) return UNKNOWN;
      return { kind: 'resource', target: { type: servedType(foreign.resource), group, namespace, name, subresource } };
    }
  }
  const type = findServedType(group, version, resource);
  if (!type) return UNKNOWN;
  if (namespace !== undefined && !type.namespaced) return UNKNOWN;
  // A namespaced type is listed across namespaces at cluster scope, but its items live in a namespace.
  if (namespace === undefined && type.namespaced && name !== undefined) return UNKNOWN;
  if (subresource !== undefined && !localSubresources(type).includes(subresource)) return UNKNOWN;
  return { kind: 'resource', target: { type, group, namespace, name, subresource } };
}

export function parseRoute(pathname: string): Route {
  const segments = pathSegments(pathname);
  if (!segments) return UNKNOWN;
  const [root, a, b, ...rest] = segments;
  if (segments.length === 1 && root === 'version') return { kind: 'version' };
  if (segments.length === 1 && (root === 'healthz' || root === 'livez' || root === 'readyz')) return { kind: 'health' };
  if (root === 'api') {
    if (a === undefined) return { kind: 'apiVersions' };
    if (a !== 'v1') return UNKNOWN;
    if (b === undefined) return { kind: 'resourceList', group: '', version: 'v1' };
    return resourceRoute('', 'v1', [b, ...rest]);
  }
  if (root === 'apis') {
    if (a === undefined) return { kind: 'apiGroupList' };
    if (b === undefined) return { kind: 'apiGroup', group: a };
    if (rest.length === 0) return { kind: 'resourceList', group: a, version: b };
    return resourceRoute(a, b, rest);
  }
  return UNKNOWN;
}

/** The authorization verb of a request, as RBAC names it. */
export function verbOf(method: string, target: ResourceTarget, watch: boolean): string {
  const item = target.name !== undefined;
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : item ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return item ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
