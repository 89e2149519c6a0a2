/**
 * Small, readable objects for the Kubernetes API double's tests. The real world seeding (scenarios,
 * reconciliation) lives in src/lab/world; this only fills a store with what the tests look at.
 */
import type { ResourceStore } from '../../../src/lab/kube/store.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';

const T0 = '2025-01-01T00:00:00Z';

export function namespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
}

export function node(name: string, opts: { ready?: boolean; roles?: string[]; ip?: string } = {}): KubeObject {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' };
  for (const role of opts.roles ?? []) labels[`node-role.kubernetes.io/${role}`] = '';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { podCIDR: '10.244.0.0/24' },
    status: {
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', reason: 'KubeletReady', lastTransitionTime: T0 }],
      addresses: [
        { type: 'InternalIP', address: opts.ip ?? '10.10.0.1' },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: { kubeletVersion: 'v1.30.5', osImage: 'Ubuntu 22.04.4 LTS', kernelVersion: '5.15.0-105-generic', containerRuntimeVersion: 'containerd://1.7.13' },
    },
  };
}

export interface PodOptions {
  phase?: string;
  node?: string;
  labels?: Record<string, string>;
  containers?: string[];
  restarts?: number;
  waitingReason?: string;
  ip?: string;
}

function containerState(phase: string, running: boolean, waitingReason: string | undefined): Record<string, unknown> {
  if (waitingReason) return { waiting: { reason: waitingReason } };
  if (running) return { running: { startedAt: T0 } };
  if (phase === 'Pending') return { waiting: { reason: 'ContainerCreating' } };
  return { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, reason: phase === 'Succeeded' ? 'Completed' : 'Error' } };
}

export function pod(ns: string, name: string, opts: PodOptions = {}): KubeObject {
  const containers = opts.containers ?? ['main'];
  const phase = opts.phase ?? 'Running';
  const running = phase === 'Running' && !opts.waitingReason;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: opts.labels ?? { app: name.replace(/-[a-z0-9]{5}$/, '') } },
    spec: {
      nodeName: opts.node ?? 'node-1',
      restartPolicy: 'Always',
      serviceAccountName: 'default',
      containers: containers.map((c) => ({ name: c, image: `registry.example/${c}:v1.3.0`, resources: { requests: { cpu: '10m', memory: '64Mi' } } })),
    },
    status: {
      phase,
      podIP: opts.ip ?? '10.244.1.10',
      hostIP: '10.10.0.1',
      startTime: T0,
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: T0 },
        { type: 'Ready', status: running ? 'True' : 'False', lastTransitionTime: T0 },
      ],
      containerStatuses: containers.map((c) => ({
        name: c,
        image: `registry.example/${c}:v1.3.0`,
        ready: running,
        restartCount: opts.restarts ?? 0,
        state: containerState(phase, running, opts.waitingReason),
      })),
    },
  };
}

export function vmi(ns: string, name: string, opts: { phase?: string; node?: string; outdated?: boolean; ip?: string } = {}): KubeObject {
  const labels: Record<string, string> = { 'kubevirt.io/created-by': 'vm', 'vm.kubevirt.io/name': name };
  if (opts.outdated) labels['kubevirt.io/outdatedLauncherImage'] = '';
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { name, namespace: ns, labels },
    spec: { domain: { devices: {} } },
    status: {
      phase: opts.phase ?? 'Running',
      nodeName: opts.node ?? 'node-1',
      interfaces: [{ name: 'default', ipAddress: opts.ip ?? '10.244.2.7' }],
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'LiveMigratable', status: 'True' },
      ],
    },
  };
}

export function vm(ns: string, name: string, opts: { runStrategy?: string; status?: string } = {}): KubeObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name, namespace: ns },
    spec: { runStrategy: opts.runStrategy ?? 'Always', template: { spec: {} } },
    status: { printableStatus: opts.status ?? 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

export function vmim(ns: string, name: string, vmiName: string, phase = 'Running'): KubeObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstanceMigration',
    metadata: { name, namespace: ns, labels: { 'kubevirt.io/vmi-name': vmiName } },
    spec: { vmiName },
    status: { phase },
  };
}

export function service(ns: string, name: string, opts: { type?: string; lbIp?: string; ports?: Array<{ port: number; nodePort?: number }> } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns },
    spec: {
      type: opts.type ?? 'ClusterIP',
      clusterIP: '10.96.0.10',
      ports: (opts.ports ?? [{ port: 443 }]).map((p) => ({ protocol: 'TCP', ...p })),
      selector: { app: name },
    },
    status: { loadBalancer: opts.lbIp ? { ingress: [{ ip: opts.lbIp, ipMode: 'VIP' }] } : {} },
  };
}

/**
 * A small cluster: two nodes (one NotReady), KubeVirt with virt-handler pods, a crash-looping pod,
 * three VMIs (one outdated), their VMs, two migrations, a LoadBalancer service.
 */
export function seedSmallCluster(store: ResourceStore): void {
  for (const ns of ['default', 'kubevirt', 'vms', 'ingress']) store.upsert('namespaces', namespace(ns));
  store.upsert('nodes', node('node-1', { roles: ['control-plane'], ip: '10.10.0.1' }));
  store.upsert('nodes', node('node-2', { ready: false, ip: '10.10.0.2' }));
  store.upsert('pods', pod('kubevirt', 'virt-handler-7xk2p', { labels: { 'kubevirt.io': 'virt-handler' }, node: 'node-1', ip: '10.244.1.11' }));
  store.upsert('pods', pod('kubevirt', 'virt-handler-9qz4m', { labels: { 'kubevirt.io': 'virt-handler' }, node: 'node-2', ip: '10.244.2.11' }));
  store.upsert('pods', pod('kubevirt', 'virt-controller-5d7c9', { labels: { 'kubevirt.io': 'virt-controller' }, node: 'node-1' }));
  store.upsert('pods', pod('vms', 'virt-launcher-web-1-abcde', { labels: { 'kubevirt.io': 'virt-launcher' }, containers: ['compute', 'guest-console-log'], node: 'node-1' }));
  store.upsert('pods', pod('default', 'crasher-6f9b7', { waitingReason: 'CrashLoopBackOff', restarts: 7, node: 'node-2', phase: 'Running' }));
  store.upsert('pods', pod('default', 'pending-x1y2z', { phase: 'Pending', node: '' }));
  store.upsert('virtualmachines', vm('vms', 'web-1'));
  store.upsert('virtualmachines', vm('vms', 'db-1'));
  store.upsert('virtualmachines', vm('vms', 'halted-1', { runStrategy: 'Halted', status: 'Stopped' }));
  store.upsert('virtualmachineinstances', vmi('vms', 'web-1', { node: 'node-1', ip: '10.244.1.20' }));
  store.upsert('virtualmachineinstances', vmi('vms', 'db-1', { node: 'node-2', outdated: true, ip: '10.244.2.21' }));
  store.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-abcde', 'db-1', 'Running'));
  store.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-fghij', 'web-1', 'Failed'));
  store.upsert('services', service('ingress', 'ingress-nginx-controller', { type: 'LoadBalancer', lbIp: '192.168.10.50', ports: [{ port: 80, nodePort: 30080 }, { port: 443, nodePort: 30443 }] }));
  store.upsert('services', service('default', 'kubernetes'));
  store.upsert('kubevirts', {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: 'kubevirt' },
    spec: { workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'], batchEvictionSize: 10 } },
    status: { phase: 'Deployed', observedKubeVirtVersion: 'v1.3.0', targetKubeVirtVersion: 'v1.3.0' },
  });
  store.upsert('cdis', { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name: 'cdi' }, spec: {}, status: { phase: 'Deployed', observedVersion: 'v1.59.0' } });
  store.upsert('storageclusters', {
    apiVersion: 'core.libopenstorage.org/v1',
    kind: 'StorageCluster',
    metadata: { name: 'px-cluster', namespace: 'kube-system' },
    spec: {},
    status: { phase: 'Running', clusterUid: 'c0ffee-1234', version: '3.1.2' },
  });
  store.upsert('storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'px-block', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'pxd.portworx.com',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    allowVolumeExpansion: true,
  });
  store.upsert('network-attachment-definitions', {
    apiVersion: 'k8s.cni.cncf.io/v1',
    kind: 'NetworkAttachmentDefinition',
    metadata: { name: 'vlan-100', namespace: 'vms' },
    spec: { config: '{"cniVersion":"0.3.1","type":"bridge"}' },
  });
  store.upsert('deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'virt-api', namespace: 'kubevirt' },
    spec: { replicas: 2, selector: { matchLabels: { 'kubevirt.io': 'virt-api' } }, template: { spec: { containers: [{ name: 'virt-api', image: 'quay.io/kubevirt/virt-api:v1.3.0' }] } } },
    status: { readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2 },
  });
}

/** `count` pods spread over namespaces and nodes, every tenth one Pending: the `large` list. */
export function seedManyPods(store: ResourceStore, count: number): void {
  for (let i = 0; i < count; i += 1) {
    const ns = `tenant-${i % 50}`;
    store.upsert('pods', pod(ns, `app-${i}-x${(i % 97).toString(36)}k2`, { node: `node-${i % 500}`, phase: i % 10 === 0 ? 'Pending' : 'Running', labels: { app: `app-${i % 200}`, tier: i % 2 ? 'web' : 'db' } }));
  }
}
