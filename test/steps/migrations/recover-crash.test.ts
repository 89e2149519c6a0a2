import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import type { GateRequest } from '../../../src/engine/gate.js';
import { restartPath, restartRequest } from '../../../src/steps/migrations/recover-requests.js';
import type { RecoverOutput } from '../../../src/steps/migrations/recover-types.js';
import { startFakeKubevirt, type FakeKubevirt, type RestartMode } from './support/fake-kubevirt.js';
import { kubevirt, vm, vmi, vmim } from './support/objects.js';
import { migrationRun, runbookYaml, scripted, type MigrationRun } from './support/run.js';
import { isPending, until } from '../../support/wait.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const steps = `  - { id: snapshot, kind: snapshot, with: { runningVmis: [vms/web-01, vms/web-02] } }
  - { id: recover, kind: recover, with: { interval: 20ms, restartWait: 5s, restartWith: kubectl } }`;
const sendKey = 'recover/restart/vms/web-01/send';
const vmOf = (r: GateRequest) => (r.subject ? `${r.subject.namespace}/${r.subject.name}` : r.gate);

async function start(mode: RestartMode): Promise<FakeKubevirt> {
  fake = await startFakeKubevirt((s) => {
    s.upsert('kubevirts', kubevirt('v1.4.0'));
    for (const name of ['web-01', 'web-02']) {
      s.upsert('virtualmachines', vm('vms', name));
      s.upsert('virtualmachineinstances', vmi('vms', name, { uid: `uid-${name}` }));
    }
    s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-w1', 'web-01', { phase: 'Running', runningForMs: 40 * 60_000 }));
  }, mode);
  return fake;
}

/** The process dies after journaling the restart's intent (and the VMI it saw), before the result. */
function crashAfterIntent(run: MigrationRun): void {
  const session = run.store.open(run.id);
  const at = () => new Date().toISOString();
  session.append({ type: 'session.resumed', at: at() });
  session.append({ type: 'step.started', at: at(), id: 'recover' });
  session.append({ type: 'step.note', at: at(), id: 'recover', key: 'before/vms/web-01', value: { uid: 'uid-web-01' } });
  session.append({ type: 'mutation.intent', at: at(), key: sendKey, stepId: 'recover', request: restartRequest('vms', 'web-01', 'kubectl'), dryRun: false });
  session.close();
}

async function firstRunStopsAtTheRestarts(f: FakeKubevirt): Promise<MigrationRun> {
  const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps));
  expect((await run.run({ approvals: { ...noApprovals, gates: ['cancel-migrations'] } })).status).toBe('awaitingApproval');
  expect(f.cancelled()).toEqual(['vms/kubevirt-workload-update-w1']);
  expect(f.restarted()).toEqual([]);
  return run;
}

describe('recover: a kill between the restart’s intent and its result', () => {
  it('the restart had reached the cluster: resume reads the VMI, records it as settled, never asks or sends again', async () => {
    const f = await start('instant');
    const run = await firstRunStopsAtTheRestarts(f);
    crashAfterIntent(run);
    const sent = await f.lab.kubectl(['replace', '--raw', restartPath('vms', 'web-01'), '-f', '-'], { input: '{}' });
    expect(sent.code).toBe(0);

    const op = scripted((r) => (vmOf(r) === 'vms/web-02' ? 'skip' : undefined));
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.map(vmOf)).toEqual(['vms/web-02']);
    expect(f.restarted()).toEqual(['vms/web-01']);
    expect(run.state().mutations[sendKey]?.outcome).toBe('settled');
    expect((run.step('recover').output as RecoverOutput).restarted).toEqual(['vms/web-01']);
  });

  it('the VM was still shutting down when the run resumed: settled, then waited for, restarted exactly once', async () => {
    const f = await start('slow');
    const run = await firstRunStopsAtTheRestarts(f);
    crashAfterIntent(run);
    // The VM shuts down for as long as the test holds it (not for 60 ms of a machine's time).
    f.hold();
    await f.lab.kubectl(['replace', '--raw', restartPath('vms', 'web-01'), '-f', '-'], { input: '{}' });
    expect(f.store.get('virtualmachineinstances', 'vms', 'web-01')?.metadata.deletionTimestamp).toBeDefined();

    const op = scripted((r) => (vmOf(r) === 'vms/web-02' ? 'skip' : undefined));
    const resumed = run.run({ confirm: op.confirm });
    // The resume settles the intent while the VMI is still going (deletionTimestamp set): only then
    // does the shutdown go on, so the run must wait for the VM's return, not find it back already.
    await until('the resume to settle the restart while the VM still shuts down', () => run.state().mutations[sendKey]?.outcome === 'settled');
    expect(f.store.get('virtualmachineinstances', 'vms', 'web-01')?.metadata.deletionTimestamp).toBeDefined();
    expect(await isPending(resumed)).toBe(true);
    f.release();
    expect((await resumed).status).toBe('done');
    expect(f.restarted()).toEqual(['vms/web-01']);
    expect(f.store.get('virtualmachineinstances', 'vms', 'web-01')?.status).toMatchObject({ phase: 'Running' });
    expect(run.state().mutations[sendKey]?.outcome).toBe('settled');
  });

  it('the restart never left: resume finds the same VMI, asks again, and sends it once', async () => {
    const f = await start('instant');
    const run = await firstRunStopsAtTheRestarts(f);
    crashAfterIntent(run);

    const op = scripted((r) => (vmOf(r) === 'vms/web-01' ? 'approve' : 'skip'));
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.map(vmOf)).toEqual(['vms/web-01', 'vms/web-02']);
    expect(f.restarted()).toEqual(['vms/web-01']);
    expect(run.state().mutations[sendKey]?.outcome).toBe('sent');
  });
});
