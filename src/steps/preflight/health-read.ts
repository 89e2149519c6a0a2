/**
 * Reads what the health judgement needs (domain/checks/upgrade-health.ts): a fixed number of calls
 * whatever the cluster's size, concurrently. A read that fails leaves its area unjudged and says why:
 * never a green it did not earn.
 */
import type { Params } from '../../engine/params.js';
import { backOffPods } from '../../kube/checks/gather.js';
import { factLine, judgeHealth, type HealthArea, type HealthFact, type HealthReads } from '../../domain/checks/upgrade-health.js';
import { isKubeError } from '../../kube/errors.js';
import type { ClusterReader } from '../../kube/reader.js';

export interface HealthReport {
  facts: HealthFact[];
  /** Areas that could not be read, with why (`missingCrd`: the cluster serves no such kind). */
  unread: Array<{ area: HealthArea; reason: string; missingCrd?: boolean }>;
  /** What was read, for panels that say more than the facts (versions, counts). */
  reads: HealthReads;
}

/** Where the upgrade works: VM orchestration (KubeVirt, CDI), storage, network (the CNI in kube-system), the platform agent. */
export function healthNamespaces(site: Params): string[] {
  const storageNs = site.site.storageCluster.split('/')[0]!;
  const agent = site.site.agentNamespace ?? `cluster-${site.cluster.uid}`;
  return [...new Set([site.kubevirt.namespace, 'cdi', storageNs, 'kube-system', agent, 'palette-system'])];
}

/** The services meant to hold a load-balancer address: the site's list, and the ingress when the site has one. */
export const intendedAddresses = (site: Params): string[] => [...site.site.loadBalancerServices, ...(site.site.ingressIP !== null ? [site.site.ingressService] : [])];

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function readHealth(reader: ClusterReader, site: Params): Promise<HealthReport> {
  const unread: HealthReport['unread'] = [];
  const reads: HealthReads = { intendedAddresses: intendedAddresses(site) };
  const [storageNs, storageName] = site.site.storageCluster.split('/') as [string, string];
  const kind = site.site.storageClusterKind;
  const area = async (name: HealthArea, load: () => Promise<void>) => {
    try {
      await load();
    } catch (err) {
      unread.push({ area: name, reason: why(err), ...(isKubeError(err, 'missing-crd') ? { missingCrd: true } : {}) });
    }
  };
  await Promise.all([
    area('components', async () => {
      [reads.kubevirt, reads.cdi] = await Promise.all([reader.kubeVirt(site.kubevirt.namespace, site.kubevirt.name), reader.cdi(site.cdi.name)]);
    }),
    area('nodes', async () => {
      reads.nodes = await reader.nodes();
    }),
    area('storage', async () => {
      reads.storage = { name: site.site.storageCluster, kind, cluster: await reader.storageCluster(storageNs, storageName, kind) };
    }),
    area('pods', async () => {
      const [pods, backOff] = await Promise.all([Promise.all(healthNamespaces(site).map((namespace) => reader.pods({ namespace }))), backOffPods(reader)]);
      reads.pods = pods.flat();
      reads.backOffPods = backOff;
    }),
    area('addresses', async () => {
      reads.services = await reader.services();
    }),
  ]);
  return { facts: judgeHealth(reads), unread, reads };
}

/** The lines a gate restates: every unhealthy fact read just now, and the areas that could not be read. */
export function healthWarnings(report: HealthReport): string[] {
  return [
    ...report.facts.map((f) => `Not healthy (read just now): ${factLine(f)}`),
    ...report.unread.map((u) => `The cluster's ${u.area} could not be read again (${u.reason}): its health is unknown.`),
  ];
}
