/**
 * Room to move (issue 27): when a hop rebuilds nodes (Palette's repave), each node is drained in
 * turn and the VMs on it must be placed on the others. Pure: from each node's allocatable CPU and
 * memory, what its pods already request, and each leaving VM's request (its virt-launcher pod's),
 * says which drained nodes have VMs that fit nowhere.
 *
 * The placement is first-fit decreasing (largest memory first, then CPU), a fair approximation of
 * the scheduler for the question asked, "is there room at all": kube-scheduler scores feasible nodes
 * (spreading by default), so the nodes it picks differ, but a VM it can place fits under first-fit
 * decreasing too unless the cluster is packed to within one VM of full. Nodes are drained one at a
 * time in the order given (control plane first, as Palette rebuilds them); a drained node comes back
 * empty of the VMs that left it and takes VMs again, and a VM that found no room waits for its own
 * node to come back (its migration target or its restarted pod stays Pending).
 */

export interface CpuMemory {
  /** Millicores (`250m` = 250): whole numbers, so sums do not drift. */
  milliCpu: number;
  bytes: number;
}

export interface RoomNode {
  name: string;
  allocatable: CpuMemory;
  /** The sum of the requests of the pods bound to it (every pod not finished), VMs' launchers included. */
  requested: CpuMemory;
  labels: Readonly<Record<string, string>>;
  /** NoSchedule / NoExecute taints. */
  taints: ReadonlyArray<{ key: string; value?: string | undefined; effect: string }>;
  /** Why no pod is placed on it now (cordoned, NotReady); undefined when it takes pods. */
  closed?: string;
}

export interface Toleration {
  key?: string | undefined;
  operator?: string | undefined;
  value?: string | undefined;
  effect?: string | undefined;
}

export interface LeavingVm {
  vm: string;
  node: string;
  /** Its launcher pod's requests (the compute container holds the guest memory plus KubeVirt's overhead). */
  requests: CpuMemory;
  nodeSelector: Readonly<Record<string, string>>;
  tolerations: readonly Toleration[];
}

export interface NodeRoom {
  node: string;
  /** Running VMs that leave it when it drains. */
  leaving: number;
  /** Those that fit nowhere else while it is drained, largest first. */
  unplaced: Array<{ vm: string; requests: CpuMemory; why: string }>;
  /** Those whose node selector pins them to this node (a node-local disk): they wait for it whatever the room. */
  bound: string[];
}

const tolerates = (tolerations: readonly Toleration[], t: RoomNode['taints'][number]): boolean =>
  tolerations.some((x) => (x.effect === undefined || x.effect === '' || x.effect === t.effect) && (x.operator === 'Exists' ? x.key === undefined || x.key === '' || x.key === t.key : x.key === t.key && (x.value ?? '') === (t.value ?? '')));

/** Whether the VM may land on the node at all (ignoring room): open, selected, every hard taint tolerated. */
export function mayLand(vm: LeavingVm, node: RoomNode): boolean {
  if (node.closed !== undefined) return false;
  if (Object.entries(vm.nodeSelector).some(([k, v]) => node.labels[k] !== v)) return false;
  return node.taints.every((t) => (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') || tolerates(vm.tolerations, t));
}

const free = (n: RoomNode, used: Map<string, CpuMemory>): CpuMemory => {
  const u = used.get(n.name)!;
  return { milliCpu: n.allocatable.milliCpu - u.milliCpu, bytes: n.allocatable.bytes - u.bytes };
};

/** Why a VM fits nowhere: the most room any eligible node has left, in the VM's own terms. */
function whyNot(vm: LeavingVm, eligible: RoomNode[], used: Map<string, CpuMemory>): string {
  if (!eligible.length) return 'no other node may take it (cordoned, NotReady, tainted, or not matching its node selector)';
  const most = eligible.map((n) => free(n, used)).reduce((a, b) => ({ milliCpu: Math.max(a.milliCpu, b.milliCpu), bytes: Math.max(a.bytes, b.bytes) }));
  const short = [vm.requests.bytes > most.bytes ? 'memory' : '', vm.requests.milliCpu > most.milliCpu ? 'CPU' : ''].filter(Boolean).join(' and ');
  return `no node it may use has the ${short || 'memory and CPU together'} left`;
}

const bigFirst = (a: LeavingVm, b: LeavingVm) => b.requests.bytes - a.requests.bytes || b.requests.milliCpu - a.requests.milliCpu || (a.vm < b.vm ? -1 : 1);

export function roomToMove(nodes: readonly RoomNode[], vms: readonly LeavingVm[], order: readonly string[]): NodeRoom[] {
  const used = new Map(nodes.map((n) => [n.name, { ...n.requested }]));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  // Where each VM is now: it moves again when its new node drains later.
  const where = new Map<string, LeavingVm>(vms.map((v) => [v.vm, v]));
  const out: NodeRoom[] = [];
  for (const name of order) {
    const draining = byName.get(name);
    if (!draining) continue;
    const leaving = [...where.values()].filter((v) => v.node === name).sort(bigFirst);
    const u = used.get(name)!;
    for (const v of leaving) {
      u.milliCpu -= v.requests.milliCpu;
      u.bytes -= v.requests.bytes;
    }
    const unplaced: NodeRoom['unplaced'] = [];
    const bound: string[] = [];
    for (const v of leaving) {
      if (v.nodeSelector['kubernetes.io/hostname'] === name) {
        bound.push(v.vm);
        continue;
      }
      const eligible = nodes.filter((n) => n.name !== name && mayLand(v, n));
      const target = eligible.find((n) => {
        const f = free(n, used);
        return f.milliCpu >= v.requests.milliCpu && f.bytes >= v.requests.bytes;
      });
      if (!target) {
        unplaced.push({ vm: v.vm, requests: v.requests, why: whyNot(v, eligible, used) });
        continue;
      }
      const t = used.get(target.name)!;
      t.milliCpu += v.requests.milliCpu;
      t.bytes += v.requests.bytes;
      where.set(v.vm, { ...v, node: target.name });
    }
    // Back from its rebuild, the node takes the VMs that waited for it.
    for (const p of leaving.filter((v) => where.get(v.vm)!.node === name)) {
      u.milliCpu += p.requests.milliCpu;
      u.bytes += p.requests.bytes;
    }
    out.push({ node: name, leaving: leaving.length, unplaced, bound: bound.sort() });
  }
  return out;
}
