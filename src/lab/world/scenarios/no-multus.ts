/**
 * `no-multus`: the healthy upgrade on a cluster without Multus. Multus is an add-on, not part of
 * KubeVirt: without it the `k8s.cni.cncf.io` API group does not exist, discovery does not list it
 * and a list of network attachment definitions answers 404 `404 page not found`, as a real
 * apiserver answers for a group nothing serves. The VMs use the pod network only.
 */
import { healthyScenario } from './healthy.js';
import type { ScenarioSpec } from './types.js';

export function noMultusScenario(): ScenarioSpec {
  const healthy = healthyScenario();
  return {
    ...healthy,
    name: 'no-multus',
    summary: 'The healthy upgrade (VMO 4.4.10 to 4.6.3, two hops) on a cluster without Multus: no network attachment definitions API (404), VMs on the pod network only.',
    multus: false,
    networks: [],
    vms: healthy.vms.map(({ networks: _networks, ...vm }) => vm),
  };
}
