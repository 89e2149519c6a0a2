/**
 * Preflight questions about the cluster's state: KubeVirt and CDI exist; whether the cluster is fit
 * to be upgraded (red, each fact named: the `health` gate lists them); and what would complicate the
 * upgrade (amber): migrations failed or in flight, VMIs already on an outdated launcher. One list
 * call per kind.
 */
import type { Params } from '../../engine/params.js';
import { storageHealth } from '../../domain/checks/storage-health.js';
import { factLine, type HealthArea } from '../../domain/checks/upgrade-health.js';
import type { ClusterReader } from '../../kube/reader.js';
import { OUTDATED_LABEL, type Vmim } from '../../kube/schemas.js';
import { failuresSinceSuccess } from '../migrations/phases.js';
import { timed } from './failure.js';
import { healthNamespaces, intendedAddresses, readHealth, type HealthReport } from './health-read.js';
import { firstOf, notChecked, pass, red, warn, type PreflightItem } from './types.js';

/**
 * Panel names, not claims: each reads right beside a green summary and beside a red one
 * ("VMs on an outdated launcher: 8 VM instance(s) still run ...").
 */
export const STATE_TITLES = {
  components: 'KubeVirt and CDI',
  migrations: 'Live migrations',
  outdated: 'VMs on an outdated launcher',
  nodes: 'Nodes',
  storage: 'Storage cluster',
  pods: 'Pods where the upgrade works',
  addresses: 'Load-balancer addresses',
} as const;
const TITLES = STATE_TITLES;

const nsName = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);

/** The same questions, greyed: the cluster did not answer, so none of them was asked. */
export function clusterStateNotChecked(why: string): PreflightItem[] {
  return [
    notChecked('kubevirt-cdi', TITLES.components, why),
    notChecked('migrations', TITLES.migrations, why),
    notChecked('outdated-vmis', TITLES.outdated, why),
    notChecked('nodes', TITLES.nodes, why),
    notChecked('storage', TITLES.storage, why),
    notChecked('pods', TITLES.pods, why),
    notChecked('addresses', TITLES.addresses, why),
  ];
}

const HEALTH_HINTS: Record<HealthArea, string> = {
  components: 'Wait until KubeVirt and CDI are Deployed and Available (a rollout may be in progress), or look at their conditions (kubectl get kubevirt -A -o yaml).',
  nodes: 'Live migrations need somewhere to go and a rebuild drains every node: bring the nodes back (or uncordon them) before upgrading.',
  storage: 'VM disks live there: migrations and restarts may fail while storage is unhealthy. Fix it before upgrading.',
  pods: 'Look at the pods (kubectl describe pod, kubectl logs --previous) and fix them before upgrading: the upgrade rolls these components.',
  addresses: 'A leaked address means the load balancer handed out addresses it should not (autoAssign): release it or add the service to site.loadBalancerServices.',
};

/** One health area as a panel: red (the `health` gate) with every fact, green when none. */
function healthItem(id: string, title: string, area: HealthArea, report: HealthReport, healthy: string): PreflightItem {
  const unread = report.unread.find((u) => u.area === area);
  if (unread) throw new Error(unread.reason);
  const facts = report.facts.filter((f) => f.area === area);
  if (facts.length === 0) return pass(id, title, healthy);
  const summary = `${facts[0]!.text}${facts.length > 1 ? ` (and ${facts.length - 1} more)` : ''}.`;
  return { ...red(id, title, summary, 'health', HEALTH_HINTS[area], firstOf(facts.map(factLine))), health: facts };
}

export function clusterStateItems(reader: ClusterReader, site: Params): Array<Promise<PreflightItem>> {
  const health = readHealth(reader, site);
  return [
    timed('kubevirt-cdi', TITLES.components, async () => components(site, await health)),
    timed('migrations', TITLES.migrations, async () => migrationsItem(await reader.migrations())),
    timed('outdated-vmis', TITLES.outdated, async () => outdatedItem(await reader.vmis({ labelSelector: OUTDATED_LABEL }))),
    timed('nodes', TITLES.nodes, async () => {
      const r = await health;
      return healthItem('nodes', TITLES.nodes, 'nodes', r, `${r.reads.nodes?.length ?? 0} node(s), all Ready and schedulable.`);
    }),
    timed('storage', TITLES.storage, async () => storage(site, await health)),
    timed('pods', TITLES.pods, async () => healthItem('pods', TITLES.pods, 'pods', await health, `None crash-looping; all ready in ${healthNamespaces(site).join(', ')}.`)),
    timed('addresses', TITLES.addresses, async () => {
      const r = await health;
      return healthItem('addresses', TITLES.addresses, 'addresses', r, `Only the intended services hold one (${intendedAddresses(site).join(', ') || 'none'}).`);
    }),
  ];
}

function components(site: Params, report: HealthReport): PreflightItem {
  const unread = report.unread.find((u) => u.area === 'components');
  if (unread) throw new Error(unread.reason);
  const { kubevirt: kv, cdi } = report.reads;
  const missing = [
    ...(kv ? [] : [`the KubeVirt resource ${site.kubevirt.namespace}/${site.kubevirt.name}`]),
    ...(cdi ? [] : [`the CDI resource ${site.cdi.name}`]),
  ];
  if (missing.length) {
    return red('kubevirt-cdi', TITLES.components, `Not found: ${missing.join(' and ')}.`, 'failed', 'Check that the VM orchestration pack is deployed on this cluster, and the kubevirt/cdi names in the params file.');
  }
  const summary = `KubeVirt ${kv!.status?.observedKubeVirtVersion ?? '?'} (${kv!.status?.phase ?? 'unknown'}), CDI ${cdi!.status?.observedVersion ?? '?'} (${cdi!.status?.phase ?? 'unknown'}).`;
  return healthItem('kubevirt-cdi', TITLES.components, 'components', report, `${summary} Both Available.`);
}

/**
 * A VMI is judged by its latest migrations: KubeVirt keeps up to five finished ones per VMI, so a
 * failure that a later success superseded (last week's drain) is history, not a warning today.
 */
export function migrationsItem(migrations: Vmim[]): PreflightItem {
  const failing = new Set(
    [...failuresSinceSuccess(migrations, { vmi: (m) => `${m.metadata.namespace ?? ''}/${m.spec.vmiName}`, phase: (m) => m.status?.phase || 'Pending', created: (m) => Date.parse(m.metadata.creationTimestamp ?? '') || 0 }).values()].flat(),
  );
  const failed = migrations.filter((m) => failing.has(m));
  const superseded = migrations.filter((m) => m.status?.phase === 'Failed' && !failing.has(m)).length;
  const inFlight = migrations.filter((m) => m.status?.phase !== 'Succeeded' && m.status?.phase !== 'Failed');
  if (failed.length === 0 && inFlight.length === 0) {
    return pass('migrations', TITLES.migrations, `${migrations.length} migration(s), ${superseded ? `the ${superseded} that failed superseded by a later success` : 'all Succeeded'}.`);
  }
  const lines = [
    ...failed.map((m) => `${nsName(m.metadata)} of ${m.spec.vmiName}: Failed${m.status?.migrationState?.failureReason ? `: ${m.status.migrationState.failureReason}` : ''}`),
    ...inFlight.map((m) => `${nsName(m.metadata)} of ${m.spec.vmiName}: ${m.status?.phase || 'Pending'}`),
  ];
  return warn(
    'migrations',
    TITLES.migrations,
    `${failed.length} failed and ${inFlight.length} unfinished migration(s).`,
    firstOf(lines),
    'Let running migrations finish and look at failed ones (kubectl describe vmim) before upgrading: after the upgrade every VM migrates again.',
  );
}

export function outdatedItem(outdated: Array<{ metadata: { namespace?: string | undefined; name: string } }>): PreflightItem {
  if (outdated.length === 0) return pass('outdated-vmis', TITLES.outdated, 'Every running VM is on the current launcher.');
  return warn(
    'outdated-vmis',
    TITLES.outdated,
    `${outdated.length} VM instance(s) still run on an outdated launcher.`,
    firstOf(outdated.map((v) => nsName(v.metadata))),
    'Restart them (or let their migrations finish) before the next hop: one more minor would leave them two versions behind, which cannot live-migrate.',
  );
}

function storage(site: Params, report: HealthReport): PreflightItem {
  const unread = report.unread.find((u) => u.area === 'storage');
  if (unread?.missingCrd) {
    return warn('storage', TITLES.storage, `The cluster serves no storage cluster resource (${site.site.storageClusterKind} CRD).`, [], 'Check site.storageCluster and site.storageClusterKind in the params file.');
  }
  const found = report.reads.storage;
  if (!unread && !found?.cluster) return warn('storage', TITLES.storage, `The storage cluster ${site.site.storageCluster} (${site.site.storageClusterKind}) was not found.`, [], 'Check site.storageCluster and site.storageClusterKind in the params file.');
  const state = found?.cluster ? storageHealth(site.site.storageClusterKind, found.cluster).state : '';
  return healthItem('storage', TITLES.storage, 'storage', report, `${site.site.storageCluster}: ${state}.`);
}
