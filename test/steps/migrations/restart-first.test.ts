/**
 * The next hop's draft (and apply) gate, with VMs an earlier recovery left on the old launcher:
 * it warns and offers to restart them first, each behind its own restart gate, then asks again
 * with only what is still outstanding. Plain mode: the VMs' own flags answer their gates; a VM
 * without one stays outstanding and the run goes on. Nothing is restarted without its own yes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GateRequest } from '../../../src/engine/gate.js';
import { startFakeKubevirt, type FakeKubevirt } from './support/fake-kubevirt.js';
import { twoOutdatedVms } from './support/objects.js';
import { migrationRun, runbookYaml, scripted } from './support/run.js';

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const yaml = runbookYaml(`  - { id: snapshot, kind: snapshot, with: { runningVmis: [vms/web-01, vms/web-02] } }
  - { id: recover, kind: recover, with: { interval: 20ms, restartWait: 5s, restartWith: kubectl } }
  - { id: next-draft, kind: gated-write }`);

const vmOf = (r: GateRequest) => (r.subject ? `${r.subject.namespace}/${r.subject.name}` : r.key);

describe('outstanding restarts offered at the next hop’s gate', () => {
  it('asks each outstanding VM on its own when the operator picks [o], then draws the gate again with what is left', async () => {
    fake = await startFakeKubevirt(twoOutdatedVms, 'instant');
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    let draws = 0;
    const op = scripted((r) => {
      if (r.key.startsWith('recover/restart/')) return 'skip'; // recovery: both skipped, both outstanding
      if (r.gate === 'draft') {
        draws++;
        if (draws === 1) {
          expect(r.warnings?.join(' ')).toMatch(/2 VM\(s\) still run the previous launcher \(vms\/web-01, vms\/web-02\)/);
          expect(r.options.map((o) => `${o.key}:${o.choice}`)).toEqual(['y:approve', 'n:abort', 'o:skip']);
          expect(r.safeChoice).toBe('abort');
          return 'skip'; // [o] offer the restarts first
        }
        // Drawn again: web-01 restarted, web-02 skipped at its own gate: only web-02 is left.
        expect(r.key).toBe('next-draft/draft/after-restarts.1.2');
        expect(r.warnings?.join(' ')).toMatch(/1 VM\(s\) still run the previous launcher \(vms\/web-02\)/);
        expect(r.options.map((o) => o.label)).toContain('Restart the 1 outstanding VM(s) first (each asked on its own)');
        return 'approve';
      }
      if (r.gate === 'restart') return vmOf(r) === 'vms/web-01' ? 'approve' : 'skip';
      return undefined;
    });
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.map((r) => r.key)).toEqual([
      'recover/restart/vms/web-01',
      'recover/restart/vms/web-02',
      'next-draft/draft',
      'next-draft/restart/1.gated-write.1/vms/web-01',
      'next-draft/restart/1.gated-write.1/vms/web-02',
      'next-draft/draft/after-restarts.1.2',
    ]);
    expect(fake.restarted()).toEqual(['vms/web-01']);
    expect(run.step('next-draft').output).toEqual({ choice: 'approve', key: 'next-draft/draft/after-restarts.1.2' });
  }, 60_000);

  it('approved without picking [o]: nothing is restarted, and a gate with nothing outstanding offers nothing', async () => {
    fake = await startFakeKubevirt(twoOutdatedVms, 'instant');
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    const op = scripted((r) => {
      if (r.gate === 'restart') return 'approve'; // recovery restarts both
      if (r.gate === 'draft') {
        expect(r.warnings ?? []).toEqual([]);
        expect(r.options.map((o) => o.key)).toEqual(['y', 'n']);
        return 'approve';
      }
      return undefined;
    });
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');
    expect(op.asked.filter((r) => r.gate === 'restart')).toHaveLength(2);
    expect(fake.restarted()).toEqual(['vms/web-01', 'vms/web-02']);
  }, 60_000);

  it('plain mode: the VMs’ own flags answer their gates before the write; one without a flag stays outstanding, the run goes on', async () => {
    fake = await startFakeKubevirt(twoOutdatedVms, 'instant');
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    // Recovery: both declined by flag (outstanding); the draft has no flag: the run stops at it.
    const first = await run.run({ approvals: { gates: [], restarts: [], allRestarts: false, skipRestarts: ['vms/web-01', 'vms/web-02'] } });
    expect(first.status).toBe('awaitingApproval');
    expect(fake.restarted()).toEqual([]);
    // Resumed with the draft approved and web-02's restart approved by its own flag: web-02 first, then the write.
    const second = await run.run({ approvals: { gates: ['draft'], restarts: ['vms/web-02'], allRestarts: false, skipRestarts: [] } });
    expect(second.status).toBe('done');
    expect(fake.restarted()).toEqual(['vms/web-02']);
    expect(run.state().mutations['next-draft/restart/vms/web-02/send']).toMatchObject({ outcome: 'sent', approval: { by: 'flag' } });
  }, 60_000);
});
