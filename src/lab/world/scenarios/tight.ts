/**
 * `tight`: `repave` on a cluster without room to spare. The four workers are 16-core, 64 GiB
 * machines (the kernel reports a little under 64 GiB; the kubelet keeps 1Gi + 100Mi and 200m, as
 * the real node fixture shows), well filled. The hop moves Kubernetes 1.32.2 → 1.32.3, so every node
 * is drained and rebuilt in turn; ns-product/analytics-01 (48 GiB) fits on no other worker while
 * vmo-worker-1 drains: its migration's target pod would stay Pending until vmo-worker-1 is back.
 * Every other node's VMs find room (the control plane takes none: its NoSchedule taint, and no
 * `kubevirt.io/schedulable` label); ns-packs/build-cache-01 is pinned to vmo-worker-4 by its
 * node-local disk and waits for it.
 */
import type { NodeCapacity } from '../k8s-objects.js';
import type { VmDefinition } from '../kubevirt-objects.js';
import { pastMigrations, smallNetworks, vmSshServices, webFrontendService } from './small-cluster.js';
import { noFaults, type NodePlan, type ScenarioSpec } from './types.js';

/** A 64 GiB server as the kernel reports it (about 1.7% under, as the real 512 GiB node is). */
const worker64: NodeCapacity = { cores: 16, memoryKi: 65967132 };

const nodes: NodePlan[] = [
  { name: 'vmo-cp-1', controlPlane: true, storage: true },
  { name: 'vmo-cp-2', controlPlane: true, storage: true },
  { name: 'vmo-cp-3', controlPlane: true, storage: true },
  ...[1, 2, 3, 4].map((i) => ({ name: `vmo-worker-${i}`, controlPlane: false, storage: i !== 4, capacity: worker64 })),
];

const vm = (namespace: string, name: string, cores: number, memoryGi: number, node: string, labels: Record<string, string>, extra: Partial<VmDefinition> = {}): VmDefinition => ({
  namespace,
  name,
  runStrategy: 'Always',
  cores,
  memoryGi,
  os: 'ubuntu',
  node,
  labels,
  ...extra,
});

const vms: VmDefinition[] = [
  vm('ns-product', 'analytics-01', 8, 48, 'vmo-worker-1', { app: 'analytics' }, { os: 'rhel' }),
  vm('ns-product', 'analytics-02', 4, 8, 'vmo-worker-1', { app: 'analytics' }),
  vm('virtual-machines', 'db-01', 8, 32, 'vmo-worker-2', { app: 'db' }, { os: 'rhel' }),
  ...[1, 2, 3, 4].map((i) => vm('virtual-machines', `web-0${i}`, 2, 4, 'vmo-worker-2', { app: 'web' }, { networks: ['virtual-machines/vlan-128'] })),
  vm('ns-product', 'api-01', 4, 8, 'vmo-worker-3', { app: 'api' }),
  vm('ns-product', 'api-02', 4, 8, 'vmo-worker-3', { app: 'api' }),
  vm('ns-product', 'reports-01', 8, 24, 'vmo-worker-3', { app: 'reports' }),
  vm('ns-edge', 'edge-gw-01', 2, 2, 'vmo-worker-4', { app: 'edge-gateway' }, { os: 'fedora', networks: ['ns-edge/vlan-129'] }),
  vm('ns-packs', 'ci-runner-01', 4, 8, 'vmo-worker-4', { app: 'ci' }),
  vm('ns-packs', 'build-cache-01', 4, 8, 'vmo-worker-4', { app: 'build-cache' }, { localDisk: true }),
];

export function tightScenario(): ScenarioSpec {
  return {
    name: 'tight',
    summary: `VMO 4.5.4 deployed, target 4.6.3: one hop whose infra profile also moves Kubernetes 1.32.2 → 1.32.3, so every node is rebuilt, on four well-filled 64 GiB workers: ns-product/analytics-01 (48 GiB) fits on no other node while vmo-worker-1 drains.`,
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    referenceTags: { '4.6.3': { kubernetes: '1.32.3' } },
    nodes,
    vms,
    networks: smallNetworks,
    migrations: pastMigrations,
    skippedMinorMigrations: false,
    services: [webFrontendService, ...vmSshServices],
    faults: noFaults(),
  };
}
