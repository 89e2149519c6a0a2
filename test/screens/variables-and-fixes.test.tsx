/**
 * Issue 25 in the TUI: a draft gate that asks for a new profile variable takes it hidden (bullets,
 * twice) at 80x24 and 120x40, hands it to the run's values and never to the gate's answer; at the
 * customizations review, a fix is chosen by its key and the answer says who chose it.
 */
import { describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { approveOrDecline, type GateRequest } from '../../src/engine/gate.js';
import { initialState } from '../../src/engine/reducer.js';
import type { SessionState } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { CustomizeScreen } from '../../src/screens/CustomizeScreen.js';
import type { CustomizeOutput } from '../../src/steps/customize/types.js';
import { created, step } from '../support/state-fixtures.js';
import { keys, plain, press, renderAt, waitForFrame, words } from '../support/ui.js';
import { sessionState, stepWith } from './plan/fixtures.js';
import { render } from 'ink-testing-library';

const hop = { index: 2, count: 2, from: '4.9.9', to: '4.10.0' };
const draft: GateRequest = {
  gate: 'draft',
  key: 'hop2.draft-addon/draft',
  title: 'Create vmo-core-addon 1.11.0 (clone) and write its draft',
  lines: ['4.10.0 introduces the profile variable LOCAL_ADMIN_PASSWORD.', '  LOCAL_ADMIN_PASSWORD: not given yet; approving asks for it (typed hidden twice).'],
  secretInputs: [{ name: 'LOCAL_ADMIN_PASSWORD', label: 'LOCAL_ADMIN_PASSWORD (hidden)' }],
  options: approveOrDecline('Clone and write draft'),
  safeChoice: 'abort',
};

function mount(size: { columns: number; rows: number }) {
  const state: SessionState = initialState(created([step('hop2.draft-addon', { title: 'Draft add-on profile', status: 'awaitingApproval', gate: draft, hop, group: 'hop' })]));
  const queue = new ConfirmQueue();
  const decision = queue.confirm(draft);
  const typed = new Map<string, string>();
  const source = { getState: () => state, subscribe: () => () => undefined };
  const variables = { set: (name: string, value: string) => void typed.set(name, value) };
  const ui = renderAt(<App controller={{ source, queue, variables, rehearsal: false, outcome: new Promise(() => undefined), stop: () => undefined, gateGuardMs: 0 }} />, size);
  return { ui, decision, typed };
}

describe('a new profile variable at the draft gate', () => {
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ]) {
    it(`at ${size.columns}x${size.rows}: y asks for the value hidden, twice; the value goes to the run, not into the answer`, async () => {
      const { ui, decision, typed } = mount(size);
      await waitForFrame(ui.lastFrame, (f) => f.includes('GATE:'));
      await press(ui.stdin, 'y');
      const asking = await waitForFrame(ui.lastFrame, (f) => f.includes('Type LOCAL_ADMIN_PASSWORD'));
      expect(asking).toContain('Hidden: never shown, logged or written.');
      await press(ui.stdin, ...'pw?[q]f'.split(''));
      const bullets = await waitForFrame(ui.lastFrame, (f) => f.includes('•••••••'));
      expect(bullets).not.toContain('pw?[q]f');
      expect(bullets.split('\n').length).toBeLessThanOrEqual(size.rows);
      await press(ui.stdin, keys.enter);
      await waitForFrame(ui.lastFrame, (f) => f.includes('Again, to confirm'));
      await press(ui.stdin, ...'pw?[q]f'.split(''), keys.enter);
      const d = await decision;
      expect(d).toMatchObject({ choice: 'approve', by: 'operator', key: 'Enter' });
      expect(JSON.stringify(d)).not.toContain('pw?[q]f');
      expect(typed.get('LOCAL_ADMIN_PASSWORD')).toBe('pw?[q]f');
      ui.unmount();
    });
  }
});

const review: GateRequest = {
  gate: 'customize',
  key: 'customize/review/1',
  title: 'Review the customizations',
  lines: [],
  options: [
    { choice: 'approve', label: 'Continue with these values', key: 'c' },
    { choice: 'skip', label: 'Apply my decisions and review again', key: 'a' },
    { choice: 'abort', label: 'Stop here (session saved)', key: 's' },
  ],
  safeChoice: 'approve',
  inline: true,
  informational: true,
  offers: [{ id: 'storage-class-virt-annotation', accepted: false }],
};

const path = 'charts.rook-ceph-cluster.cephBlockPools[0].storageClass.annotations["storageclass.kubevirt.io/is-default-virt-class"]';
const out: CustomizeOutput = {
  conflicts: 0,
  ruleFailures: 0,
  notOnSite: 1,
  byHop: [
    {
      index: 2,
      from: '4.9.9',
      to: '4.10.0',
      profiles: [
        {
          role: 'infra',
          name: 'vmo-infra',
          packs: [],
          rules: [
            { id: 'storage-node-affinity', title: 'Storage runs on the chosen nodes', profile: 'infra', status: 'notOnSite', message: 'not on this site before the upgrade', reason: 'r', pack: 'csi-rook-ceph-helm' },
            { id: 'storage-class-name', title: 'Block StorageClass keeps its name', profile: 'infra', status: 'pass', message: 'ok', reason: 'r', pack: 'csi-rook-ceph-helm' },
          ],
          fixes: [{ rule: 'storage-class-virt-annotation', title: 'Block StorageClass is the default class for VMs', pack: 'csi-rook-ceph-helm', items: [{ path, value: 'true' }], effect: 'This StorageClass becomes the default class for VM disks', accepted: false }],
          additions: [],
        },
      ],
    },
  ],
};

describe('a fix offered at the customizations review', () => {
  it('is left out until chosen by f; the answer carries it with its chooser; amber rules are said as such', async () => {
    const answers: Array<{ choice: string; data: unknown; pressed?: string | undefined }> = [];
    const ui = render(
      <CustomizeScreen step={stepWith('customize', { status: 'awaitingApproval', output: out })} state={sessionState()} isActive rehearsal={false} width={120} height={40} gate={review} decide={(choice, data, pressed) => answers.push({ choice, data, pressed })} />,
    );
    const first = words(plain(ui.lastFrame()));
    expect(first).toContain('RULES PASS 1/2 customization rules hold, 1 not on this site before the upgrade');
    expect(first).toContain('WARN not on this site before the upgrade (never blocks): Storage runs on the chosen nodes');
    expect(first).toContain('Fixes offered: storage-class-virt-annotation (left out)');
    await press(ui.stdin, keys.tab, keys.tab);
    await waitForFrame(ui.lastFrame, (f) => f.includes('[ ] storage-class-virt-annotation: left out'));
    await press(ui.stdin, 'f');
    await waitForFrame(ui.lastFrame, (f) => f.includes('[x] storage-class-virt-annotation: in the drafts, chosen by operator, key f'));
    await press(ui.stdin, 'a');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ choice: 'skip', pressed: 'a', data: { decisions: {}, fixes: { 'storage-class-virt-annotation': { by: 'operator', key: 'f' } } } });
    ui.unmount();
  });
});
