import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeKubevirt, type FakeKubevirt } from '../../steps/migrations/support/fake-kubevirt.js';
import { twoOutdatedVms, vmim } from '../../steps/migrations/support/objects.js';
import { migrationRun, runbookYaml } from '../../steps/migrations/support/run.js';
import { keys, pane, press, waitForFrame, words } from '../../support/ui.js';
import { mountApp } from './mount.js';

vi.mock('../../../src/screens/registry.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/screens/registry.js')>();
  const { migrationScreens } = await import('./registry-mock.js');
  return { ...actual, screenFor: (kind: string) => migrationScreens[kind] ?? actual.screenFor(kind) };
});

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function twoVms(): Promise<FakeKubevirt> {
  fake = await startFakeKubevirt(twoOutdatedVms);
  return fake;
}

const steps = (extra = '') => `  - { id: snapshot, kind: snapshot, with: { runningVmis: [vms/web-01, vms/web-02] } }
  - { id: recover, kind: recover, with: { interval: 20ms, restartWith: kubectl${extra} } }`;

describe('the VM restart gate in the TUI', () => {
  it('says which VM, where, why and what a restart does; Skip is focused, so Enter skips; Esc skips too', async () => {
    const f = await twoVms();
    const { ui, outcome } = mountApp(migrationRun(f.lab.kubeconfig, runbookYaml(steps())));
    let frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('GATE: Restart VM vms/web-01 (1 of 2)'));
    const text = words(pane(frame));
    expect(text).toMatch(/VM web-01 in namespace vms, running on node node-1 with launcher v1\.2\.0\./);
    expect(text).toMatch(/Why: It still runs the old launcher and live migration has not moved it\./);
    expect(text).toMatch(/A restart is a graceful shutdown and boot: .* The VM is unavailable meanwhile/);
    // Skip is focused (❯) and marked as the safe default; Restart and Abort are not.
    expect(text).toMatch(/\[r\] Restart this VM ❯ \[s\] Skip \(leave it on the old launcher, listed as outstanding\) \(safe default\) \[a\] Abort recovery \(restart nothing more\)/);
    await press(ui.stdin, keys.enter);
    frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('GATE: Restart VM vms/web-02 (2 of 2)'));
    // The recovery table under the gate shows the first VM skipped, in words.
    expect(frame).toMatch(/vms\/web-01\s+node-1\s+SKIPPED/);
    await press(ui.stdin, keys.escape);
    frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('DONE: every step finished.'));
    expect((await outcome).status).toBe('done');
    expect(f.restarted()).toEqual([]);
    ui.unmount();
  });

  it('with confirmByName, approving needs the VM’s name typed; a wrong name approves nothing', async () => {
    const f = await twoVms();
    const { ui, outcome } = mountApp(migrationRun(f.lab.kubeconfig, runbookYaml(steps(', confirmByName: true'))));
    await waitForFrame(ui.lastFrame, (fr) => fr.includes('GATE: Restart VM vms/web-01 (1 of 2)'));
    await press(ui.stdin, 'r');
    await waitForFrame(ui.lastFrame, (fr) => fr.includes('Type web-01 to confirm'));
    await press(ui.stdin, ...'web-02', keys.enter);
    await waitForFrame(ui.lastFrame, (fr) => fr.includes('That does not match web-01; nothing was approved.'));
    expect(f.restarted()).toEqual([]);
    await press(ui.stdin, keys.backspace, '1', keys.enter);
    let frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('GATE: Restart VM vms/web-02 (2 of 2)'));
    expect(f.restarted()).toEqual(['vms/web-01']);
    expect(frame).toMatch(/vms\/web-01\s+node-1\s+RESTARTED/);
    await press(ui.stdin, 's');
    frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('DONE: every step finished.'));
    expect(words(pane(frame))).toMatch(/restarted 1 VM\(s\) \(vms\/web-01\); 1 outstanding on the old launcher \(vms\/web-02\)/);
    expect((await outcome).status).toBe('done');
    ui.unmount();
  });

  it('in a rehearsal every gate is shown, marked as such, and continuing sends nothing', async () => {
    const f = await twoVms();
    f.store.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-x', 'web-02', { phase: 'Running', runningForMs: 40 * 60_000 }));
    const run = migrationRun(f.lab.kubeconfig, runbookYaml(steps(', confirmByName: true')), { dryRun: true });
    const { ui, outcome } = mountApp(run, { rehearsal: true });
    for (const title of ['Cancel 1 stuck migration(s)', 'Restart VM vms/web-01 (1 of 2)', 'Restart VM vms/web-02 (2 of 2)']) {
      const frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes(`[REHEARSAL] GATE: ${title}`));
      expect(words(pane(frame))).toMatch(/This is what you would be asked\. A rehearsal sends nothing, so no approval is needed\./);
      await press(ui.stdin, keys.enter);
    }
    const frame = await waitForFrame(ui.lastFrame, (fr) => fr.includes('DONE: every step finished.'));
    expect(frame).toMatch(/vms\/web-01\s+node-1\s+WOULD RESTART/);
    expect((await outcome).status).toBe('done');
    expect(f.mutations()).toEqual([]);
    expect(Object.values(run.state().mutations).map((m) => m.outcome)).toEqual(['recorded', 'recorded', 'recorded']);
    ui.unmount();
  });
});
