import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import type { GateRequest } from '../../../src/engine/gate.js';
import { GateStopError } from '../../../src/errors.js';
import type { ResourceStore } from '../../../src/lab/kube/store.js';
import type { RecoverOutput } from '../../../src/steps/migrations/recover-types.js';
import { startFakeKubevirt, type FakeKubevirt, type RestartMode } from './support/fake-kubevirt.js';
import { kubevirt, OUTDATED, vm, vmi, vmim } from './support/objects.js';
import { migrationRun, runbookYaml, scripted } from './support/run.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const baseline = ['vms/web-01', 'vms/web-02', 'vms/db-01', 'ns-packs/cache'];
const steps = (recoverWith = '', extra = '') => `  - { id: snapshot, kind: snapshot, with: { runningVmis: ${JSON.stringify(baseline)} } }
${extra}  - { id: recover, kind: recover, with: { interval: 20ms, restartWait: 5s, cancelWait: 2s, restartWith: kubectl${recoverWith} } }`;

function cluster(s: ResourceStore): void {
  s.upsert('kubevirts', kubevirt('v1.4.0'));
  for (const [ns, name, node] of [
    ['vms', 'web-01', 'node-1'],
    ['vms', 'web-02', 'node-2'],
    ['vms', 'db-01', 'node-3'],
    ['vms', 'late', 'node-1'],
  ] as const) {
    s.upsert('virtualmachines', vm(ns, name));
    s.upsert('virtualmachineinstances', vmi(ns, name, { node }));
  }
  s.upsert('virtualmachines', vm('ns-packs', 'cache'));
  s.upsert('virtualmachineinstances', vmi('ns-packs', 'cache', { node: 'node-3', migratable: false }));
  s.upsert('virtualmachines', vm('vms', 'halted', 'Halted'));
  s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-w2', 'web-02', { phase: 'Running', runningForMs: 40 * 60_000, source: 'node-2', target: 'node-1' }));
  s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-db', 'db-01', { phase: 'Pending' }));
  s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-old', 'db-01', { phase: 'Failed' }));
}

const start = (mode: RestartMode = 'instant') => startFakeKubevirt(cluster, mode).then((f) => (fake = f));
const restartKey = (vm: string) => `recover/restart/${vm}`;
const vmOf = (r: GateRequest) => (r.subject ? `${r.subject.namespace}/${r.subject.name}` : r.gate);

describe('recover (Kubernetes double, real kubectl)', () => {
  it('cancels the stuck migrations behind one gate, then restarts exactly the approved VMs, one gate each, waiting for each to come back', async () => {
    const f = await start('slow');
    const backWhenAsked: Record<string, boolean> = {};
    const op = scripted((r) => {
      if (r.gate === 'cancel-migrations') return 'approve';
      // When each gate opens, the VM restarted before it must already run again on the current launcher.
      const web01 = f.store.get('virtualmachineinstances', 'vms', 'web-01');
      backWhenAsked[vmOf(r)] = web01?.metadata.labels?.[OUTDATED] === undefined && (web01?.status as { phase?: string }).phase === 'Running';
      return ({ 'vms/web-01': 'approve', 'vms/web-02': 'approve', 'vms/db-01': 'skip', 'ns-packs/cache': 'skip' } as const)[vmOf(r)];
    });
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');

    expect(op.asked.map(vmOf)).toEqual(['cancel-migrations', 'ns-packs/cache', 'vms/db-01', 'vms/web-01', 'vms/web-02']);
    const cancel = op.asked[0]!;
    expect(cancel).toMatchObject({ key: 'recover/cancel-migrations', safeChoice: 'abort', title: 'Cancel 2 stuck migration(s)' });
    expect(cancel.items).toEqual([expect.stringMatching(/^vms\/db-01: Pending for \S+ \(vms\/kubevirt-workload-update-db\)$/), expect.stringMatching(/^vms\/web-02: Running for 40m0\ds, node-2 → node-1 \(vms\/kubevirt-workload-update-w2\)$/)]);
    const gate = op.asked.find((r) => vmOf(r) === 'vms/web-01')!;
    expect(gate).toMatchObject({ gate: 'restart', key: restartKey('vms/web-01'), title: 'Restart VM vms/web-01 (3 of 4)', safeChoice: 'skip', subject: { namespace: 'vms', name: 'web-01' } });
    expect(gate.options.map((o) => `${o.key}:${o.choice}`)).toEqual(['r:approve', 's:skip', 'a:abort']);
    expect(gate.confirmText).toBeUndefined();
    expect(gate.lines.join(' ')).toMatch(/VM web-01 in namespace vms, running on node node-1 with launcher v1\.2\.0\. Why: It still runs the old launcher .* A restart is a graceful shutdown and boot: .* The VM is unavailable meanwhile/);
    expect(op.asked.find((r) => vmOf(r) === 'vms/web-02')!.lines[1]).toMatch(/^Why: Its live migration hangs in Running \(40m0\ds\)\.$/);
    expect(op.asked.find((r) => vmOf(r) === 'ns-packs/cache')!.lines[1]).toBe('Why: It cannot live-migrate (DisksNotLiveMigratable: cannot migrate VMI: PVC cache-rootdisk is not shared), so only a restart moves it to the new launcher.');
    expect(backWhenAsked['vms/web-02']).toBe(true);

    expect(f.cancelled().sort()).toEqual(['vms/kubevirt-workload-update-db', 'vms/kubevirt-workload-update-w2']);
    expect(f.restarted()).toEqual(['vms/web-01', 'vms/web-02']);
    const out = run.step('recover').output as RecoverOutput;
    expect(out.restarted).toEqual(['vms/web-01', 'vms/web-02']);
    expect(out.outstanding).toEqual(['ns-packs/cache', 'vms/db-01', 'vms/late']);
    expect(out.notOffered).toEqual([{ vm: 'vms/late', reason: 'was not running at the snapshot baseline: never restarted' }]);
    expect(run.step('recover').summary).toBe('cancelled 2 migration(s); restarted 2 VM(s) (vms/web-01, vms/web-02); 3 outstanding on the old launcher (ns-packs/cache, vms/db-01, vms/late)');
    const m = run.state().mutations[`${restartKey('vms/web-01')}/send`]!;
    expect(m).toMatchObject({ outcome: 'sent', approval: { gateKey: restartKey('vms/web-01'), by: 'operator' } });
    // Each restart's downtime, ending at the new VMI's Running transition (the cluster's own record).
    expect(out.timings?.map((t) => [t.vm, t.runningFrom])).toEqual([
      ['vms/web-01', 'phase-transition'],
      ['vms/web-02', 'phase-transition'],
    ]);
    for (const t of out.timings ?? []) expect(t.downtimeSeconds).toBeLessThan(3);
  });

  it('Abort recovery sends nothing more; the rest stays outstanding and the run stops', async () => {
    const f = await start();
    const op = scripted((r) => (r.gate === 'cancel-migrations' ? 'approve' : vmOf(r) === 'ns-packs/cache' ? 'approve' : 'abort'));
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    const outcome = await run.run({ confirm: op.confirm });
    expect(outcome.status).toBe('stopped'); // an abort is the operator's stop, not a failure
    expect(op.asked.map(vmOf)).toEqual(['cancel-migrations', 'ns-packs/cache', 'vms/db-01']);
    expect(f.restarted()).toEqual(['ns-packs/cache']);
    const step = run.step('recover');
    expect(step.error).toMatchObject({ kind: 'stopped', message: 'Recovery aborted by the operator: nothing more was sent (1 VM(s) restarted before).' });
    const out = step.output as RecoverOutput;
    expect(out).toMatchObject({ aborted: true, restarted: ['ns-packs/cache'], outstanding: ['vms/db-01', 'vms/late', 'vms/web-01', 'vms/web-02'] });
  });

  it('Abort at the cancel gate sends nothing at all', async () => {
    const f = await start();
    const op = scripted((r) => (r.gate === 'cancel-migrations' ? 'abort' : undefined));
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    expect((await run.run({ confirm: op.confirm })).status).toBe('stopped');
    expect(f.mutations()).toEqual([]);
  });

  it('plain mode: restarts what --approve-restart names, stops with exit 3 listing every VM still awaiting approval, and a resume finishes', async () => {
    const f = await start();
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    const first = await run.run({ approvals: { ...noApprovals, gates: ['cancel-migrations'], restarts: ['vms/web-01'], skipRestarts: ['ns-packs/cache'] } });
    expect(first.status).toBe('awaitingApproval');
    const err = first.status === 'awaitingApproval' ? (first.error as GateStopError) : undefined;
    expect(err?.pending.map((p) => p.flag)).toEqual(['--approve-restart vms/db-01', '--approve-restart vms/web-02']);
    expect(err?.hint).toBe(
      [
        `The session is saved. To approve, run: upgrade-pilot resume ${run.id} --approve-restart vms/db-01 --approve-restart vms/web-02`,
        `To decline instead (the VM stays on the old launcher, listed as outstanding): upgrade-pilot resume ${run.id} --skip-restart vms/db-01 --skip-restart vms/web-02`,
      ].join('\n'),
    );
    expect(f.restarted()).toEqual(['vms/web-01']);

    // The VM skipped in the first run is offered again: this run declines it again with its flag.
    const second = await run.run({ approvals: { ...noApprovals, restarts: ['vms/web-02'], skipRestarts: ['vms/db-01', 'ns-packs/cache'] } });
    expect(second.status).toBe('done');
    expect(f.restarted()).toEqual(['vms/web-01', 'vms/web-02']);
    const out = run.step('recover').output as RecoverOutput;
    expect(out.restarted).toEqual(['vms/web-01', 'vms/web-02']);
    expect(out.outstanding).toEqual(['ns-packs/cache', 'vms/db-01', 'vms/late']);
  });

  it('plain mode without --approve cancel-migrations sends nothing and lists the cancel and every restart', async () => {
    const f = await start();
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    const outcome = await run.run({ approvals: { ...noApprovals, restarts: ['vms/web-01'] } });
    expect(outcome.status).toBe('awaitingApproval');
    expect((outcome as unknown as { error: GateStopError }).error.pending.map((p) => p.flag)).toEqual(['--approve cancel-migrations', '--approve-restart ns-packs/cache', '--approve-restart vms/db-01', '--approve-restart vms/web-01', '--approve-restart vms/web-02']);
    expect(f.mutations()).toEqual([]);
  });

  it('a VM skipped in one attempt stays outstanding, and is offered again when the session resumes', async () => {
    const f = await start();
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps()));
    expect((await run.run({ approvals: { ...noApprovals, gates: ['cancel-migrations'], skipRestarts: ['vms/db-01'] } })).status).toBe('awaitingApproval');
    expect(run.step('recover').notes['skipped/vms/db-01']).toMatchObject({ by: 'flag', attempt: 1 });
    const op = scripted(() => 'skip');
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.map(vmOf)).toEqual(['ns-packs/cache', 'vms/db-01', 'vms/web-01', 'vms/web-02']);
    expect((run.step('recover').output as RecoverOutput).skipped).toEqual(['ns-packs/cache', 'vms/db-01', 'vms/web-01', 'vms/web-02']);
    expect(f.restarted()).toEqual([]);
  });

  it('with confirmByName the gate asks for the VM’s name', async () => {
    const f = await start();
    const op = scripted((r) => (r.gate === 'cancel-migrations' ? 'skip' : 'skip'));
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps(', confirmByName: true')));
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.filter((r) => r.gate === 'restart').map((r) => r.confirmText)).toEqual(['cache', 'db-01', 'web-01', 'web-02']);
    expect(f.mutations()).toEqual([]);
  });

  it('stops when a restarted VM does not come back within restartWait, and a resume waits for it instead of restarting again', async () => {
    const f = await start('never-back');
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps().replace('restartWait: 5s', 'restartWait: 400ms')));
    const op = scripted((r) => (r.gate === 'cancel-migrations' || vmOf(r) === 'ns-packs/cache' ? 'approve' : 'skip'));
    expect((await run.run({ confirm: op.confirm })).status).toBe('failed');
    const step = run.step('recover');
    expect(step.error?.code).toBe('recover.not-back');
    expect(step.error?.message).toMatch(/^VM ns-packs\/cache was restarted but does not run on the current launcher after 400ms: starting \(Scheduling\)\.$/);
    expect(op.asked.map(vmOf)).toEqual(['cancel-migrations', 'ns-packs/cache']);
    // It boots after all; the resume sees it back and goes on without a second restart.
    f.store.update('virtualmachineinstances', 'ns-packs', 'cache', (o) => ((o.status as Record<string, unknown>).phase = 'Running'));
    const again = scripted((r) => (r.gate === 'restart' && vmOf(r) !== 'ns-packs/cache' ? 'skip' : undefined));
    expect((await run.run({ confirm: again.confirm })).status).toBe('done');
    expect(f.restarted()).toEqual(['ns-packs/cache']);
    expect((run.step('recover').output as RecoverOutput).restarted).toEqual(['ns-packs/cache']);
  });

  it('rehearsal: every gate is shown, the cancels and restarts are recorded with their exact commands, nothing is sent', async () => {
    const f = await start();
    const impact = `  - id: plan\n    kind: fixed-impact\n    with: { impact: [{ vm: vms/web-01, fate: live-migrate, reason: shared disk }] }\n`;
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps('', impact)), { dryRun: true });
    expect((await run.run()).status).toBe('done');
    expect(f.mutations()).toEqual([]);
    const recorded = Object.values(run.state().mutations).map((m) => `${m.outcome} ${m.request.target === 'kube' ? `${m.request.program} ${m.request.argv.join(' ')}` : ''}`);
    expect(recorded).toEqual([
      'recorded kubectl delete vmim kubevirt-workload-update-db -n vms --wait=false --ignore-not-found',
      'recorded kubectl delete vmim kubevirt-workload-update-w2 -n vms --wait=false --ignore-not-found',
      'recorded kubectl replace --raw /apis/subresources.kubevirt.io/v1/namespaces/ns-packs/virtualmachines/cache/restart -f -',
      'recorded kubectl replace --raw /apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/db-01/restart -f -',
      'recorded kubectl replace --raw /apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web-01/restart -f -',
      'recorded kubectl replace --raw /apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web-02/restart -f -',
    ]);
    const out = run.step('recover').output as RecoverOutput;
    expect(out).toMatchObject({ rehearsal: true, restarted: [], wouldRestart: ['ns-packs/cache', 'vms/db-01', 'vms/web-01', 'vms/web-02'], outstanding: ['vms/late'] });
    expect(run.step('recover').summary).toBe('rehearsal: would cancel 2 migration(s) and restart 4 VM(s); nothing was sent; 1 would stay outstanding');
  });
});
