/**
 * `rook-ceph`: the healthy upgrade (VMO 4.4.10 → 4.6.3, two one-minor hops) on a site whose block
 * storage is Rook-Ceph (as in the public Palette VMO tutorial) and whose add-on profile holds only
 * the load balancer beside the orchestration pack: no ingress controller, no monitoring operator.
 * The site's Rook-Ceph settings (class name, parameters, VM annotation, placement, control-plane
 * toleration) are on the deployed profile; licence and claim-controller ports do not exist there.
 */
import { smallNetworks, smallNodes, smallVms, vmSshServices, webFrontendService } from './small-cluster.js';
import { noFaults, type ScenarioSpec } from './types.js';

const day = 24 * 3_600_000;

export function rookCephScenario(): ScenarioSpec {
  return {
    name: 'rook-ceph',
    summary: 'VMO 4.4.10 deployed on a Rook-Ceph site without ingress or monitoring packs, target 4.6.3: two one-minor hops. 9 VMs; all live-migrate except ns-packs/build-cache-01 (node-local disk); ns-adv/legacy-app-01 is Halted.',
    layout: 'rook-ceph',
    deployed: '4.4.10',
    target: '4.6.3',
    launcherFrom: '4.4.10',
    nodes: smallNodes,
    vms: smallVms,
    networks: smallNetworks,
    migrations: [{ namespace: 'virtual-machines', vmi: 'db-01', state: 'Succeeded', ageMs: 6 * day }],
    skippedMinorMigrations: false,
    services: [webFrontendService, ...vmSshServices],
    faults: noFaults(),
  };
}
