/**
 * Builders for the built-in Kubernetes objects the world creates, shaped like a real apiserver's
 * answers (the fields `kubectl get -o json` shows and the tool's checks read).
 */
import type { KubeObject } from '../kube/types.js';

export function namespaceObject(name: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export type NodeReadiness = 'True' | 'False' | 'Unknown';

export interface NodeInput {
  name: string;
  controlPlane: boolean;
  ip: string;
  podCIDR: string;
  kubeletVersion: string;
  labels?: Record<string, string>;
  ready?: NodeReadiness;
  created: string;
  /** Its machine (default: a 64-core, 512 GiB worker; an 8-core, 32 GiB control plane). */
  capacity?: NodeCapacity;
}

export interface NodeCapacity {
  cores: number;
  /** Memory as the kernel reports it (a little under the DIMMs' size). */
  memoryKi: number;
}

/**
 * Allocatable = capacity minus what the kubelet keeps (kube-reserved/system-reserved, and the
 * eviction threshold): 200m CPU and 1Gi + 100Mi memory, as the real node in test/fixtures/real/node
 * shows (64 → 63800m; 527951216Ki → 526800240Ki).
 */
function allocatableOf(c: NodeCapacity): { cpu: string; memory: string } {
  return { cpu: `${c.cores * 1000 - 200}m`, memory: `${c.memoryKi - 1150976}Ki` };
}

export function nodeObject(n: NodeInput): KubeObject {
  const ready = n.ready ?? 'True';
  const taints = [
    ...(n.controlPlane ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] : []),
    ...(ready === 'True' ? [] : [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: n.created }]),
  ];
  const machine = n.capacity ?? (n.controlPlane ? { cores: 8, memoryKi: 32863868 } : { cores: 64, memoryKi: 527951216 });
  const roleLabels: Record<string, string> = n.controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : { 'node-role.kubernetes.io/worker': '' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': n.name,
        'kubernetes.io/os': 'linux',
        ...roleLabels,
        ...(n.controlPlane ? {} : { 'kubevirt.io/schedulable': 'true' }),
        ...n.labels,
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      providerID: `maas://${n.name}`,
      ...(taints.length > 0 ? { taints } : {}),
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: n.ip },
        { type: 'Hostname', address: n.name },
      ],
      capacity: { cpu: String(machine.cores), memory: `${machine.memoryKi}Ki`, pods: '110', 'devices.kubevirt.io/kvm': '1k' },
      allocatable: { ...allocatableOf(machine), pods: '110', 'devices.kubevirt.io/kvm': '1k' },
      conditions: nodeConditions(ready, n.created),
      nodeInfo: {
        architecture: 'amd64',
        bootID: '',
        containerRuntimeVersion: 'containerd://1.7.25',
        kernelVersion: '5.15.0-131-generic',
        kubeProxyVersion: n.kubeletVersion,
        kubeletVersion: n.kubeletVersion,
        machineID: '',
        operatingSystem: 'linux',
        osImage: 'Ubuntu 22.04.5 LTS',
        systemUUID: '',
      },
    },
  };
}

export function nodeConditions(ready: NodeReadiness, since: string): Array<Record<string, unknown>> {
  const unknown = ready === 'Unknown';
  const pressure = (type: string, reason: string, message: string) => ({
    type,
    status: unknown ? 'Unknown' : 'False',
    lastHeartbeatTime: since,
    lastTransitionTime: since,
    reason: unknown ? 'NodeStatusUnknown' : reason,
    message: unknown ? 'Kubelet stopped posting node status.' : message,
  });
  return [
    pressure('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    pressure('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    pressure('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    {
      type: 'Ready',
      status: ready,
      lastHeartbeatTime: since,
      lastTransitionTime: since,
      reason: ready === 'True' ? 'KubeletReady' : unknown ? 'NodeStatusUnknown' : 'KubeletNotReady',
      message: ready === 'True' ? 'kubelet is posting ready status' : unknown ? 'Kubelet stopped posting node status.' : 'container runtime network not ready: NetworkReady=false',
    },
  ];
}

/** The state a pod is in, as its status shows it. */
export type PodState =
  | { kind: 'running' }
  | { kind: 'notReady'; message: string }
  | { kind: 'pending'; reason: 'ContainerCreating' | 'Unschedulable' | 'PodInitializing'; message: string }
  | { kind: 'crashLoop'; message: string; exitCode: number; restarts: number }
  | { kind: 'succeeded' }
  | { kind: 'failed'; reason: string; message: string; exitCode: number };

export interface ContainerInput {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ containerPort: number; name?: string; protocol?: string }>;
  /** `resources` as the pod spec holds it (requests and limits: resource.Quantity strings). */
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface PodInput {
  namespace: string;
  name: string;
  node: string | undefined;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: { apiVersion: string; kind: string; name: string; uid?: string };
  containers: ContainerInput[];
  /** Run to completion before the containers (virt-handler's node labeller). */
  initContainers?: ContainerInput[];
  hostNetwork?: boolean;
  podIP?: string;
  hostIP?: string;
  priorityClassName?: string;
  serviceAccountName?: string;
  restartPolicy?: 'Always' | 'Never' | 'OnFailure';
  created: string;
  state: PodState;
  volumes?: Array<Record<string, unknown>>;
  nodeSelector?: Record<string, string>;
  /** Beyond the not-ready / unreachable ones every pod gets. */
  extraTolerations?: Array<Record<string, unknown>>;
}

export function podObject(p: PodInput): KubeObject {
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: p.labels,
      ...(p.annotations ? { annotations: p.annotations } : {}),
      ...(p.owner ? { ownerReferences: [{ ...p.owner, uid: p.owner.uid ?? '', controller: true, blockOwnerDeletion: true }] } : {}),
      creationTimestamp: p.created,
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      containers: p.containers.map((c) => ({ name: c.name, image: c.image, imagePullPolicy: 'IfNotPresent', ...(c.command ? { command: c.command } : {}), ...(c.args ? { args: c.args } : {}), ...(c.ports ? { ports: c.ports } : {}), ...(c.resources ? { resources: c.resources } : {}) })),
      ...(p.initContainers ? { initContainers: p.initContainers.map((c) => ({ name: c.name, image: c.image, imagePullPolicy: 'IfNotPresent', ...(c.command ? { command: c.command } : {}), ...(c.args ? { args: c.args } : {}) })) } : {}),
      restartPolicy: p.restartPolicy ?? 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: p.serviceAccountName ?? 'default',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: p.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: p.priorityClassName ? 2000000000 : 0,
      ...(p.priorityClassName ? { priorityClassName: p.priorityClassName } : {}),
      ...(p.hostNetwork ? { hostNetwork: true } : {}),
      ...(p.volumes ? { volumes: p.volumes } : {}),
      ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ...(p.extraTolerations ?? []),
      ],
    },
    status: {},
  };
  setPodState(pod, p.state, p.created, { podIP: p.podIP, hostIP: p.hostIP });
  return pod;
}

/** Rewrites a pod's status for a state (keeps IPs and start time). */
export function setPodState(pod: KubeObject, state: PodState, at: string, ips: { podIP?: string | undefined; hostIP?: string | undefined } = {}): void {
  const spec = pod.spec as { containers: Array<{ name: string; image: string }>; nodeName?: string };
  const prev = (pod.status ?? {}) as Record<string, unknown>;
  const podIP = ips.podIP ?? (prev.podIP as string | undefined);
  const hostIP = ips.hostIP ?? (prev.hostIP as string | undefined);
  const startTime = (prev.startTime as string | undefined) ?? at;
  const cond = (type: string, status: boolean, reason?: string, message?: string) => ({
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: at,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  const containerStatus = (c: { name: string; image: string }, s: Record<string, unknown>, ready: boolean, restarts: number) => ({
    name: c.name,
    image: c.image,
    imageID: `${c.image.split(':')[0]}@sha256:${hashOf(c.image)}`,
    containerID: `containerd://${hashOf(`${pod.metadata.name}/${c.name}/${restarts}`)}`,
    ready,
    started: ready,
    restartCount: restarts,
    state: s,
  });
  const base = { ...(hostIP ? { hostIP, hostIPs: [{ ip: hostIP }] } : {}), ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}), startTime, qosClass: 'Burstable' };
  switch (state.kind) {
    case 'running':
    case 'notReady': {
      const ready = state.kind === 'running';
      pod.status = {
        phase: 'Running',
        conditions: [cond('PodReadyToStartContainers', true), cond('Initialized', true), cond('Ready', ready, ready ? undefined : 'ContainersNotReady'), cond('ContainersReady', ready), cond('PodScheduled', true)],
        ...base,
        containerStatuses: spec.containers.map((c) => containerStatus(c, { running: { startedAt: startTime } }, ready, 0)),
      };
      break;
    }
    case 'pending': {
      const scheduled = state.reason !== 'Unschedulable';
      pod.status = {
        phase: 'Pending',
        conditions: scheduled
          ? [cond('PodReadyToStartContainers', false), cond('Initialized', true), cond('Ready', false, 'ContainersNotReady', `containers with unready status: [${spec.containers.map((c) => c.name).join(' ')}]`), cond('ContainersReady', false), cond('PodScheduled', true)]
          : [cond('PodScheduled', false, 'Unschedulable', state.message)],
        ...(scheduled ? base : { qosClass: 'Burstable' }),
        ...(scheduled ? { containerStatuses: spec.containers.map((c) => containerStatus(c, { waiting: { reason: state.reason, ...(state.reason === 'ContainerCreating' ? {} : { message: state.message }) } }, false, 0)) } : {}),
      };
      break;
    }
    case 'crashLoop': {
      pod.status = {
        phase: 'Running',
        conditions: [cond('PodReadyToStartContainers', true), cond('Initialized', true), cond('Ready', false, 'ContainersNotReady', `containers with unready status: [${spec.containers[0]?.name ?? ''}]`), cond('ContainersReady', false), cond('PodScheduled', true)],
        ...base,
        containerStatuses: spec.containers.map((c, i) =>
          i === 0
            ? {
                ...containerStatus(c, { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid ?? ''})` } }, false, state.restarts),
                lastState: { terminated: { exitCode: state.exitCode, reason: 'Error', message: state.message, startedAt: at, finishedAt: at } },
              }
            : containerStatus(c, { running: { startedAt: startTime } }, true, 0),
        ),
      };
      break;
    }
    case 'succeeded':
    case 'failed': {
      const ok = state.kind === 'succeeded';
      pod.status = {
        phase: ok ? 'Succeeded' : 'Failed',
        conditions: [cond('PodReadyToStartContainers', false), cond('Initialized', true), cond('Ready', false, ok ? 'PodCompleted' : 'PodFailed'), cond('ContainersReady', false, ok ? 'PodCompleted' : 'PodFailed'), cond('PodScheduled', true)],
        ...base,
        containerStatuses: spec.containers.map((c) =>
          containerStatus(
            c,
            {
              terminated: {
                exitCode: ok ? 0 : state.exitCode,
                reason: ok ? 'Completed' : state.reason,
                ...(ok ? {} : { message: state.message }),
                startedAt: startTime,
                finishedAt: at,
              },
            },
            false,
            0,
          ),
        ),
      };
      break;
    }
  }
  // Init containers (virt-handler's node labeller) ran to completion before the containers started.
  const inits = (pod.spec as { initContainers?: Array<{ name: string; image: string }> }).initContainers;
  if (inits?.length && pod.status) {
    pod.status.initContainerStatuses = inits.map((c) => ({
      ...containerStatus(c, { terminated: { exitCode: 0, reason: 'Completed', startedAt: startTime, finishedAt: startTime } }, true, 0),
      started: false,
    }));
  }
}


/** A short stable hex digest (image IDs, container IDs). */
export function hashOf(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 + text.charCodeAt(i), 2246822507) >>> 0;
  }
  const part = (n: number) => n.toString(16).padStart(8, '0');
  return (part(h1) + part(h2)).repeat(4);
}

export interface ServiceInput {
  namespace: string;
  name: string;
  type: 'ClusterIP' | 'LoadBalancer' | 'NodePort';
  clusterIP: string;
  ports: Array<{ name: string; port: number; targetPort: number | string; protocol?: string }>;
  selector: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  loadBalancerIP?: string;
  created: string;
}

export function serviceObject(s: ServiceInput): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: s.name, namespace: s.namespace, labels: s.labels ?? {}, ...(s.annotations ? { annotations: s.annotations } : {}), creationTimestamp: s.created },
    spec: {
      type: s.type,
      clusterIP: s.clusterIP,
      clusterIPs: [s.clusterIP],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      sessionAffinity: 'None',
      selector: s.selector,
      ports: s.ports.map((p, i) => ({
        name: p.name,
        port: p.port,
        protocol: p.protocol ?? 'TCP',
        targetPort: p.targetPort,
        ...(s.type === 'ClusterIP' ? {} : { nodePort: 30000 + ((hashNumber(`${s.namespace}/${s.name}`) + i) % 2700) }),
      })),
      ...(s.type === 'LoadBalancer' ? { externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true } : {}),
      ...(s.loadBalancerIP ? { loadBalancerIP: s.loadBalancerIP } : {}),
    },
    status: { loadBalancer: {} },
  };
}

function hashNumber(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) >>> 0;
  return h;
}

export interface DeploymentInput {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  replicas: number;
  containers: ContainerInput[];
  created: string;
}

export function deploymentObject(d: DeploymentInput): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: d.name, namespace: d.namespace, labels: d.labels, annotations: { 'deployment.kubernetes.io/revision': '1' }, generation: 1, creationTimestamp: d.created },
    spec: {
      replicas: d.replicas,
      selector: { matchLabels: d.labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: d.labels }, spec: { containers: d.containers.map((c) => ({ name: c.name, image: c.image })) } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: deploymentStatus(d.replicas, d.replicas, d.replicas, d.created, 1),
  };
}

export function deploymentStatus(replicas: number, ready: number, updated: number, at: string, generation: number): Record<string, unknown> {
  const available = ready >= Math.max(1, Math.ceil(replicas * 0.75)) || ready === replicas;
  return {
    observedGeneration: generation,
    replicas,
    updatedReplicas: updated,
    readyReplicas: ready,
    availableReplicas: ready,
    ...(ready < replicas ? { unavailableReplicas: replicas - ready } : {}),
    conditions: [
      {
        type: 'Available',
        status: available ? 'True' : 'False',
        lastUpdateTime: at,
        lastTransitionTime: at,
        reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
        message: available ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: at,
        lastTransitionTime: at,
        reason: updated === replicas && ready === replicas ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
        message: updated === replicas && ready === replicas ? 'ReplicaSet has successfully progressed.' : 'ReplicaSet is progressing.',
      },
    ],
  };
}
