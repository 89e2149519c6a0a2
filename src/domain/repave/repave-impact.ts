/**
 * What a node rebuild (Palette's repave) does: nodes are drained and rebuilt one at a time, control
 * plane first, and every running VM on a node leaves it when it drains - by live migration when it
 * can (no downtime), otherwise shut down and started again (downtime; a VM bound to its node's disk
 * waits for the node to come back). Pure: from the nodes and VM instances read now and the plan's
 * VM impact (for the reason a VM cannot move).
 */
import type { Node, Vmi } from '../../kube/schemas.js';
import type { VmImpact } from '../impact/vm-impact.js';

export interface DrainedVm {
  vm: string;
  moves: 'migrates' | 'restarts';
  reason: string;
}

export interface NodeDrain {
  node: string;
  controlPlane: boolean;
  vms: DrainedVm[];
}

const key = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);
const isControlPlane = (n: Node) => Object.keys(n.metadata.labels ?? {}).some((l) => l === 'node-role.kubernetes.io/control-plane' || l === 'node-role.kubernetes.io/master');

export function drainPlan(nodes: Node[], vmis: Vmi[], impact: VmImpact[] = []): NodeDrain[] {
  const fate = new Map(impact.map((i) => [i.vm, i]));
  const byNode = new Map<string, DrainedVm[]>();
  for (const vmi of vmis) {
    const node = vmi.status?.nodeName;
    if (!node || vmi.status?.phase !== 'Running') continue;
    const name = key(vmi.metadata);
    const live = vmi.status?.conditions?.find((c) => c.type === 'LiveMigratable');
    const planned = fate.get(name);
    const migratable = live ? live.status === 'True' : planned?.fate === 'live-migrate';
    const why = live?.reason ?? live?.message ?? planned?.reason ?? 'it cannot live-migrate';
    const list = byNode.get(node) ?? [];
    list.push(migratable ? { vm: name, moves: 'migrates', reason: 'live-migrates to another node (no downtime)' } : { vm: name, moves: 'restarts', reason: `shut down and started again (downtime): ${why}` });
    byNode.set(node, list);
  }
  return nodes
    .map((n) => ({ node: n.metadata.name, controlPlane: isControlPlane(n), vms: (byNode.get(n.metadata.name) ?? []).sort((a, b) => (a.vm < b.vm ? -1 : 1)) }))
    .sort((a, b) => Number(b.controlPlane) - Number(a.controlPlane) || (a.node < b.node ? -1 : 1));
}

/** One line per node: the VMs that restart first (what costs downtime), then those that live-migrate. */
export function drainLine(d: NodeDrain): string {
  const restarts = d.vms.filter((v) => v.moves === 'restarts').map((v) => v.vm);
  const moves = d.vms.filter((v) => v.moves === 'migrates').map((v) => v.vm);
  const parts = [restarts.length ? `${restarts.join(', ')} restart${restarts.length > 1 ? '' : 's'} (downtime)` : '', moves.length ? `${moves.join(', ')} live-migrate${moves.length > 1 ? '' : 's'}` : ''].filter(Boolean);
  return `${d.node}${d.controlPlane ? ' (control plane)' : ''}: ${parts.join('; ') || 'no running VMs'}`;
}

/** The gate's items: nodes without running VMs folded into one line, the others one line each, in rebuild order. */
export function drainItems(nodes: NodeDrain[]): string[] {
  const empty = nodes.filter((n) => n.vms.length === 0);
  const busy = nodes.filter((n) => n.vms.length > 0);
  return [...(empty.length ? [`${empty.map((n) => n.node).join(', ')}: no running VMs`] : []), ...busy.map(drainLine)];
}

/**
 * VMs that go down twice: a node rebuilt before KubeVirt has reached the hop's version shuts them
 * down (they cannot live-migrate) and they come back on the old launcher, then the launcher update
 * takes them down again (the operator's restart, or KubeVirt's eviction). Empty once KubeVirt runs
 * the new version: a VM restarted then starts on the new launcher, once.
 */
export function downTwice(nodes: NodeDrain[], impact: VmImpact[], kubevirtUpdated: boolean): Array<{ vm: string; node: string; then: string }> {
  if (kubevirtUpdated) return [];
  const fate = new Map(impact.map((i) => [i.vm, i.fate]));
  return nodes.flatMap((n) =>
    n.vms
      .filter((v) => v.moves === 'restarts' && (fate.get(v.vm) === 'restart' || fate.get(v.vm) === 'evict'))
      .map((v) => ({ vm: v.vm, node: n.node, then: fate.get(v.vm) === 'restart' ? 'restarted for the new launcher (its own gate)' : 'evicted by KubeVirt for the new launcher' })),
  );
}
