/**
 * `healthy`: VMO 4.4.10 (KubeVirt 1.2) deployed with every site customization, target 4.6.3: two
 * one-minor hops (4.5.4, then 4.6.3). Everything migrates except the VM with a node-local disk;
 * the Halted VM stays stopped. The cluster keeps the past any long-running one has: db-01's
 * failed migrations a later success superseded, a week-old evicted pod, a failed Job's pod.
 */
import { smallNetworks, smallNodes, smallVms, vmSshServices, webFrontendService, pastMigrations } from './small-cluster.js';
import { noFaults, type ScenarioSpec } from './types.js';


export function healthyScenario(): ScenarioSpec {
  return {
    name: 'healthy',
    summary: 'VMO 4.4.10 (KubeVirt v1.2.0) deployed, target 4.6.3: two one-minor hops. 9 VMs; all live-migrate except ns-packs/build-cache-01 (node-local disk); ns-adv/legacy-app-01 is Halted.',
    deployed: '4.4.10',
    target: '4.6.3',
    launcherFrom: '4.4.10',
    nodes: smallNodes,
    vms: smallVms,
    networks: smallNetworks,
    migrations: pastMigrations,
    skippedMinorMigrations: false,
    services: [webFrontendService, ...vmSshServices],
    faults: noFaults(),
  };
}
