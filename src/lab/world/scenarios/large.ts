/**
 * `large`: a big cluster for benchmarks: `--nodes` nodes (3 control plane, every 20th worker
 * compute-only), `--vms` VMs in namespaces of 100 (1% on node-local disks, one secure-boot VM in 100,
 * 2% Halted), ordinary application pods up to `--pods` in all, services in proportion, and a
 * history of succeeded migrations (one VM in 50). VMO 4.5.4 deployed, target 4.6.3.
 */
import type { VmDefinition } from '../kubevirt-objects.js';
import { smallNetworks, webFrontendService } from './small-cluster.js';
import { noFaults, type LabSizes, type NodePlan, type ScenarioSpec, type SeededMigration } from './types.js';

const day = 24 * 3_600_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export function largeScenario(sizes: LabSizes): ScenarioSpec {
  const nodeCount = Math.max(4, sizes.nodes);
  const nodes: NodePlan[] = [
    ...[1, 2, 3].map((i) => ({ name: `vmo-cp-${i}`, controlPlane: true, storage: true })),
    ...Array.from({ length: nodeCount - 3 }, (_, i) => ({ name: `vmo-worker-${pad(i + 1, 3)}`, controlPlane: false, storage: (i + 1) % 20 !== 0 })),
  ];
  const workers = nodes.filter((n) => !n.controlPlane);
  const oses: VmDefinition['os'][] = ['ubuntu', 'ubuntu', 'rhel', 'windows', 'fedora'];
  const vms: VmDefinition[] = Array.from({ length: sizes.vms }, (_, i) => {
    const ns = `vms-${pad(Math.floor(i / 100), 3)}`;
    const os = oses[i % oses.length]!;
    const localDisk = i % 100 === 37;
    return {
      namespace: ns,
      name: `vm-${pad(i, 5)}`,
      runStrategy: i % 50 === 49 ? 'Halted' : 'Always',
      cores: os === 'windows' ? 4 : 2,
      memoryGi: os === 'windows' ? 8 : 4,
      os,
      ...(i % 100 === 3 ? { secureBoot: true } : {}),
      ...(localDisk ? { localDisk: true, node: workers[i % workers.length]!.name } : {}),
      labels: { app: `app-${i % 40}` },
    };
  });
  const migrations: SeededMigration[] = vms
    .filter((v, i) => i % 50 === 10 && v.runStrategy === 'Always' && !v.localDisk)
    .map((v, i) => ({ namespace: v.namespace, vmi: v.name, state: 'Succeeded' as const, ageMs: (2 + (i % 20)) * day }));
  const vmNamespaces = [...new Set(vms.map((v) => v.namespace))];
  return {
    name: 'large',
    summary: `VMO 4.5.4 deployed, target 4.6.3, on a large cluster: ${nodeCount} nodes, ${sizes.vms} VMs, about ${sizes.pods} pods.`,
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    nodes,
    vms,
    networks: smallNetworks,
    migrations,
    skippedMinorMigrations: false,
    services: [
      webFrontendService,
      ...vmNamespaces.map((ns) => ({ namespace: ns, name: 'vm-ssh', type: 'ClusterIP' as const, ports: [{ name: 'ssh', port: 22, targetPort: 22 }], selector: { 'kubevirt.io': 'virt-launcher' } })),
    ],
    faults: noFaults(),
    totalPods: sizes.pods,
  };
}
