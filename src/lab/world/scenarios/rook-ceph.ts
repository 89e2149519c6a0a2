/**
 * `rook-ceph`: the healthy upgrade (VMO 4.4.10 → 4.6.3, two one-minor hops, the same cluster and
 * VMs) on a site whose block storage is Rook-Ceph (as in the public Palette VMO tutorial) and whose
 * add-on profile holds only the load balancer beside the orchestration pack: no ingress controller,
 * no monitoring operator. The site's Rook-Ceph settings (class name, parameters, VM annotation,
 * placement, control-plane toleration) are on the deployed profile; licence and claim-controller
 * ports do not exist there.
 */
import { healthyScenario } from './healthy.js';
import type { ScenarioSpec } from './types.js';

export function rookCephScenario(): ScenarioSpec {
  return {
    ...healthyScenario(),
    name: 'rook-ceph',
    summary: 'VMO 4.4.10 deployed on a Rook-Ceph site without ingress or monitoring packs, target 4.6.3: two one-minor hops. 9 VMs; all live-migrate except ns-packs/build-cache-01 (node-local disk); ns-adv/legacy-app-01 is Halted.',
    layout: 'rook-ceph',
  };
}
