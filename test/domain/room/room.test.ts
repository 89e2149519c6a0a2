/**
 * Room to move (pure): where a drained node's VMs can go, by first-fit decreasing over the other
 * nodes' allocatable minus requests, respecting cordons, NotReady, taints and node selectors; and a
 * pod's request as the scheduler sums it. The objects are shaped as the real ones (test/fixtures/real).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NodeSchema, PodSchema } from '../../../src/kube/schemas.js';
import { roomToMove, type LeavingVm, type RoomNode } from '../../../src/domain/room/room.js';
import { leavingVms, podRequests, roomNodes } from '../../../src/domain/room/cluster-room.js';
import { roomLines } from '../../../src/domain/window/render.js';
import { windowGateLines } from '../../../src/domain/window/gate-lines.js';

const Gi = 2 ** 30;
const node = (name: string, freeGi: number, extra: Partial<RoomNode> = {}): RoomNode => ({
  name,
  allocatable: { milliCpu: 16000, bytes: 64 * Gi },
  requested: { milliCpu: 0, bytes: (64 - freeGi) * Gi },
  labels: { 'kubevirt.io/schedulable': 'true' },
  taints: [],
  ...extra,
});
const vm = (name: string, on: string, gi: number, extra: Partial<LeavingVm> = {}): LeavingVm => ({
  vm: name,
  node: on,
  requests: { milliCpu: 1000, bytes: gi * Gi },
  nodeSelector: { 'kubevirt.io/schedulable': 'true' },
  tolerations: [],
  ...extra,
});
const unplacedOf = (nodes: RoomNode[], vms: LeavingVm[], order = nodes.map((n) => n.name)) =>
  Object.fromEntries(roomToMove(nodes, vms, order).map((r) => [r.node, r.unplaced.map((u) => u.vm)]));

describe('roomToMove', () => {
  const cases: Array<{ name: string; nodes: RoomNode[]; vms: LeavingVm[]; want: Record<string, string[]> }> = [
    {
      name: 'a VM larger than any other node has free is flagged; the smaller one finds room',
      nodes: [node('a', 4), node('b', 10), node('c', 20)],
      vms: [vm('big', 'a', 30), vm('small', 'a', 8)],
      want: { a: ['big'], b: [], c: [] },
    },
    {
      name: 'decreasing order: the big VM takes the room first, the two small ones fit beside it',
      nodes: [node('a', 0), node('b', 20), node('c', 8)],
      vms: [vm('s1', 'a', 6), vm('big', 'a', 14), vm('s2', 'a', 6)],
      want: { a: [], b: [], c: [] },
    },
    {
      name: 'a cordoned node and a NotReady node take nothing',
      nodes: [node('a', 0), node('b', 40, { closed: 'cordoned' }), node('c', 40, { closed: 'NotReady' })],
      vms: [vm('x', 'a', 2)],
      want: { a: ['x'], b: [], c: [] },
    },
    {
      name: "the control plane's NoSchedule taint keeps VMs off; a toleration lets them on",
      nodes: [node('a', 0), node('cp', 40, { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] })],
      vms: [vm('x', 'a', 2), vm('y', 'a', 2, { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] })],
      want: { a: ['x'], cp: [] },
    },
    {
      name: 'a node without the label of the pod\'s node selector takes nothing',
      nodes: [node('a', 0), node('b', 40, { labels: {} })],
      vms: [vm('x', 'a', 2)],
      want: { a: ['x'], b: [] },
    },
    {
      name: 'CPU counts as much as memory',
      nodes: [node('a', 0), node('b', 40, { requested: { milliCpu: 15500, bytes: 24 * Gi } })],
      vms: [vm('x', 'a', 2, { requests: { milliCpu: 1000, bytes: 2 * Gi } })],
      want: { a: ['x'], b: [] },
    },
    {
      name: 'in turn: VMs that moved to b move again when b drains, and a (rebuilt, empty) takes them',
      nodes: [node('a', 48), node('b', 20)],
      vms: [vm('x', 'a', 16), vm('y', 'b', 40)],
      want: { a: [], b: [] },
    },
    {
      name: 'a VM that waited for its node lands back there and leaves no room for the next drain',
      nodes: [node('a', 0), node('b', 10)],
      vms: [vm('x', 'a', 40), vm('y', 'b', 50)],
      want: { a: ['x'], b: ['y'] },
    },
  ];
  it.each(cases)('$name', ({ nodes, vms, want }) => {
    expect(unplacedOf(nodes, vms)).toEqual(want);
  });

  it('a VM pinned to its node (node-local disk) waits for it and is not a room problem', () => {
    const [a] = roomToMove([node('a', 0), node('b', 1)], [vm('pinned', 'a', 8, { nodeSelector: { 'kubernetes.io/hostname': 'a' } })], ['a', 'b']);
    expect(a).toEqual({ node: 'a', leaving: 1, unplaced: [], bound: ['pinned'] });
  });

  it('says what is short', () => {
    const [a] = roomToMove([node('a', 0), node('b', 10, { requested: { milliCpu: 15900, bytes: 54 * Gi } })], [vm('m', 'a', 20, { requests: { milliCpu: 100, bytes: 20 * Gi } }), vm('c', 'a', 1, { requests: { milliCpu: 1000, bytes: Gi } })], ['a']);
    expect(a!.unplaced).toEqual([
      { vm: 'm', requests: { milliCpu: 100, bytes: 20 * Gi }, why: 'no node it may use has the memory left' },
      { vm: 'c', requests: { milliCpu: 1000, bytes: Gi }, why: 'no node it may use has the CPU left' },
    ]);
  });
});

describe('requests and nodes as the real objects have them', () => {
  const real = (path: string) => parse(readFileSync(new URL(`../../fixtures/real/${path}`, import.meta.url), 'utf8')) as unknown;

  it("the copied virt-launcher pod requests its compute container's 1266Mi and 100m", () => {
    const pod = PodSchema.parse(real('pod/virt-launcher-fedora02.yaml'));
    expect(podRequests(pod.spec)).toEqual({ milliCpu: 100, bytes: 1266 * 2 ** 20 });
    const vms = leavingVms([{ metadata: { name: 'fedora02', namespace: 'default' }, status: { phase: 'Running', nodeName: pod.spec!.nodeName! } }], [pod]);
    expect(vms).toEqual([{ vm: 'default/fedora02', node: pod.spec!.nodeName, requests: { milliCpu: 100, bytes: 1266 * 2 ** 20 }, nodeSelector: { 'kubevirt.io/schedulable': 'true' }, tolerations: expect.arrayContaining([expect.objectContaining({ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' })]) }]);
  });

  it('init containers count as their largest, overhead on top; finished pods count for nothing', () => {
    const q = (cpu: string, memory: string) => ({ resources: { requests: { cpu, memory } } });
    expect(podRequests({ containers: [q('100m', '1Gi'), q('50m', '1Gi')], initContainers: [q('1', '512Mi')], overhead: { cpu: '250m', memory: '120Mi' } })).toEqual({ milliCpu: 1250, bytes: 2 * Gi + 120 * 2 ** 20 });
    const n = NodeSchema.parse(real('node/ready.yaml'));
    const running = PodSchema.parse({ metadata: { name: 'p' }, spec: { nodeName: n.metadata.name, containers: [q('1', '1Gi')] }, status: { phase: 'Running' } });
    const done = PodSchema.parse({ metadata: { name: 'q' }, spec: { nodeName: n.metadata.name, containers: [q('1', '1Gi')] }, status: { phase: 'Succeeded' } });
    const [r] = roomNodes([n], [running, done]);
    expect(r).toMatchObject({ allocatable: { milliCpu: 63800, bytes: 526800240 * 1024 }, requested: { milliCpu: 1000, bytes: Gi } });
    expect(r!.closed).toBeUndefined();
  });

  it('the cordoned and the NotReady real nodes are closed', () => {
    expect(roomNodes([NodeSchema.parse(real('node/cordoned.yaml')), NodeSchema.parse(real('node/not-ready.yaml'))], []).map((n) => n.closed)).toEqual(['cordoned', 'NotReady']);
  });
});

describe('what the plan and the publish/apply gate say', () => {
  const room = {
    rebuilds: ['kubernetes'],
    nodes: [
      { node: 'w1', leaving: 2, unplaced: [{ vm: 'ns/big', cpu: 0.8, memoryBytes: 48.5 * Gi, why: 'no node it may use has the memory left' }] },
      { node: 'w2', leaving: 3, unplaced: [] },
    ],
    summary: '1 of 2 node(s) have VMs that fit nowhere else while the node is rebuilt: w1 (1 of 2)',
    basis: 'first-fit decreasing',
  };
  const eta = { p50Seconds: 600, p90Seconds: 900, parts: [], summary: 'about 10m-15m: 5 VM(s) migrate, 5 at a time' };

  it('the plan names the node, the VM, its request and what to do', () => {
    expect(roomLines(room)).toEqual([
      '  Nodes rebuilt (kubernetes changes): NOT ENOUGH ROOM: 1 of 2 node(s) have VMs that fit nowhere else while the node is rebuilt: w1 (1 of 2).',
      '    w1: ns/big (48.5 GiB, 800m CPU): no node it may use has the memory left; they wait for w1 to come back (a migration\'s target pod or a restarted VM stays Pending, the drain may time out)',
      '    What to do: make room first (stop VMs that can wait, add a node, lower requests), or approve knowing these VMs wait for their own node.',
    ]);
    expect(roomLines({ ...room, nodes: [room.nodes[1]!], summary: 'every one of the 3 running VM(s) free to move fits on another node while its node is rebuilt' })).toEqual([
      '  Nodes rebuilt (kubernetes changes): every one of the 3 running VM(s) free to move fits on another node while its node is rebuilt.',
    ]);
  });

  it('the gate that sets the hop in motion says it too; nothing when every VM fits', () => {
    const hop = { index: 1, from: '4.5.4', to: '4.6.3', profiles: [], eta, room };
    expect(windowGateLines(hop, [])).toEqual(['This hop takes about 10m-15m: 5 VM(s) migrate, 5 at a time.', 'Nodes are rebuilt, and VMs on 1 node(s) fit nowhere else while it drains: w1 (1 of 2) (see the plan).']);
    expect(windowGateLines({ ...hop, room: { ...room, nodes: [room.nodes[1]!] } }, [])).toHaveLength(1);
  });
});
