/**
 * A cluster's params: the fleet's defaults with the cluster's own values on top. Objects merge key
 * by key; a list or a value replaces the default whole (a list of services is the cluster's list,
 * not the defaults' plus its own).
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergeParams(defaults: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(own)) {
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? mergeParams(base, value) : value;
  }
  return out;
}

/**
 * The params one cluster runs with: the merge, then the cluster's identity (name, uid, access) and
 * the fleet's target, which no default or cluster entry may set otherwise.
 */
export function clusterParams(defaults: Record<string, unknown>, cluster: Record<string, unknown>, target: string): Record<string, unknown> {
  const { name, uid, kubeconfig, context, ...own } = cluster;
  const merged = mergeParams(defaults, own);
  const base = isPlainObject(merged.cluster) ? merged.cluster : {};
  return {
    ...merged,
    cluster: { ...base, uid, name, ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(context !== undefined ? { context } : {}) },
    target,
  };
}
