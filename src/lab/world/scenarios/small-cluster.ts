/**
 * The cluster the four small scenarios share: three control-plane nodes, four workers (the fourth
 * compute-only, without drives), nine VMs across the orchestration pack's VM namespaces, two VLAN
 * networks and a VM service with its own load-balancer address.
 *
 * - `ns-adv/win-sb-01`: Windows with EFI secure boot (migrated from another hypervisor); needs SMM.
 * - `ns-packs/build-cache-01`: a disk on a node-local volume on vmo-worker-3; cannot live-migrate.
 * - `ns-adv/legacy-app-01`: RunStrategy Halted; must never be restarted.
 */
import { labSite } from '../../data/site.js';
import type { VmDefinition } from '../kubevirt-objects.js';
import { noFaults, type NetworkDefinition, type NodePlan, type ScenarioSpec, type SeededMigration } from './types.js';

export const smallNodes: NodePlan[] = [
  { name: 'vmo-cp-1', controlPlane: true, storage: true },
  { name: 'vmo-cp-2', controlPlane: true, storage: true },
  { name: 'vmo-cp-3', controlPlane: true, storage: true },
  { name: 'vmo-worker-1', controlPlane: false, storage: true },
  { name: 'vmo-worker-2', controlPlane: false, storage: true },
  { name: 'vmo-worker-3', controlPlane: false, storage: true },
  { name: 'vmo-worker-4', controlPlane: false, storage: false },
];

export const smallNetworks: NetworkDefinition[] = [
  { namespace: 'virtual-machines', name: 'vlan-128', vlan: 128 },
  { namespace: 'ns-edge', name: 'vlan-129', vlan: 129 },
];

export const smallVms: VmDefinition[] = [
  { namespace: 'virtual-machines', name: 'web-01', runStrategy: 'Always', cores: 2, memoryGi: 4, os: 'ubuntu', networks: ['virtual-machines/vlan-128'], labels: { app: 'web' } },
  { namespace: 'virtual-machines', name: 'web-02', runStrategy: 'Always', cores: 2, memoryGi: 4, os: 'ubuntu', networks: ['virtual-machines/vlan-128'], labels: { app: 'web' } },
  { namespace: 'virtual-machines', name: 'db-01', runStrategy: 'Always', cores: 8, memoryGi: 32, os: 'rhel', labels: { app: 'db' } },
  { namespace: 'ns-product', name: 'api-01', runStrategy: 'Always', cores: 4, memoryGi: 8, os: 'ubuntu', labels: { app: 'api' } },
  { namespace: 'ns-product', name: 'api-02', runStrategy: 'Always', cores: 4, memoryGi: 8, os: 'ubuntu', labels: { app: 'api' } },
  { namespace: 'ns-edge', name: 'edge-gw-01', runStrategy: 'Always', cores: 2, memoryGi: 2, os: 'fedora', networks: ['ns-edge/vlan-129'], labels: { app: 'edge-gateway' } },
  { namespace: 'ns-adv', name: 'win-sb-01', runStrategy: 'Always', cores: 4, memoryGi: 16, os: 'windows', secureBoot: true, labels: { app: 'erp', 'migrated-from': 'vsphere' } },
  { namespace: 'ns-packs', name: 'build-cache-01', runStrategy: 'Always', cores: 4, memoryGi: 8, os: 'ubuntu', localDisk: true, node: 'vmo-worker-3', labels: { app: 'build-cache' } },
  { namespace: 'ns-adv', name: 'legacy-app-01', runStrategy: 'Halted', cores: 2, memoryGi: 4, os: 'rhel', labels: { app: 'legacy' } },
];

/** A VM service that is meant to have its own address (listed in the params' loadBalancerServices). */
export const webFrontendService: ScenarioSpec['services'][number] = {
  namespace: 'virtual-machines',
  name: 'web-frontend-lb',
  type: 'LoadBalancer',
  ports: [{ name: 'https', port: 443, targetPort: 8443 }],
  selector: { app: 'web' },
  annotations: { 'metallb.universe.tf/loadBalancerIPs': labSite.webFrontendIP },
};

export const vmSshServices: ScenarioSpec['services'] = [
  { namespace: 'virtual-machines', name: 'db-01-ssh', type: 'ClusterIP', ports: [{ name: 'ssh', port: 22, targetPort: 22 }], selector: { 'kubevirt.io/domain': 'db-01' } },
  { namespace: 'ns-product', name: 'api', type: 'ClusterIP', ports: [{ name: 'http', port: 80, targetPort: 8080 }], selector: { app: 'api' } },
];

const day = 24 * 3_600_000;

/**
 * The finished migrations a cluster that has run for months keeps (KubeVirt: the newest five per
 * VMI): a week ago db-01's migrations timed out twice during a node drain (virt-launcher aborts a
 * migration that makes no progress for 150 s, `abortStatus: Succeeded`), then one succeeded; web-01
 * moved cleanly. Oldest first, so each VMI's migrationState shows its latest.
 */
export const pastMigrations: SeededMigration[] = [
  { namespace: 'virtual-machines', vmi: 'db-01', state: 'Failed', ageMs: 6 * day + 40 * 60_000, reason: 'Live migration stuck for 150 seconds and has been aborted', abortStatus: 'Succeeded' },
  { namespace: 'virtual-machines', vmi: 'db-01', state: 'Failed', ageMs: 6 * day + 20 * 60_000, reason: 'Live migration stuck for 150 seconds and has been aborted', abortStatus: 'Succeeded' },
  { namespace: 'virtual-machines', vmi: 'db-01', state: 'Succeeded', ageMs: 6 * day },
  { namespace: 'virtual-machines', vmi: 'web-01', state: 'Succeeded', ageMs: 6 * day - 10 * 60_000 },
];

/** The small cluster as it stands when nothing went wrong lately: its past migrations, no faults. */
export function quietSmallCluster(): Pick<ScenarioSpec, 'nodes' | 'vms' | 'networks' | 'migrations' | 'skippedMinorMigrations' | 'services' | 'faults'> {
  return { nodes: smallNodes, vms: smallVms, networks: smallNetworks, migrations: pastMigrations, skippedMinorMigrations: false, services: [webFrontendService, ...vmSshServices], faults: noFaults() };
}
