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

/** Whether the VM's request fits what the node has left (no object made: this runs for every node a VM passes). */
const fits = (n: RoomNode, u: CpuMemory, r: CpuMemory): boolean => n.allocatable.milliCpu - u.milliCpu >= r.milliCpu && n.allocatable.bytes - u.bytes >= r.bytes;

/** Why a VM fits nowhere: the most room any eligible node has left, in the VM's own terms. */
function whyNot(vm: LeavingVm, eligible: RoomNode[], used: Map<string, CpuMemory>): string {
  if (!eligible.length) return 'no other node may take it (cordoned, NotReady, tainted, or not matching its node selector)';
  const most = eligible.map((n) => free(n, used)).reduce((a, b) => ({ milliCpu: Math.max(a.milliCpu, b.milliCpu), bytes: Math.max(a.bytes, b.bytes) }));
  const short = [vm.requests.bytes > most.bytes ? 'memory' : '', vm.requests.milliCpu > most.milliCpu ? 'CPU' : ''].filter(Boolean).join(' and ');
  return `no node it may use has the ${short || 'memory and CPU together'} left`;
}

const bigFirst = (a: LeavingVm, b: LeavingVm) => b.requests.bytes - a.requests.bytes || b.requests.milliCpu - a.requests.milliCpu || (a.vm < b.vm ? -1 : 1);

/**
 * The nodes a VM may land on at all (mayLand), in node order: the same for every VM with the same
 * node selector and tolerations (nearly all of a cluster's VMs), so worked out once per such set.
 */
function eligibility(nodes: readonly RoomNode[]): (vm: LeavingVm) => RoomNode[] {
  const bySet = new Map<string, RoomNode[]>();
  return (vm) => {
    const key = JSON.stringify([vm.nodeSelector, vm.tolerations]);
    let list = bySet.get(key);
    if (!list) bySet.set(key, (list = nodes.filter((n) => mayLand(vm, n))));
    return list;
  };
}

export function roomToMove(nodes: readonly RoomNode[], vms: readonly LeavingVm[], order: readonly string[]): NodeRoom[] {
  const used = new Map(nodes.map((n) => [n.name, { ...n.requested }]));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  // Where each VM is now: it moves again when its new node drains later; and the VMs on each node.
  const where = new Map<string, LeavingVm>(vms.map((v) => [v.vm, v]));
  const onNode = new Map<string, Set<string>>();
  const put = (vm: string, node: string) => {
    let set = onNode.get(node);
    if (!set) onNode.set(node, (set = new Set()));
    set.add(vm);
  };
  for (const v of vms) put(v.vm, v.node);
  const eligibleFor = eligibility(nodes);
  const out: NodeRoom[] = [];
  for (const name of order) {
    const draining = byName.get(name);
    if (!draining) continue;
    const leaving = [...(onNode.get(name) ?? [])].map((vm) => where.get(vm)!).sort(bigFirst);
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
      // First fit: the first eligible node (other than the one draining) with room.
      const eligible = eligibleFor(v);
      const target = eligible.find((n) => n !== draining && fits(n, used.get(n.name)!, v.requests));
      if (!target) {
        unplaced.push({ vm: v.vm, requests: v.requests, why: whyNot(v, eligible.filter((n) => n !== draining), used) });
        continue;
      }
      const t = used.get(target.name)!;
      t.milliCpu += v.requests.milliCpu;
      t.bytes += v.requests.bytes;
      where.set(v.vm, { ...v, node: target.name });
      onNode.get(name)!.delete(v.vm);
      put(v.vm, target.name);
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
