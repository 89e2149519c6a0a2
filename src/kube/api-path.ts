/**
 * The parts of a Kubernetes API path, as the apiserver reads them: after `/api/v1` or
 * `/apis/{group}/{version}` come `[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]`. One
 * reading for the capture (which files what a read addressed) and the lab (which routes a
 * request to what it serves). Pure.
 */

export interface ResourcePath {
  /** Plural, as in URLs: `pods`, `virtualmachineinstances`. */
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The path's segments, percent-decoded; undefined when one does not decode. */
export function pathSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * What the segments after the group and version address, or undefined for none. `namespaces/{ns}/…`
 * is namespaced; `namespaces` and `namespaces/{name}` alone address Namespaces themselves.
 */
export function resourcePath(rest: readonly string[]): ResourcePath | undefined {
  let namespace: string | undefined;
  let parts = rest;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    parts = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = parts;
  if (!resource || extra.length > 0) return undefined;
  return {
    resource,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}
