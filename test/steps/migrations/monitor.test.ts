import { afterEach, describe, expect, it } from 'vitest';
import type { MigrationsOutput } from '../../../src/steps/migrations/monitor-types.js';
import { startFakeKubevirt, type FakeKubevirt } from './support/fake-kubevirt.js';
import { closedSocket, kubevirt, OUTDATED, vm, vmi, vmim } from './support/objects.js';
import { migrationRun, runbookYaml } from './support/run.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const monitorOnly = (params: string) => runbookYaml(`  - id: migrations\n    kind: migrations\n    with: { ${params} }`);

describe('migrations monitor (Kubernetes double, real kubectl)', () => {
  it('reports a stall at once for a migration Running past its limit and a VMI that keeps failing, reading each kind once per poll', async () => {
    fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.4.0'));
      for (const n of ['a', 'b']) s.upsert('virtualmachineinstances', vmi('vms', n));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-aaaaa', 'a', { phase: 'Running', runningForMs: 40 * 60_000, source: 'node-1', target: 'node-2' }));
      for (const [m, age] of [['kubevirt-workload-update-bbbb1', 45], ['kubevirt-workload-update-bbbb2', 12]] as const) {
        s.upsert('virtualmachineinstancemigrations', vmim('vms', m, 'b', { phase: 'Failed', ageMs: age * 60_000, reason: closedSocket, source: 'node-3', target: 'node-2' }));
      }
    });
    const run = migrationRun(fake.lab.kubeconfig, monitorOnly('interval: 50ms'));
    expect((await run.run()).status).toBe('done');
    const step = run.step('migrations');
    const out = step.output as MigrationsOutput;
    expect(out.outcome).toBe('stalled');
    expect(out.stall.map((s) => s.text)).toEqual([
      expect.stringMatching(/^vms\/a: migration vms\/kubevirt-workload-update-aaaaa Running for 40m0\ds \(limit 15m00s\)$/),
      expect.stringMatching(/^vms\/b: 2 failed migration\(s\), the latest: Live migration failed .*client socket is closed/),
    ]);
    expect(out.affectedNodes).toEqual(['node-1', 'node-2', 'node-3']);
    expect(step.summary).toBe('stalled: 2 signal(s), 2 VMI(s) still outdated; diagnosis and recovery follow');
    // One poll: one list of outdated VMIs (label selector, server-side), one of migrations, one read of the KubeVirt CR.
    expect(run.calls.map((c) => c.args.find((a) => a.startsWith('/'))).sort()).toEqual([
      '/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/kubevirt',
      '/apis/kubevirt.io/v1/virtualmachineinstancemigrations',
      '/apis/kubevirt.io/v1/virtualmachineinstances?labelSelector=kubevirt.io%2FoutdatedLauncherImage',
    ]);
    expect(fake.mutations()).toEqual([]);
  });

  it('finishes when the migratable VMIs have moved, without waiting for the one that cannot live-migrate', async () => {
    fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.4.0'));
      s.upsert('virtualmachineinstances', vmi('vms', 'web'));
      s.upsert('virtualmachineinstances', vmi('ns-packs', 'build-cache-01', { migratable: false, node: 'worker-3' }));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-web01', 'web', { phase: 'Running', runningForMs: 30_000 }));
    });
    const store = fake.store;
    const run = migrationRun(fake.lab.kubeconfig, monitorOnly('interval: 100ms'));
    // The migration finishes once the monitor has polled twice.
    const timer = setInterval(() => {
      if (run.calls.length < 6) return;
      clearInterval(timer);
      store.update('virtualmachineinstancemigrations', 'vms', 'kubevirt-workload-update-web01', (o) => ((o.status as Record<string, unknown>).phase = 'Succeeded'));
      store.update('virtualmachineinstances', 'vms', 'web', (o) => delete o.metadata.labels![OUTDATED]);
    }, 10);
    expect((await run.run()).status).toBe('done');
    clearInterval(timer);
    const out = run.step('migrations').output as MigrationsOutput;
    expect(out.outcome).toBe('completed');
    expect(out.needsRestart).toEqual([expect.objectContaining({ vmi: 'ns-packs/build-cache-01', migratable: false })]);
    expect(out.counts).toMatchObject({ Succeeded: 1, Running: 0 });
    expect(out.history[0]).toMatchObject({ outdated: 2, inFlight: 1 });
    expect(out.history.at(-1)).toMatchObject({ outdated: 1, inFlight: 0 });
    expect(out.polls).toBeGreaterThanOrEqual(4);
    expect(run.calls).toHaveLength(out.polls * 3);
    expect(run.step('migrations').summary).toMatch(/^migrations finished after .*: 1 succeeded; 1 VM\(s\) will not move by themselves and need a restart \(recovery\)$/);
  });

  it('calls it a stall when nothing moves for stallAfter', async () => {
    fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.4.0'));
      s.upsert('virtualmachineinstances', vmi('vms', 'web'));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-web01', 'web', { phase: 'Pending' }));
    });
    const run = migrationRun(fake.lab.kubeconfig, monitorOnly('interval: 50ms, stallAfter: 400ms'));
    expect((await run.run()).status).toBe('done');
    const out = run.step('migrations').output as MigrationsOutput;
    expect(out.outcome).toBe('stalled');
    // At least the 400 ms of stallAfter; a busy machine polls late, so it may say "1s" or more.
    expect(out.stall).toEqual([{ kind: 'no-progress', text: expect.stringMatching(/^No progress for (?:[4-9]\d\dms|\d+s|\d+m\d\ds): 1 VMI\(s\) still outdated \(1 KubeVirt should move\), 1 migration\(s\) in flight$/) }]);
  });

  it('rehearsal: reads once and says what it would wait for', async () => {
    fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.2.0'));
      s.upsert('virtualmachineinstances', vmi('vms', 'web', { outdated: false }));
      s.upsert('virtualmachines', vm('vms', 'web'));
    });
    const run = migrationRun(fake.lab.kubeconfig, monitorOnly('interval: 1s'), { dryRun: true });
    expect((await run.run()).status).toBe('done');
    const out = run.step('migrations').output as MigrationsOutput;
    expect(out.outcome).toBe('rehearsal');
    expect(out.rehearsal!.wouldWaitFor).toEqual([
      'KubeVirt kubevirt/kubevirt Deployed at its target version (today: Deployed at v1.2.0)',
      'no outdated VMI that KubeVirt can still move by itself (today: 0 outdated, 0 it would move)',
      'no migration in flight (today: 0)',
      'polling every 1s; a stall is reported after 10m00s without progress, a migration Running longer than 15m00s, or a VMI whose migrations failed 2 time(s)',
    ]);
    expect(run.calls).toHaveLength(3);
  });
});
