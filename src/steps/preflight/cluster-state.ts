/**
 * Preflight questions about the cluster's state: KubeVirt and CDI exist, and what would complicate
 * the upgrade (amber): migrations failed or in flight, VMIs already on an outdated launcher, nodes
 * not Ready, a storage cluster that is not healthy. One list call per kind.
 */
import type { Params } from '../../engine/params.js';
import { isKubeError } from '../../kube/errors.js';
import { storageHealth } from '../../kube/checks/storage-health.js';
import type { ClusterReader } from '../../kube/reader.js';
import { OUTDATED_LABEL, type Node, type Vmim } from '../../kube/schemas.js';
import { failuresSinceSuccess } from '../migrations/phases.js';
import { timed } from './failure.js';
import { firstOf, notChecked, pass, red, warn, type PreflightItem } from './types.js';

const TITLES = {
  components: 'KubeVirt and CDI are installed',
  migrations: 'No migration failed or in flight',
  outdated: 'No VM is already on an outdated launcher',
  nodes: 'Every node is Ready',
  storage: 'The storage cluster is healthy',
} as const;

const nsName = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);

/** The same questions, greyed: the cluster did not answer, so none of them was asked. */
export function clusterStateNotChecked(why: string): PreflightItem[] {
  return [
    notChecked('kubevirt-cdi', TITLES.components, why),
    notChecked('migrations', TITLES.migrations, why),
    notChecked('outdated-vmis', TITLES.outdated, why),
    notChecked('nodes', TITLES.nodes, why),
    notChecked('storage', TITLES.storage, why),
  ];
}

export function clusterStateItems(reader: ClusterReader, site: Params): Array<Promise<PreflightItem>> {
  return [
    timed('kubevirt-cdi', TITLES.components, () => components(reader, site)),
    timed('migrations', TITLES.migrations, async () => migrationsItem(await reader.migrations())),
    timed('outdated-vmis', TITLES.outdated, async () => outdatedItem(await reader.vmis({ labelSelector: OUTDATED_LABEL }))),
    timed('nodes', TITLES.nodes, async () => nodesItem(await reader.nodes())),
    timed('storage', TITLES.storage, () => storage(reader, site)),
  ];
}

async function components(reader: ClusterReader, site: Params): Promise<PreflightItem> {
  const [kv, cdi] = await Promise.all([reader.kubeVirt(site.kubevirt.namespace, site.kubevirt.name), reader.cdi(site.cdi.name)]);
  const missing = [
    ...(kv ? [] : [`the KubeVirt resource ${site.kubevirt.namespace}/${site.kubevirt.name}`]),
    ...(cdi ? [] : [`the CDI resource ${site.cdi.name}`]),
  ];
  if (missing.length) {
    return red('kubevirt-cdi', TITLES.components, `Not found: ${missing.join(' and ')}.`, 'failed', 'Check that the VM orchestration pack is deployed on this cluster, and the kubevirt/cdi names in the params file.');
  }
  const kvPhase = kv!.status?.phase ?? 'unknown';
  const cdiPhase = cdi!.status?.phase ?? 'unknown';
  const summary = `KubeVirt ${kv!.status?.observedKubeVirtVersion ?? '?'} (${kvPhase}), CDI ${cdi!.status?.observedVersion ?? '?'} (${cdiPhase}).`;
  const notDeployed = [...(kvPhase !== 'Deployed' ? [`KubeVirt phase ${kvPhase}`] : []), ...(cdiPhase !== 'Deployed' ? [`CDI phase ${cdiPhase}`] : [])];
  if (notDeployed.length) return warn('kubevirt-cdi', TITLES.components, `${summary} Not settled: ${notDeployed.join(', ')}.`, [], 'Wait until both are Deployed (a rollout may be in progress) before upgrading.');
  return pass('kubevirt-cdi', TITLES.components, summary);
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

export function nodesItem(nodes: Node[]): PreflightItem {
  const notReady = nodes.filter((n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True');
  const cordoned = nodes.filter((n) => n.spec?.unschedulable);
  if (notReady.length === 0 && cordoned.length === 0) return pass('nodes', TITLES.nodes, `${nodes.length} node(s), all Ready.`);
  const lines = [
    ...notReady.map((n) => {
      const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
      return `${n.metadata.name}: not Ready${ready?.reason ? ` (${ready.reason})` : ''}`;
    }),
    ...cordoned.map((n) => `${n.metadata.name}: cordoned`),
  ];
  return warn(
    'nodes',
    TITLES.nodes,
    `${notReady.length} of ${nodes.length} node(s) not Ready${cordoned.length ? `, ${cordoned.length} cordoned` : ''}.`,
    firstOf(lines),
    'Live migrations need somewhere to go: bring the nodes back (or drain them on purpose) before upgrading.',
  );
}

async function storage(reader: ClusterReader, site: Params): Promise<PreflightItem> {
  const [namespace, name] = site.site.storageCluster.split('/') as [string, string];
  const kind = site.site.storageClusterKind;
  let cluster;
  try {
    cluster = await reader.storageCluster(namespace, name, kind);
  } catch (err) {
    if (isKubeError(err, 'missing-crd')) return warn('storage', TITLES.storage, `The cluster serves no storage cluster resource (${kind} CRD).`, [], 'Check site.storageCluster and site.storageClusterKind in the params file.');
    throw err;
  }
  if (!cluster) return warn('storage', TITLES.storage, `The storage cluster ${site.site.storageCluster} (${kind}) was not found.`, [], 'Check site.storageCluster and site.storageClusterKind in the params file.');
  const health = storageHealth(kind, cluster);
  if (health.healthy) return pass('storage', TITLES.storage, `${site.site.storageCluster}: ${health.state}.`);
  const conditions = (cluster.status?.conditions ?? []).filter((c) => c.status !== 'True' || c.type === 'RuntimeState').map((c) => `${c.type}: ${c.status}${c.message ? ` (${c.message})` : ''}`);
  const lines = kind === 'CephCluster' ? health.problems : conditions;
  const phase = kind === 'CephCluster' ? health.state : (cluster.status?.phase ?? 'unknown');
  return warn('storage', TITLES.storage, `${site.site.storageCluster}: phase ${phase}.`, firstOf(lines), 'VM disks live there: migrations and restarts may fail while storage is unhealthy. Fix it before upgrading.');
}
