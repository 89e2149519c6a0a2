import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceStore } from '../../../src/lab/kube/store.js';
import type { DiagnoseOutput } from '../../../src/steps/migrations/diagnose-types.js';
import { startFakeKubevirt, type FakeKubevirt } from './support/fake-kubevirt.js';
import { closedSocket, dirtyRateLine, handlerPod, kubevirt, launcherPod, networkCacheLine, vmi, vmim } from './support/objects.js';
import { migrationRun, runbookYaml } from './support/run.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const steps = `  - { id: migrations, kind: migrations, with: { interval: 50ms } }
  - { id: diagnose, kind: diagnose, with: { handlerLogTail: 50, launcherLogTail: 20 } }`;

function skippedMinorCluster(s: ResourceStore, logs: Map<string, string>): void {
  s.upsert('kubevirts', kubevirt('v1.4.0'));
  const vmis = [
    ['web-01', 'node-1', 'uid-web-01'],
    ['web-02', 'node-3', 'uid-web-02'],
    ['db-01', 'node-4', 'uid-db-01'],
  ] as const;
  for (const [name, node, uid] of vmis) {
    s.upsert('virtualmachineinstances', vmi('vms', name, { node, uid }));
    s.upsert('pods', launcherPod('vms', name, uid, node));
  }
  // Two virt-handler pods hold a second container: a read that named none would be refused (400).
  for (const n of ['node-2', 'node-4', 'node-5']) s.upsert('pods', handlerPod(n));
  s.upsert('pods', handlerPod('node-1', 'virt-launcher-image-holder'));
  s.upsert('pods', handlerPod('node-3', 'pr-helper'));
  for (const age of [40, 10]) s.upsert('virtualmachineinstancemigrations', vmim('vms', `kubevirt-workload-update-w1${age}`, 'web-01', { phase: 'Failed', ageMs: age * 60_000, reason: closedSocket, source: 'node-1', target: 'node-2' }));
  s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-w2', 'web-02', { phase: 'Running', runningForMs: 40 * 60_000, source: 'node-3', target: 'node-2' }));
  for (const age of [30, 5]) s.upsert('virtualmachineinstancemigrations', vmim('vms', `kubevirt-workload-update-d${age}`, 'db-01', { phase: 'Failed', ageMs: age * 60_000, reason: 'migration timed out: no progress for 150s', source: 'node-4', target: 'node-2' }));
  const info = '{"component":"virt-handler","level":"info","msg":"STARTING informer"}';
  logs.set('kubevirt/virt-handler-node-1/virt-handler', [info, dirtyRateLine('vms', 'web-01'), dirtyRateLine('vms', 'web-01')].join('\n'));
  logs.set('kubevirt/virt-handler-node-3/virt-handler', [info, dirtyRateLine('vms', 'web-02')].join('\n'));
  // A node no failing migration touched: its log must not be read.
  logs.set('kubevirt/virt-handler-node-5/virt-handler', dirtyRateLine('other', 'elsewhere'));
  logs.set('vms/virt-launcher-web-01-abcde/compute', networkCacheLine('vms', 'web-01', 'uid-web-01'));
  logs.set('vms/virt-launcher-web-02-abcde/compute', networkCacheLine('vms', 'web-02', 'uid-web-02'));
}

describe('diagnose (Kubernetes double, real kubectl)', () => {
  it('names the issue and cites the three symptoms with where each line came from; an unexplained failure is shown raw', async () => {
    let logs = new Map<string, string>();
    fake = await startFakeKubevirt((s) => skippedMinorCluster(s, logs));
    for (const [k, v] of logs) fake.logs.set(k, v);
    logs = fake.logs;
    const run = migrationRun(fake.lab.kubeconfig, runbookYaml(steps));
    expect((await run.run()).status).toBe('done');
    const step = run.step('diagnose');
    const out = step.output as DiagnoseOutput;
    expect(out.headline).toBe('Known issue: launcher incompatible after a skipped minor (3 of 3 symptom(s) found); 1 other failure reason(s) unexplained');
    expect(step.summary).toBe(out.headline);
    const [finding] = out.findings;
    expect(finding!.confirmed).toBe(true);
    expect(finding!.signatures.map((s) => `${s.id} ${s.matches}`)).toEqual(['closed-client-socket 2', 'dirty-rate-unimplemented 3', 'network-info-cache-missing 2']);
    expect(finding!.evidence.map((e) => `${e.signature} ← ${e.source}`)).toEqual([
      'closed-client-socket ← migration vms/kubevirt-workload-update-w140 (VMI vms/web-01)',
      'closed-client-socket ← migration vms/kubevirt-workload-update-w110 (VMI vms/web-01)',
      'dirty-rate-unimplemented ← virt-handler kubevirt/virt-handler-node-1 on node-1 (last 50 lines)',
      'dirty-rate-unimplemented ← virt-handler kubevirt/virt-handler-node-3 on node-3 (last 50 lines)',
      'network-info-cache-missing ← virt-launcher vms/virt-launcher-web-01-abcde (VMI vms/web-01, last 20 lines)',
      'network-info-cache-missing ← virt-launcher vms/virt-launcher-web-02-abcde (VMI vms/web-02, last 20 lines)',
    ]);
    expect(finding!.evidence[2]!.line).toContain('code = Unimplemented desc = unknown method GetDomainDirtyRateStats');
    expect(finding!.recovery[1]).toMatch(/^Cancel each stuck migration/);
    expect(out.unknown).toEqual([{ reason: 'migration timed out: no progress for 150s', count: 2, vmis: ['vms/db-01'] }]);
    expect(out.stuck).toEqual([{ migration: 'vms/kubevirt-workload-update-w2', vmi: 'vms/web-02', ageMs: expect.any(Number) }]);
    // Only the virt-handlers on the nodes the failing migrations touched were read.
    expect(out.read.handlerPods).toEqual(['kubevirt/virt-handler-node-1', 'kubevirt/virt-handler-node-2', 'kubevirt/virt-handler-node-3', 'kubevirt/virt-handler-node-4']);
    expect(out.affectedNodes).toEqual(['node-2', 'node-1', 'node-4', 'node-3']);
    const logReads = run.calls.filter((c) => c.args.some((a) => a.includes('/log?')));
    expect(logReads.every((c) => c.args.some((a) => /tailLines=(50|20)/.test(a)))).toBe(true);
    // Each read named the container that logs: virt-handler's own, the launcher's compute.
    const logPaths = logReads.map((c) => c.args.find((a) => a.includes('/log?'))!);
    expect(logPaths.filter((p) => p.includes('/pods/virt-handler-')).every((p) => /[?&]container=virt-handler(&|$)/.test(p))).toBe(true);
    expect(logPaths.filter((p) => p.includes('/pods/virt-launcher-')).every((p) => /[?&]container=compute(&|$)/.test(p))).toBe(true);
    expect(out.read.unreadable).toEqual([]);
    expect(fake.mutations()).toEqual([]);
  });

  it('is skipped when the monitor of the same hop found nothing wrong', async () => {
    fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.4.0'));
      s.upsert('virtualmachineinstances', vmi('vms', 'web', { outdated: false }));
    });
    const run = migrationRun(fake.lab.kubeconfig, runbookYaml(steps));
    expect((await run.run()).status).toBe('done');
    expect(run.step('migrations').status).toBe('succeeded');
    expect(run.step('diagnose')).toMatchObject({ status: 'skipped', skipReason: 'the migration monitor found nothing wrong' });
  });
});
