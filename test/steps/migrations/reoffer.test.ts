/**
 * Recovery taken up again: a VM skipped at its restart gate stays outstanding and is offered
 * again from verification (its red VM panel's action) and when the session resumes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GateRequest } from '../../../src/engine/gate.js';
import type { RecoverOutput } from '../../../src/steps/migrations/recover-types.js';
import { OFFER_RESTARTS, type VerifyOutput } from '../../../src/steps/verify/verify.js';
import { startFakeKubevirt, type FakeKubevirt } from './support/fake-kubevirt.js';
import { twoOutdatedVms } from './support/objects.js';
import { migrationRun, runbookYaml, scripted } from './support/run.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const yaml = runbookYaml(
  `  - { id: snapshot, kind: snapshot, with: { runningVmis: [vms/web-01, vms/web-02] } }
  - { id: recover, kind: recover, with: { interval: 20ms, restartWait: 5s, restartWith: kubectl } }
  - { id: verify, kind: verify }`,
  'checks:\n  - { id: workloads, kind: workloads, title: VMs and migrations }\n',
);

const vmOf = (r: GateRequest) => (r.subject ? `${r.subject.namespace}/${r.subject.name}` : r.key);

describe('restarts offered again', () => {
  it('from verification: the red VM panel’s action asks each outstanding VM again; a resume asks the rest again first', async () => {
    fake = await startFakeKubevirt(twoOutdatedVms, 'instant');
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    let reviews = 0;
    const first = scripted((r) => {
      if (r.key.startsWith('recover/restart/')) return { choice: 'skip' };
      if (r.gate === 'verify') {
        reviews++;
        if (reviews === 1) {
          // The red panel offers the action only while VMs are outstanding.
          expect(r.options.map((o) => o.key)).toEqual(['f', 'r', 'o']);
          return { choice: 'approve', data: { action: OFFER_RESTARTS } };
        }
        return { choice: 'skip' };
      }
      if (r.gate === 'restart') return { choice: vmOf(r) === 'vms/web-01' ? 'approve' : 'skip' };
      return undefined;
    });
    expect((await run.run({ confirm: first.confirm })).status).toBe('failed'); // web-02 is still on the old launcher
    expect(first.asked.filter((r) => r.gate === 'restart').map((r) => `${r.key}`)).toEqual([
      'recover/restart/vms/web-01',
      'recover/restart/vms/web-02',
      'verify/restart/1.1/vms/web-01',
      'verify/restart/1.1/vms/web-02',
    ]);
    expect(fake.restarted()).toEqual(['vms/web-01']);
    const recover = run.step('recover').output as RecoverOutput;
    expect(recover.outstanding).toEqual(['vms/web-01', 'vms/web-02']); // recovery's own record is kept as it was
    const verify = run.step('verify');
    expect((verify.output as VerifyOutput).reoffered).toEqual({ restarted: ['vms/web-01'], skipped: ['vms/web-02'], outstanding: [] });
    expect(verify.error?.hint).toMatch(/1 VM\(s\) are still on the old launcher \(vms\/web-02\)\. Resume the session: verification offers each restart again/);
    expect(run.state().mutations['verify/restart/vms/web-01/send']).toMatchObject({ outcome: 'sent', approval: { gateKey: 'verify/restart/1.1/vms/web-01', by: 'operator' } });

    // Resumed: verification offers what is still outstanding before it checks; web-01 is not asked (it was restarted).
    const second = scripted((r) => (r.gate === 'restart' ? { choice: 'approve' } : r.gate === 'verify' ? { choice: 'skip' } : undefined));
    expect((await run.run({ confirm: second.confirm })).status).toBe('done');
    expect(second.asked.map((r) => r.key)).toEqual(['verify/restart/2.resume/vms/web-02', 'verify/review/2.1']);
    expect(second.asked[1]!.options.map((o) => o.key)).toEqual(['f', 'r']); // nothing outstanding: no action offered
    expect(fake.restarted()).toEqual(['vms/web-01', 'vms/web-02']);
  }, 60_000);

  it('plain mode on resume: the flags answer the re-offered restarts, and a VM without one stays outstanding without stopping the run', async () => {
    fake = await startFakeKubevirt(twoOutdatedVms, 'instant');
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    const skipAll = { gates: [], restarts: [], allRestarts: false, skipRestarts: ['vms/web-01', 'vms/web-02'] };
    expect((await run.run({ approvals: skipAll })).status).toBe('failed');
    expect(fake.restarted()).toEqual([]);
    const resumed = await run.run({ approvals: { gates: [], restarts: ['vms/web-02'], allRestarts: false, skipRestarts: [] } });
    expect(resumed.status).toBe('failed'); // web-01 had no flag: still outstanding, still red
    expect(fake.restarted()).toEqual(['vms/web-02']);
    expect((run.step('verify').output as VerifyOutput).reoffered).toMatchObject({ restarted: ['vms/web-02'], outstanding: ['vms/web-01'] });
  }, 60_000);
});
