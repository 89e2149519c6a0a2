/**
 * A skipped minor (spec 9.1.1, 9.1.3, 9.1.4): the `skip-minor` scenario's symptoms and its recovery
 * (cancel the stuck migration, restart the VM), and the same failure reproduced live by publishing
 * 4.6.3 straight over 4.4.10.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { outdatedLabel } from '../../../src/lab/world/kubevirt-objects.js';
import { createHarness, phaseOf, type Harness } from '../support/world-harness.js';

const min = 60_000;
const vmiKey = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
const logsOf = (h: Harness, ns: string, pod: string, container?: string) => h.world.kubeHooks.logs!(ns, pod, container ? { container } : {}) ?? '';

describe('skip-minor scenario', () => {
  let h: Harness;
  beforeAll(() => {
    h = createHarness('skip-minor');
  });
  afterAll(() => h.close());

  it('KubeVirt 1.4 runs while every running VMI is on the 1.2 launcher and labelled outdated', () => {
    const kv = h.get('kubevirts', 'kubevirt', 'kubevirt')!.status as Record<string, unknown>;
    expect(kv).toMatchObject({ phase: 'Deployed', observedKubeVirtVersion: 'v1.4.0', outdatedVirtualMachineInstanceWorkloads: 8 });
    const outdated = h.list('virtualmachineinstances', { labelSelector: outdatedLabel });
    expect(outdated).toHaveLength(8);
    for (const v of outdated) expect((v.status as { launcherContainerImageVersion: string }).launcherContainerImageVersion).toMatch(/virt-launcher:v1\.2\.0$/);
  });

  it('migrations failed with the closed-client-socket reason, and some hang in Running', () => {
    const migs = h.list('virtualmachineinstancemigrations');
    // The skipped minor's own failures (the week-old timeouts db-01 keeps are the cluster's past)
    const failed = migs.filter((m) => phaseOf(m) === 'Failed' && Date.parse(m.metadata.creationTimestamp!) > h.clock.now() - 24 * 3_600_000);
    const running = migs.filter((m) => phaseOf(m) === 'Running');
    expect(failed.length).toBeGreaterThanOrEqual(10);
    expect(running.map((m) => `${m.metadata.namespace}/${(m.spec as { vmiName: string }).vmiName}`).sort()).toEqual(['ns-edge/edge-gw-01', 'virtual-machines/web-02']);
    for (const m of failed) {
      expect((m.status as { migrationState: { failureReason: string } }).migrationState.failureReason).toContain('client socket is closed');
    }
    const db = h.get('virtualmachineinstances', 'virtual-machines', 'db-01')!;
    expect((db.status as { migrationState: Record<string, unknown> }).migrationState).toMatchObject({ completed: true, failed: true });
    expect(String((db.status as { migrationState: { failureReason: string } }).migrationState.failureReason)).toBe(
      "Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')",
    );
    const web02 = h.get('virtualmachineinstances', 'virtual-machines', 'web-02')!;
    const hanging = (web02.status as { migrationState: Record<string, unknown> }).migrationState;
    expect(hanging.startTimestamp).toBeDefined();
    // omitempty: an unfinished migration has neither `completed` nor `failed`
    expect(hanging).not.toHaveProperty('completed');
    expect(hanging).not.toHaveProperty('failed');
  });

  it('virt-handler logs the Unimplemented GetDomainDirtyRateStats error; launchers the missing network-info cache', () => {
    h.clock.advance(2 * min);
    const handlers = h.list('pods', { namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler' });
    const withError = handlers.filter((p) => logsOf(h, 'kubevirt', p.metadata.name).includes('code = Unimplemented desc = unknown method GetDomainDirtyRateStats'));
    expect(withError.length).toBeGreaterThan(0);
    const nodesWithVmis = new Set(h.list('virtualmachineinstances').map((v) => (v.status as { nodeName: string }).nodeName));
    for (const p of withError) expect(nodesWithVmis.has((p.spec as { nodeName: string }).nodeName)).toBe(true);

    const db = h.get('virtualmachineinstances', 'virtual-machines', 'db-01')!;
    const launcher = h.list('pods', { namespace: 'virtual-machines', labelSelector: 'vm.kubevirt.io/name=db-01', fieldSelector: 'status.phase=Running' })[0]!;
    const text = logsOf(h, 'virtual-machines', launcher.metadata.name, 'compute');
    expect(text).toContain(`/var/run/kubevirt-private/network-info-cache/${db.metadata.uid!}/`);
    expect(text).toContain('no such file or directory');
    expect(text).toContain('client socket is closed');
  });

  it('the workload updater keeps retrying, and every retry fails too', () => {
    h.clock.advance(10 * min);
    const migs = h.list('virtualmachineinstancemigrations');
    expect(migs.filter((m) => phaseOf(m) === 'Succeeded')).toHaveLength(0);
    expect(h.list('virtualmachineinstances', { labelSelector: outdatedLabel })).toHaveLength(8);
  });

  it('recovery: deleting edge-gw-01’s stuck migration cancels it: the finalizer holds it while the abort runs, then it goes', () => {
    const stuck = h.list('virtualmachineinstancemigrations').find((m) => phaseOf(m) === 'Running' && (m.spec as { vmiName: string }).vmiName === 'edge-gw-01')!;
    const node = (h.get('virtualmachineinstances', 'ns-edge', 'edge-gw-01')!.status as { nodeName: string }).nodeName;
    expect(h.delete('virtualmachineinstancemigrations', 'ns-edge', stuck.metadata.name)).toBe(200);
    const held = h.get('virtualmachineinstancemigrations', 'ns-edge', stuck.metadata.name)!;
    expect(held.metadata).toMatchObject({ deletionTimestamp: expect.any(String), deletionGracePeriodSeconds: 0, finalizers: ['kubevirt.io/migrationJobFinalize'] });
    expect((held.status as { conditions: unknown[] }).conditions).toContainEqual({ type: 'migrationAbortRequested', status: 'True', lastProbeTime: expect.any(String), lastTransitionTime: null });
    expect((h.get('virtualmachineinstances', 'ns-edge', 'edge-gw-01')!.status as { migrationState: Record<string, unknown> }).migrationState).toMatchObject({ abortRequested: true, abortStatus: 'Aborting' });
    expect(h.runUntil(() => h.get('virtualmachineinstancemigrations', 'ns-edge', stuck.metadata.name) === undefined, min, 1000)).toBe(true);
    const vmi = h.get('virtualmachineinstances', 'ns-edge', 'edge-gw-01')!;
    expect((vmi.status as { migrationState: Record<string, unknown> }).migrationState).toMatchObject({ abortRequested: true, abortStatus: 'Succeeded', completed: true, failed: true });
    expect((vmi.status as { nodeName: string }).nodeName).toBe(node);
    expect(vmi.metadata.labels?.[outdatedLabel]).toBe('');
    expect(h.list('pods', { namespace: 'ns-edge', labelSelector: 'vm.kubevirt.io/name=edge-gw-01' })).toHaveLength(1);
  });

  it('recovery: the abort of web-02’s stuck migration fails; it runs on, held by its finalizer, until the VM restarts', () => {
    const stuck = h.list('virtualmachineinstancemigrations').find((m) => phaseOf(m) === 'Running' && (m.spec as { vmiName: string }).vmiName === 'web-02')!;
    expect(h.delete('virtualmachineinstancemigrations', 'virtual-machines', stuck.metadata.name)).toBe(200);
    h.clock.advance(min);
    const held = h.get('virtualmachineinstancemigrations', 'virtual-machines', stuck.metadata.name)!;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(phaseOf(held)).toBe('Running');
    expect((held.status as { migrationState: Record<string, unknown> }).migrationState).toMatchObject({ abortRequested: true, abortStatus: 'Failed' });
    // Deleting it again changes nothing.
    expect(h.delete('virtualmachineinstancemigrations', 'virtual-machines', stuck.metadata.name)).toBe(200);
    expect(h.get('virtualmachineinstancemigrations', 'virtual-machines', stuck.metadata.name)!.metadata.deletionTimestamp).toBe(held.metadata.deletionTimestamp);
    (h as unknown as { heldMigration: string }).heldMigration = stuck.metadata.name;
  });

  it('recovery: a restart boots a new VMI on the current launcher, without the label', () => {
    const before = h.get('virtualmachineinstances', 'virtual-machines', 'web-02')!;
    expect(h.world.kubeHooks.subresource!({ resource: 'virtualmachines', namespace: 'virtual-machines', name: 'web-02', subresource: 'restart', method: 'PUT', body: {} })).toEqual({ status: 202 });
    h.clock.advance(10_000);
    expect((h.get('virtualmachines', 'virtual-machines', 'web-02')!.status as { printableStatus: string }).printableStatus).toBe('Stopping');
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'virtual-machines', 'web-02')) === 'Running' && h.get('virtualmachineinstances', 'virtual-machines', 'web-02')!.metadata.uid !== before.metadata.uid, 5 * min, 1000)).toBe(true);
    const after = h.get('virtualmachineinstances', 'virtual-machines', 'web-02')!;
    expect(after.metadata.creationTimestamp! > before.metadata.creationTimestamp!).toBe(true);
    expect(after.metadata.labels?.[outdatedLabel]).toBeUndefined();
    expect((after.status as { launcherContainerImageVersion: string }).launcherContainerImageVersion).toMatch(/virt-launcher:v1\.4\.0$/);
    expect((h.get('virtualmachines', 'virtual-machines', 'web-02')!.status as { printableStatus: string }).printableStatus).toBe('Running');
    // The VMI it was moving went away: the migration failed, its finalizer went, and the object with it.
    expect(h.get('virtualmachineinstancemigrations', 'virtual-machines', (h as unknown as { heldMigration: string }).heldMigration)).toBeUndefined();
  });

  it('recovery of every VM leaves no outdated VMI but the node-local one, which a restart fixes too', () => {
    for (const v of h.list('virtualmachineinstances', { labelSelector: outdatedLabel })) {
      for (const m of h.list('virtualmachineinstancemigrations', { namespace: v.metadata.namespace }).filter((x) => (x.spec as { vmiName: string }).vmiName === v.metadata.name && !['Succeeded', 'Failed'].includes(phaseOf(x)))) {
        h.delete('virtualmachineinstancemigrations', m.metadata.namespace!, m.metadata.name);
      }
      expect(h.world.kubeHooks.subresource!({ resource: 'virtualmachines', namespace: v.metadata.namespace, name: v.metadata.name, subresource: 'restart', method: 'PUT', body: {} })).toEqual({ status: 202 });
    }
    expect(h.runUntil(() => h.list('virtualmachineinstances').filter((v) => phaseOf(v) === 'Running').length === 8 && h.list('virtualmachineinstances', { labelSelector: outdatedLabel }).length === 0, 10 * min, 1000)).toBe(true);
    h.clock.advance(min);
    expect(h.list('virtualmachineinstancemigrations').filter((m) => ['Pending', 'Scheduling', 'Running'].includes(phaseOf(m)))).toHaveLength(0);
    expect((h.get('kubevirts', 'kubevirt', 'kubevirt')!.status as { outdatedVirtualMachineInstanceWorkloads: number }).outdatedVirtualMachineInstanceWorkloads).toBe(0);
    expect(h.list('virtualmachineinstances').map(vmiKey)).not.toContain('ns-adv/legacy-app-01');
  });
});

describe('a skipped minor reproduced live', () => {
  it('publishing 4.6.3 over 4.4.10 makes the workload-update migrations fail', () => {
    const h = createHarness('healthy');
    try {
      const publishedAt = new Date(h.clock.now() - 1000).toISOString();
      h.publishHop('4.6.3');
      expect(h.runUntil(() => h.list('virtualmachineinstancemigrations').filter((m) => phaseOf(m) === 'Failed' && m.metadata.creationTimestamp! >= publishedAt).length >= 3, 40 * min)).toBe(true);
      const failed = h.list('virtualmachineinstancemigrations').filter((m) => phaseOf(m) === 'Failed' && m.metadata.creationTimestamp! >= publishedAt);
      for (const m of failed) expect(JSON.stringify(m.status)).toContain('client socket is closed');
      expect(h.list('virtualmachineinstancemigrations').filter((m) => phaseOf(m) === 'Succeeded' && m.metadata.creationTimestamp! >= publishedAt)).toHaveLength(0);
      expect(h.list('virtualmachineinstances', { labelSelector: outdatedLabel })).toHaveLength(8);
    } finally {
      h.close();
    }
  });
});
