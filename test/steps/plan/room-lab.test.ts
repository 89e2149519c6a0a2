/**
 * Room to move against the lab (real sockets, the real kubectl): the `tight` scenario's hop moves
 * the Kubernetes pack, so every node is rebuilt; `plan` reads the nodes' allocatable and the pods'
 * requests and flags vmo-worker-1, whose 48 GiB VM fits on no other worker, in `--json` (the
 * report schema's shape) and in the text, while the other nodes' VMs fit and the VM on a
 * node-local disk waits for its node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import { RoomReport } from '../../../src/report/schema.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import { planOnLab } from './support/lab-plan.js';

describe('plan on the tight lab: room to move while the nodes are rebuilt', () => {
  let lab: LabHandle;
  const stateDir = mkdtempSync(join(tmpdir(), 'up27-room-'));
  beforeAll(async () => {
    lab = await startLab({ scenario: 'tight', stateDir, seed: 27, speed: 1 });
  });
  afterAll(async () => {
    await lab.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('--json flags vmo-worker-1 (analytics-01 fits nowhere else), in the report schema\'s shape', async () => {
    const { code, out } = await planOnLab(lab, ['--json']);
    expect(code).toBe(0);
    const p = JSON.parse(out) as PlanOutput;
    const room = p.hops[0]!.room!;
    expect(RoomReport.safeParse(room).error).toBeUndefined();
    expect(room.rebuilds).toEqual(['kubernetes']);
    const byNode = Object.fromEntries(room.nodes.map((n) => [n.node, n]));
    // Rebuilt control plane first; none holds a VM
    expect(room.nodes.map((n) => n.node)).toEqual(['vmo-cp-1', 'vmo-cp-2', 'vmo-cp-3', 'vmo-worker-1', 'vmo-worker-2', 'vmo-worker-3', 'vmo-worker-4']);
    expect(byNode['vmo-worker-1']).toMatchObject({ leaving: 2, unplaced: [{ vm: 'ns-product/analytics-01', cpu: 0.8, why: 'no node it may use has the memory left' }] });
    // 48 GiB guest plus KubeVirt's overhead, as its launcher pod requests it
    expect(byNode['vmo-worker-1']!.unplaced[0]!.memoryBytes).toBeGreaterThan(48 * 2 ** 30);
    for (const n of ['vmo-worker-2', 'vmo-worker-3']) expect(byNode[n]!.unplaced).toEqual([]);
    expect(byNode['vmo-worker-4']).toMatchObject({ unplaced: [], boundToNode: ['ns-packs/build-cache-01'] });
    expect(room.summary).toBe('1 of 7 node(s) have VMs that fit nowhere else while the node is rebuilt: vmo-worker-1 (1 of 2)');
  });

  it('the text says it under the hop, before anything is approved', async () => {
    const { code, out } = await planOnLab(lab, []);
    expect(code).toBe(0);
    expect(out).toContain('Nodes rebuilt (kubernetes changes): NOT ENOUGH ROOM: 1 of 7 node(s) have VMs that fit nowhere else');
    expect(out).toMatch(/vmo-worker-1: ns-product\/analytics-01 \(48\.\d GiB, 800m CPU\): no node it may use has the memory left; they wait for vmo-worker-1 to come back/);
  });
});
