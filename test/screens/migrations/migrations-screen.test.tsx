import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionState, StepState } from '../../../src/engine/state.js';
import { MigrationsScreen } from '../../../src/screens/MigrationsScreen.js';
import type { MigrationRow, MigrationsLive } from '../../../src/steps/migrations/monitor-types.js';
import { startFakeKubevirt, type FakeKubevirt } from '../../steps/migrations/support/fake-kubevirt.js';
import { kubevirt, OUTDATED, vmi, vmim } from '../../steps/migrations/support/objects.js';
import { migrationRun, runbookYaml } from '../../steps/migrations/support/run.js';
import { meta, step } from '../../support/state-fixtures.js';
import { keys, pane, plain, pressAndWait, waitForFrame, words } from '../../support/ui.js';
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

describe('the live migrations table', () => {
  it('shows each migration (VMI, source → target, phase, age), counts per phase, outdated VMIs and KubeVirt, live; then the end', async () => {
    const f = (fake = await startFakeKubevirt((s) => {
      s.upsert('kubevirts', kubevirt('v1.4.0'));
      s.upsert('virtualmachineinstances', vmi('vms', 'web-01'));
      s.upsert('virtualmachineinstances', vmi('vms', 'db-01', { node: 'node-3' }));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-a', 'web-01', { phase: 'Running', runningForMs: 20_000, source: 'node-1', target: 'node-2' }));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-b', 'db-01', { phase: 'Pending' }));
      s.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-c', 'api-01', { phase: 'Succeeded', source: 'node-2', target: 'node-4' }));
    }));
    const run = migrationRun(f.lab.kubeconfig, runbookYaml('  - { id: migrations, kind: migrations, with: { interval: 100ms } }'));
    const { ui, outcome } = mountApp(run);
    let frame = pane(await waitForFrame(ui.lastFrame, (fr) => fr.includes('next poll in')));
    expect(frame).toMatch(/VMI\s+SOURCE → TARGET\s+PHASE\s+AGE/);
    // Its age counts from 20 s before the seed, on the wall clock: 20 s or more by the time it is drawn.
    const age = /vms\/web-01\s+node-1 → node-2\s+Running\s+(?:(\d+)m)?(\d+)s/.exec(frame);
    expect(age, frame).not.toBeNull();
    expect(Number(age![1] ?? 0) * 60 + Number(age![2])).toBeGreaterThanOrEqual(20);
    expect(frame).toMatch(/vms\/db-01\s+node-3 → —\s+Pending/);
    expect(frame).toMatch(/vms\/api-01\s+node-2 → node-4\s+Succeeded/);
    expect(words(frame)).toMatch(/Pending 1 · Running 1 · Succeeded 1/);
    expect(words(frame)).toMatch(/Outdated VMIs: 2/);
    expect(words(frame)).toMatch(/KubeVirt Deployed v1\.4\.0 · settled/);

    for (const [name, vmiName] of [
      ['kubevirt-workload-update-a', 'web-01'],
      ['kubevirt-workload-update-b', 'db-01'],
    ]) {
      f.store.update('virtualmachineinstancemigrations', 'vms', name!, (o) => ((o.status as Record<string, unknown>).phase = 'Succeeded'));
      f.store.update('virtualmachineinstances', 'vms', vmiName!, (o) => delete o.metadata.labels![OUTDATED]);
    }
    frame = pane(await waitForFrame(ui.lastFrame, (fr) => fr.includes('DONE: every step finished.')));
    expect(words(frame)).toMatch(/✔ DONE: no migration in flight and nothing outdated that KubeVirt could still move\./);
    expect(words(frame)).toMatch(/Outdated VMIs: 0 [▁-█]+ \(from 2\)/);
    expect((await outcome).status).toBe('done');
    ui.unmount();
  });
});

function liveStep(rows: MigrationRow[], stall = false): { step: StepState; state: SessionState } {
  const live: MigrationsLive = {
    headline: '',
    rows,
    counts: { Pending: 0, Running: rows.length, Succeeded: 0, Failed: 0 },
    outdated: rows.length,
    staying: 1,
    history: [{ atMs: 0, outdated: rows.length + 10, inFlight: 5 }, { atMs: 5000, outdated: rows.length, inFlight: 5 }],
    kubevirt: { ref: 'kubevirt/kubevirt', found: true, phase: 'Deployed', observed: 'v1.4.0', target: 'v1.4.0', conditions: [], settled: true },
    stall: stall ? [{ kind: 'migration-too-long', vmi: 'vms/vm-0', text: 'vms/vm-0: migration vms/m-0 Running for 40m00s (limit 15m00s)' }] : [],
    movable: stall ? 0 : rows.length,
    ended: stall,
    elapsedMs: 65_000,
    sinceProgressMs: 5000,
    polls: 13,
    nextPollInMs: 5000,
  };
  const s = step('migrations', { kind: 'migrations', title: 'Watch live migrations', status: 'running', live });
  const state = { meta, entries: [s], mutations: {}, run: { status: 'running', updatedAt: '', resumes: 0 }, log: [], seq: 1 } as SessionState;
  return { step: s, state };
}

const manyRows = (n: number): MigrationRow[] =>
  Array.from({ length: n }, (_, i) => ({ key: `vms/m-${i}`, vmi: `vms/vm-${i}`, source: `node-${i % 500}`, target: `node-${(i + 1) % 500}`, phase: 'Running', ageMs: 60_000, runningMs: 60_000 - i }));

describe('MigrationsScreen at scale and without colour', () => {
  // How fast is the bench's business (`npm run bench`: key ↓ → new frame, migrations table of 5,000 rows).
  it('renders 5,000 migrations as a window, re-renders a new poll of them, and scrolls', async () => {
    const { step: s, state } = liveStep(manyRows(5000));
    const ui = render(<MigrationsScreen step={s} state={state} isActive rehearsal={false} width={59} height={24} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toMatch(/rows 1-\d+ of 5000/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    expect(frame).toMatch(/vms\/vm-0\s/);
    expect(frame).not.toMatch(/vms\/vm-4999\s/);
    // A new poll with the same 5,000 rows draws the same window.
    const next = liveStep(manyRows(5000));
    ui.rerender(<MigrationsScreen step={next.step} state={next.state} isActive rehearsal={false} width={59} height={24} />);
    expect(plain(ui.lastFrame())).toBe(frame);
    await pressAndWait(ui, [keys.down, keys.down], (fr) => /rows 3-\d+ of 5000/.test(fr));
    ui.unmount();
  });

  it('reads without colour: the stall and the phases are words, not colours', () => {
    const { step: s, state } = liveStep(manyRows(3), true);
    const ui = render(<MigrationsScreen step={s} state={state} isActive={false} rehearsal={false} width={59} height={24} />);
    const frame = ui.lastFrame() ?? '';
    expect(process.env.NO_COLOR).toBe('1');
    expect(frame).toBe(plain(frame));
    expect(words(frame)).toMatch(/WARN Stalled: the migrations will not finish by themselves Diagnosis and recovery follow\. • vms\/vm-0: migration vms\/m-0 Running for 40m00s \(limit 15m00s\)/);
    expect(words(frame)).toMatch(/Outdated VMIs: 3 \S+ \(from 13\) · 1 will need a restart/);
    ui.unmount();
  });
});
