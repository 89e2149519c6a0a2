/**
 * Every gate's options and the key line are on screen at 80x24 and at 120x40, however long the
 * gate's text; below the smallest size, a notice replaces the screen and no gate takes a key.
 */
import { describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { approveOrDecline, type GateRequest } from '../../src/engine/gate.js';
import { initialState } from '../../src/engine/reducer.js';
import type { SessionState } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { cancelGate, restartGate } from '../../src/steps/migrations/restart-gate.js';
import { created, step } from '../support/state-fixtures.js';
import { plain, press, renderAt, waitForFrame, words } from '../support/ui.js';

const hop = { index: 1, count: 2, from: '4.4.10', to: '4.5.4' };
const candidate = { vm: 'ns-packs/build-cache-01', namespace: 'ns-packs', name: 'build-cache-01', node: 'vmo-worker-3', migratable: false, launcher: 'v1.2.0' };
const restartWhy = 'It cannot live-migrate (DisksNotLiveMigratable: cannot migrate VMI: PVC build-cache-01-rootdisk is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)), so only a restart moves it to the new launcher.';

const gates: Array<[string, GateRequest, boolean]> = [
  [
    'draft',
    {
      gate: 'draft',
      key: 'hop1.draft-infra/draft',
      title: 'Write the draft of vmo-infra 1.5.0',
      lines: ['Profile vmo-infra (1753f92e4a9de44811edf1cd): version label 1.4.0 → 1.5.0.', 'This writes a draft only: no cluster changes until it is published.'],
      items: ['cni-cilium-oss 1.16.6 → 1.16.9: values +35 −35, 1 site value(s) carried', 'csi-portworx-generic 3.1.4 → 3.1.8: values +11 −9, 10 site value(s) carried'],
      warnings: ['1 VM(s) still run the previous launcher (ns-packs/build-cache-01); after this hop they would be two minors behind and cannot live-migrate. Restart them first.'],
      options: approveOrDecline('Write draft'),
      safeChoice: 'abort',
    },
    false,
  ],
  [
    'publish',
    {
      gate: 'publish',
      key: 'hop1.publish-infra/publish',
      title: 'Publish vmo-infra 1.5.0',
      lines: ['Publishing makes the draft take effect: every cluster using vmo-infra (here vmo-prod-east) reconciles against 1.5.0.', 'New pack versions roll out; KubeVirt then live-migrates every running VM onto the new launcher.'],
      items: ['cni-cilium-oss 1.16.6 → 1.16.9', 'csi-portworx-generic 3.1.4 → 3.1.8'],
      options: approveOrDecline('Publish'),
      safeChoice: 'abort',
    },
    false,
  ],
  [
    'cancel stuck migrations (a long list)',
    {
      ...cancelGate(
        'hop1.recover/cancel-migrations',
        Array.from({ length: 40 }, (_, i) => ({ key: `vms/mig-${i}`, namespace: 'vms', name: `mig-${i}`, vmi: `vms/vm-${i}`, phase: 'Running', ageMs: 600_000, source: 'worker-1', target: 'worker-2' })),
      ),
      key: 'hop1.recover/cancel-migrations',
    },
    false,
  ],
  ['restart', { ...restartGate(candidate, { key: 'hop1.recover/restart/ns-packs/build-cache-01', why: restartWhy, confirmByName: false, restartWaitMs: 600_000, baseline: 'first-look', position: { index: 1, total: 1 } }), key: 'hop1.recover/restart/ns-packs/build-cache-01' }, false],
  ['restart with the name typed', { ...restartGate(candidate, { key: 'hop1.recover/restart/x', why: restartWhy, confirmByName: true, restartWaitMs: 600_000, baseline: 'snapshot', position: { index: 2, total: 9 } }), key: 'hop1.recover/restart/x' }, false],
  [
    'drift on resume',
    {
      gate: 'drift',
      key: 'drift/1',
      title: 'The cluster changed since the session was saved',
      lines: ['These steps recorded a state that no longer holds. Continuing uses what they recorded.'],
      items: Array.from({ length: 30 }, (_, i) => `Record what is deployed: node worker-${i} is not Ready`),
      options: [
        { choice: 'approve', label: 'Continue anyway', key: 'c' },
        { choice: 'abort', label: 'Stop (start a new session to re-plan)', key: 'n' },
      ],
      safeChoice: 'abort',
    },
    false,
  ],
  ['a rehearsal’s gate', { gate: 'draft', key: 'r/draft', title: 'Write the draft of vmo-infra 1.5.0', lines: ['This writes a draft only.'], options: [{ choice: 'approve', label: 'Continue (rehearsal: nothing is sent)', key: 'c' }], safeChoice: 'approve' }, true],
];

function mountGate(request: GateRequest, size: { columns: number; rows: number }, rehearsal = false) {
  const state: SessionState = initialState(
    created([
      step('preflight', { title: 'Preflight checks', status: 'succeeded', kind: 'preflight' }),
      step('hop1.gated', { title: 'Draft infra profile', status: 'awaitingApproval', gate: request, hop, group: 'hop' }),
    ]),
  );
  const queue = new ConfirmQueue();
  const decision = queue.confirm(request);
  const source = { getState: () => state, subscribe: () => () => undefined };
  const ui = renderAt(<App controller={{ source, queue, rehearsal, outcome: new Promise(() => undefined), stop: () => undefined, gateGuardMs: 0 }} />, size);
  return { ui, queue, decision };
}

describe('gate frames', () => {
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ]) {
    it.each(gates)(`at ${size.columns}x${size.rows}: the %s gate shows its title, every option and the key line`, async (_name, request, rehearsal) => {
      const { ui } = mountGate(request, size, rehearsal);
      const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE:'));
      const lines = frame.split('\n');
      expect(lines.length).toBeLessThan(size.rows);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(size.columns);
      for (const o of request.options) expect(frame).toContain(`[${o.key}] ${o.label.split(' ')[0]}`);
      expect(lines.at(-1)).toMatch(/\? help/);
      if (request.confirmText) {
        await press(ui.stdin, 'r');
        const typing = await waitForFrame(ui.lastFrame, (f) => f.includes('to confirm'));
        expect(typing).toContain('> ');
        expect(typing.split('\n').length).toBeLessThan(size.rows);
      }
      ui.unmount();
    });
  }

  it('a long gate scrolls inside its box while the options stay put', async () => {
    const drift = gates.find(([n]) => n === 'drift on resume')![1];
    const { ui } = mountGate(drift, { columns: 80, rows: 24 });
    let frame = await waitForFrame(ui.lastFrame, (f) => /rows 1-\d+ of \d+/.test(f));
    expect(words(frame)).toContain('worker-0 is not Ready');
    expect(words(frame)).not.toContain('worker-29 is not Ready');
    await press(ui.stdin, 'G');
    frame = await waitForFrame(ui.lastFrame, (f) => words(f).includes('worker-29 is not Ready'));
    expect(frame).toContain('[c] Continue anyway');
    expect(frame).toMatch(/❯ \[n\] Stop/);
    ui.unmount();
  });

  it('below the smallest size a notice replaces the screen and the gate takes no key; enlarged, the gate is back', async () => {
    const draft = gates[0]![1];
    const { ui, queue } = mountGate(draft, { columns: 70, rows: 16 });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('terminal too small'));
    expect(plain(frame)).toMatch(/terminal too small \(needs 60×18\)/);
    expect(frame).not.toContain('GATE:');
    await press(ui.stdin, 'y', '\r', 'n');
    expect(queue.current()?.key).toBe(draft.key);
    ui.resize(80, 24);
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write the draft of vmo-infra 1.5.0') && f.includes('[y] Write draft'));
    ui.unmount();
  });

  it('a narrow terminal hides the step list before it squeezes a gate', async () => {
    const { ui } = mountGate(gates[3]![1], { columns: 64, rows: 20 });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE:'));
    expect(frame).not.toContain('Preflight checks');
    for (const k of ['[r] Restart', '[s] Skip', '[a] Abort']) expect(frame).toContain(k);
    ui.unmount();
  });
});
