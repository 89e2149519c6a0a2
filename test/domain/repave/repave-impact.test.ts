/** What a node rebuild does to each node and VM (pure): control plane first, VMs that can move migrate, the others restart. */
import { describe, expect, it } from 'vitest';
import type { Node, Vmi } from '../../../src/kube/schemas.js';
import { packState } from '../../../src/palette/cluster-types.js';
import { downTwice, drainItems, drainLine, drainPlan } from '../../../src/domain/repave/repave-impact.js';

const node = (name: string, cp = false): Node => ({ metadata: { name, labels: cp ? { 'node-role.kubernetes.io/control-plane': '' } : { 'node-role.kubernetes.io/worker': '' } } });
const vmi = (ns: string, name: string, nodeName: string, migratable?: boolean, phase = 'Running'): Vmi => ({
  metadata: { name, namespace: ns },
  status: { phase, nodeName, ...(migratable === undefined ? {} : { conditions: [{ type: 'LiveMigratable', status: migratable ? 'True' : 'False', ...(migratable ? {} : { reason: 'DisksNotLiveMigratable' }) }] }) },
});

describe('drainPlan', () => {
  const nodes = [node('w-2'), node('cp-1', true), node('w-1')];

  it('orders control plane first, then workers by name; each running VM migrates or restarts', () => {
    const plan = drainPlan(nodes, [vmi('a', 'web', 'w-1', true), vmi('a', 'cache', 'w-1', false), vmi('b', 'db', 'w-2', true), vmi('b', 'off', 'w-2', true, 'Succeeded')]);
    expect(plan.map(drainLine)).toEqual(['cp-1 (control plane): no running VMs', 'w-1: a/cache restarts (downtime); a/web live-migrates', 'w-2: b/db live-migrates']);
    expect(drainItems([...plan, { node: 'w-3', controlPlane: false, vms: [] }])).toEqual(['cp-1, w-3: no running VMs', 'w-1: a/cache restarts (downtime); a/web live-migrates', 'w-2: b/db live-migrates']);
    expect(plan[1]?.vms[0]?.reason).toBe('shut down and started again (downtime): DisksNotLiveMigratable');
  });

  it('without a LiveMigratable condition, falls back on the plan’s VM impact', () => {
    const plan = drainPlan(nodes, [vmi('a', 'x', 'w-1'), vmi('a', 'y', 'w-1')], [
      { vm: 'a/x', fate: 'live-migrate', reason: 'live-migratable' },
      { vm: 'a/y', fate: 'restart', reason: 'cannot live-migrate (node-local disk)' },
    ]);
    expect(plan[1]?.vms.map((v) => `${v.vm} ${v.moves}`)).toEqual(['a/x migrates', 'a/y restarts']);
    expect(plan[1]?.vms[1]?.reason).toContain('node-local disk');
  });
});

describe('packState (as the terraform provider decides it)', () => {
  it.each([
    [{ type: 'Ready', status: 'True' }, 'ready'],
    [{ type: 'Ready', status: 'False' }, 'progressing'],
    [{ type: 'Progressing', status: 'True', reason: 'Deploying' }, 'progressing'],
    [{ type: 'Error', status: 'True', message: 'boom' }, 'error'],
    [undefined, 'progressing'],
  ] as const)('%o is %s', (condition, want) => {
    expect(packState(condition)).toBe(want);
  });
});

describe('downTwice', () => {
  const nodes = [node('w-1'), node('w-2')];
  const vmis = [vmi('a', 'cache', 'w-1', false), vmi('a', 'batch', 'w-2', false), vmi('a', 'web', 'w-2', true)];
  const impact = [
    { vm: 'a/cache', fate: 'restart' as const, reason: 'node-local disk' },
    { vm: 'a/batch', fate: 'evict' as const, reason: 'evicted by the workload updater' },
    { vm: 'a/web', fate: 'live-migrate' as const, reason: 'migrates' },
  ];

  it('names each VM the rebuild shuts down before KubeVirt has the new version, with what takes it down again', () => {
    expect(downTwice(drainPlan(nodes, vmis, impact), impact, false)).toEqual([
      { vm: 'a/cache', node: 'w-1', then: 'restarted for the new launcher (its own gate)' },
      { vm: 'a/batch', node: 'w-2', then: 'evicted by KubeVirt for the new launcher' },
    ]);
  });

  it('is empty once KubeVirt runs the new version: a VM restarted then comes back on the new launcher, once', () => {
    expect(downTwice(drainPlan(nodes, vmis, impact), impact, true)).toEqual([]);
  });
});
