/**
 * Room to move, from the objects the cluster serves (pure): each node's `status.allocatable` and
 * the requests of the pods bound to it, as the scheduler sums them (k8s.io/api core/v1: per pod the
 * sum of its containers' requests, at least its largest init container's, plus `spec.overhead`);
 * each running VM's request is its virt-launcher pod's (KubeVirt puts the guest memory plus its own
 * overhead and the vCPUs over `cpuAllocationRatio` on the `compute` container), with the pod's node
 * selector (`kubevirt.io/schedulable: "true"`) and tolerations.
 */
import type { Node, Pod, Vmi } from '../../kube/schemas.js';
import { memoryText, parseQuantity } from '../units/quantity.js';
import { drainPlan } from '../repave/repave-impact.js';
import { vmiMemoryBytes } from '../window/bandwidth.js';
import { roomToMove, type CpuMemory, type LeavingVm, type NodeRoom, type RoomNode } from './room.js';
import type { HopRoom } from '../window/types.js';

type PodSpec = NonNullable<Pod['spec']>;

const amount = (r: { cpu?: string | number | undefined; memory?: string | number | undefined } | undefined): CpuMemory => ({ milliCpu: Math.round((parseQuantity(r?.cpu) ?? 0) * 1000), bytes: parseQuantity(r?.memory) ?? 0 });

/** A pod's effective request, as kube-scheduler computes it. */
export function podRequests(spec: PodSpec | undefined): CpuMemory {
  const sum = (spec?.containers ?? []).map((c) => amount(c.resources?.requests)).reduce((a, b) => ({ milliCpu: a.milliCpu + b.milliCpu, bytes: a.bytes + b.bytes }), { milliCpu: 0, bytes: 0 });
  for (const init of spec?.initContainers ?? []) {
    const r = amount(init.resources?.requests);
    sum.milliCpu = Math.max(sum.milliCpu, r.milliCpu);
    sum.bytes = Math.max(sum.bytes, r.bytes);
  }
  const over = amount(spec?.overhead);
  return { milliCpu: sum.milliCpu + over.milliCpu, bytes: sum.bytes + over.bytes };
}

const finished = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

function closedWhy(n: Node): string | undefined {
  if (n.spec?.unschedulable) return 'cordoned';
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? undefined : 'NotReady';
}

export function roomNodes(nodes: readonly Node[], pods: readonly Pod[]): RoomNode[] {
  const requested = new Map<string, CpuMemory>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (!node || finished(p)) continue;
    const r = podRequests(p.spec);
    const u = requested.get(node) ?? { milliCpu: 0, bytes: 0 };
    requested.set(node, { milliCpu: u.milliCpu + r.milliCpu, bytes: u.bytes + r.bytes });
  }
  return nodes.map((n) => {
    const closed = closedWhy(n);
    return {
      name: n.metadata.name,
      allocatable: amount(n.status?.allocatable),
      requested: requested.get(n.metadata.name) ?? { milliCpu: 0, bytes: 0 },
      labels: n.metadata.labels ?? {},
      taints: n.spec?.taints ?? [],
      ...(closed ? { closed } : {}),
    };
  });
}

const key = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);

/** Running VMs with their launcher pod's requests; a VM whose launcher pod was not found counts its guest memory. */
export function leavingVms(vmis: readonly Vmi[], pods: readonly Pod[]): LeavingVm[] {
  const launchers = new Map<string, Pod>();
  for (const p of pods) {
    const domain = p.metadata.labels?.['kubevirt.io/domain'];
    if (p.metadata.labels?.['kubevirt.io'] !== 'virt-launcher' || !domain || finished(p)) continue;
    launchers.set(`${p.metadata.namespace ?? ''}/${domain}@${p.spec?.nodeName ?? ''}`, p);
  }
  const out: LeavingVm[] = [];
  for (const vmi of vmis) {
    const node = vmi.status?.nodeName;
    if (!node || vmi.status?.phase !== 'Running') continue;
    const pod = launchers.get(`${vmi.metadata.namespace ?? ''}/${vmi.metadata.name}@${node}`);
    out.push({
      vm: key(vmi.metadata),
      node,
      requests: pod ? podRequests(pod.spec) : { milliCpu: 0, bytes: vmiMemoryBytes(vmi) ?? 0 },
      nodeSelector: pod?.spec?.nodeSelector ?? {},
      tolerations: pod?.spec?.tolerations ?? [],
    });
  }
  return out;
}

const cpuText = (milli: number) => (milli % 1000 === 0 ? `${milli / 1000} CPU` : `${milli}m CPU`);
export const requestText = (r: CpuMemory): string => `${memoryText(r.bytes)}, ${cpuText(r.milliCpu)}`;

/** Pack layers whose change makes Palette rebuild nodes (a repave). */
export const rebuildingLayers: ReadonlySet<string> = new Set(['os', 'k8s']);

/** Every node drained in turn, in the order Palette rebuilds them (control plane first). */
export function planRoom(nodes: readonly Node[], pods: readonly Pod[], vmis: readonly Vmi[]): Omit<HopRoom, 'rebuilds'> {
  const order = drainPlan([...nodes], [...vmis]).map((d) => d.node);
  const result: NodeRoom[] = roomToMove(roomNodes(nodes, pods), leavingVms(vmis, pods), order);
  const tight = result.filter((r) => r.unplaced.length);
  const vms = result.reduce((a, r) => a + r.leaving, 0);
  const bound = result.reduce((a, r) => a + r.bound.length, 0);
  const basis = 'each node drained in turn (control plane first), its running VMs placed on the other open nodes by first-fit decreasing on allocatable minus the pods\' requests (memory and CPU), each VM\'s request its virt-launcher pod\'s; kube-scheduler spreads differently, but what fits under this fits for it too unless the cluster is within a VM of full';
  return {
    nodes: result.map((r) => ({
      node: r.node,
      leaving: r.leaving,
      unplaced: r.unplaced.map((u) => ({ vm: u.vm, cpu: u.requests.milliCpu / 1000, memoryBytes: u.requests.bytes, why: u.why })),
      ...(r.bound.length ? { boundToNode: r.bound } : {}),
    })),
    summary: tight.length
      ? `${tight.length} of ${result.length} node(s) have VMs that fit nowhere else while the node is rebuilt: ${tight.map((t) => `${t.node} (${t.unplaced.length} of ${t.leaving})`).join(', ')}`
      : `every one of the ${vms - bound} running VM(s) free to move fits on another node while its node is rebuilt${bound ? ` (${bound} bound to their node by a node selector wait for it)` : ''}`,
    basis,
  };
}
