/**
 * `degraded`: VMO 4.5.4 deployed, target 4.6.3, but the cluster is not healthy before anyone
 * starts: vmo-worker-2's kubelet stopped reporting (NotReady) and its Portworx is offline (the
 * StorageCluster is Degraded), kube-state-metrics crash-loops, and monitoring/grafana-external still
 * holds a load-balancer address handed out while autoAssign was on. Preflight should stop here.
 */
import { labSite } from '../../data/site.js';
import { smallNetworks, smallNodes, smallVms, vmSshServices, webFrontendService, pastMigrations } from './small-cluster.js';
import type { ScenarioSpec } from './types.js';

export function degradedScenario(): ScenarioSpec {
  return {
    name: 'degraded',
    summary:
      'VMO 4.5.4 deployed, target 4.6.3, on an unhealthy cluster: vmo-worker-2 NotReady, storage Degraded, a crash-looping kube-state-metrics pod, and a leaked load-balancer address on monitoring/grafana-external.',
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    nodes: smallNodes,
    vms: smallVms,
    networks: smallNetworks,
    migrations: pastMigrations,
    skippedMinorMigrations: false,
    services: [
      webFrontendService,
      ...vmSshServices,
      { namespace: 'monitoring', name: 'grafana-external', type: 'LoadBalancer', ports: [{ name: 'http', port: 80, targetPort: 3000 }], selector: { 'app.kubernetes.io/name': 'grafana' } },
    ],
    faults: {
      notReadyNodes: ['vmo-worker-2'],
      offlineStorageNodes: ['vmo-worker-2'],
      crashLooping: [
        {
          namespace: 'monitoring',
          workload: 'prometheus-operator-kube-state-metrics',
          message: 'failed to run kube-state-metrics: error creating the CRD store: open /etc/customresourcestate/config.yaml: no such file or directory',
        },
      ],
      leakedAddresses: [{ namespace: 'monitoring', name: 'grafana-external', ip: firstPoolAddress() }],
    },
  };
}

/** The pool's first address: what MetalLB handed the first auto-assigned service. */
function firstPoolAddress(): string {
  return labSite.loadBalancerPool.split('-')[0]!;
}
