/**
 * The fleet file a fleet lab writes: the first cluster's params as the defaults (every cluster of
 * the lab shares the Palette, the profiles and the site's names), each cluster its name, uid,
 * kubeconfig and agent namespace; stages canary 1, wave-1 of up to 3 (two at a time), wave-2 the
 * rest (four at a time), each stopping at the first failure.
 */
export interface FleetLabCluster {
  name: string;
  uid: string;
  kubeconfig: string;
}

export function fleetStages(names: string[]): Array<{ name: string; clusters: string[]; maxConcurrency: number; failureThreshold: number }> {
  const stages = [
    { name: 'canary', clusters: names.slice(0, 1), maxConcurrency: 1, failureThreshold: 1 },
    { name: 'wave-1', clusters: names.slice(1, 4), maxConcurrency: 2, failureThreshold: 1 },
    { name: 'wave-2', clusters: names.slice(4), maxConcurrency: 4, failureThreshold: 1 },
  ];
  return stages.filter((s) => s.clusters.length > 0);
}

/** `labels`: the version label each shared profile gets in the hop to `target` (one new version, attached by every cluster). */
export function fleetFileFor(members: FleetLabCluster[], params: Array<Record<string, unknown>>, target: string, labels: { addon: string; infra: string }): Record<string, unknown> {
  const { cluster: _c, target: _t, site, ...rest } = params[0]!;
  const { agentNamespace: _a, ...sharedSite } = site as Record<string, unknown>;
  return {
    fleet: 'lab-fleet',
    target,
    defaults: { ...rest, site: sharedSite, references: [{ version: target, labels }] },
    clusters: members.map((m, i) => {
      const own = params[i]!;
      const cluster = own.cluster as { context?: string };
      // The cluster's own site values: its agent namespace, and any other that differs from the defaults (its ingress address).
      const ownSite = Object.fromEntries(Object.entries(own.site as Record<string, unknown>).filter(([k, v]) => k === 'agentNamespace' || JSON.stringify(v) !== JSON.stringify(sharedSite[k])));
      return { name: m.name, uid: m.uid, kubeconfig: m.kubeconfig, ...(cluster.context ? { context: cluster.context } : {}), site: ownSite };
    }),
    stages: fleetStages(members.map((m) => m.name)),
  };
}
