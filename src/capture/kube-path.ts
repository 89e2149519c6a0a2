/**
 * What a Kubernetes API read addressed, from its path: the collection (group, version, resource),
 * the namespace and name, a subresource (`log`), and the selectors of a list. Pure. The path may
 * carry a gateway prefix (`/k8s/clusters/c-abc/api/v1/nodes`): the API part starts at `/api/` or
 * `/apis/`, so a capture of a cluster behind Rancher files its objects like any other's.
 */
import { pathSegments, resourcePath } from '../kube/api-path.js';

export interface KubeRead {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural, as in URLs: `pods`, `virtualmachineinstances`. */
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** A server-side table was asked for (`includeObject`): its rows are not whole objects. */
  table: boolean;
}

/** `pods`, `virtualmachineinstances.kubevirt.io`: how the apiserver names a resource, and the key of a capture's collection. */
export const resourceKey = (r: Pick<KubeRead, 'group' | 'resource'>): string => (r.group === '' ? r.resource : `${r.resource}.${r.group}`);

/** The read a path makes, or undefined when it is no resource read (`/version`, discovery). */
export function parseKubeRead(path: string): KubeRead | undefined {
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : path.slice(q + 1));
  const segments = pathSegments(pathname);
  if (!segments) return undefined;
  const root = segments.findIndex((s) => s === 'api' || s === 'apis');
  if (root < 0) return undefined;
  const core = segments[root] === 'api';
  const [group, version, ...rest] = core ? ['', ...segments.slice(root + 1)] : segments.slice(root + 1);
  if (group === undefined || !version || rest.length === 0) return undefined;
  const target = resourcePath(rest);
  if (!target) return undefined;
  const labelSelector = query.get('labelSelector') || undefined;
  const fieldSelector = query.get('fieldSelector') || undefined;
  return {
    group,
    version,
    resource: target.resource,
    ...(target.namespace !== undefined ? { namespace: target.namespace } : {}),
    ...(target.name !== undefined ? { name: target.name } : {}),
    ...(target.subresource !== undefined ? { subresource: target.subresource } : {}),
    ...(labelSelector ? { labelSelector } : {}),
    ...(fieldSelector ? { fieldSelector } : {}),
    table: query.has('includeObject'),
  };
}

/** The same read as a whole list (no table, no paging): what fills in a read answered as a table. */
export function listPathOf(read: KubeRead): string {
  const base = read.group === '' ? `/api/${read.version}` : `/apis/${read.group}/${read.version}`;
  return `${base}${read.namespace !== undefined ? `/namespaces/${read.namespace}` : ''}/${read.resource}`;
}
