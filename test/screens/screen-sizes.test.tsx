/**
 * Every screen at 80x24 and 120x40, drawn from the state of a rehearsal of the lab's `large`
 * scenario (5,000 VMs, 500 nodes; lists trimmed to 150 rows, more than any screen shows, and the
 * customize step's values strings emptied: test/fixtures/screens/large-session.json). Asserts the
 * lines an operator must read: the session id and the badge, the gate's options with the focus,
 * versions whole, the what-to-do lines, the key line. Drawn from state, so it is fast.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import type { GateRequest } from '../../src/engine/gate.js';
import type { RunOutcome } from '../../src/engine/runner.js';
import type { SessionState, StepState } from '../../src/engine/state.js';
import { StepFailedError } from '../../src/errors.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import type { CustomizeOutput } from '../../src/steps/customize/types.js';
import { restartGate } from '../../src/steps/migrations/restart-gate.js';
import type { RecoverOutput } from '../../src/steps/migrations/recover-types.js';
import { keys, pane, plain, press, renderAt, waitForFrame, words } from '../support/ui.js';

const saved = JSON.parse(readFileSync(new URL('../fixtures/screens/large-session.json', import.meta.url), 'utf8')) as SessionState;
const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
] as const;

/** The saved session, live on a lab, with `id` the step on screen (and the steps after it not run yet). */
function stateAt(id: string, patch: Partial<StepState> = {}): SessionState {
  const state = structuredClone(saved);
  state.meta = { ...state.meta, mode: 'live', lab: true };
  state.run = { ...state.run, status: 'running' };
  let seen = false;
  state.entries = state.entries.map((e) => {
    const s = e as StepState;
    if (s.id === id) {
      seen = true;
      return { ...s, status: 'running', ...patch };
    }
    return seen ? { ...s, status: 'pending' } : s;
  });
  return state;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function mount(state: SessionState, size: { columns: number; rows: number }, opts: { gate?: GateRequest; outcome?: RunOutcome } = {}) {
  const queue = new ConfirmQueue();
  if (opts.gate) void queue.confirm(opts.gate).catch(() => undefined);
  const source = { getState: () => state, subscribe: () => () => undefined };
  const ui = renderAt(<App controller={{ source, queue, rehearsal: false, outcome: opts.outcome ? Promise.resolve(opts.outcome) : new Promise(() => undefined), stop: () => undefined, gateGuardMs: 0 }} />, size);
  unmount = ui.unmount;
  return ui;
}

/** What every frame must be: inside the terminal, the header with the session id and one badge, the key line last. */
function expectFits(frame: string, size: { columns: number; rows: number }): string[] {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThan(size.rows);
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(size.columns);
  expect(lines[0]).toContain(saved.meta.id);
  expect(lines[0]).toMatch(/ LAB /);
  expect(lines[0]).not.toMatch(/\bLIVE\b/);
  expect(lines.at(-1)).toMatch(/\?|q /);
  // No wrapped line inside a panel starts with a stray space left by the wrap.
  for (const l of lines) expect(l).not.toMatch(/│ {2}(is|are|needed|deployed)\b/);
  return lines;
}

const recover = saved.entries.find((e) => (e as StepState).kind === 'recover') as StepState;
const recoverOut = recover.output as RecoverOutput;
const customize = saved.entries.find((e) => (e as StepState).kind === 'customize') as StepState;
const customizeOut = customize.output as CustomizeOutput;

describe.each(sizes)('at $columns x $rows with the large lab', (size) => {
  it.each(['preflight', 'snapshot', 'plan', 'hop1.draft-infra', 'hop1.reconcile', 'hop1.migrations', 'verify'])('the %s screen fits, with its header and key line', async (id) => {
    const step = saved.entries.find((e) => (e as StepState).id === id) as StepState;
    const ui = mount(stateAt(id, { status: 'succeeded' }), size);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes(step.title.slice(0, 12)));
    expectFits(frame, size);
  });

  it('the plan names the hop with both versions whole', async () => {
    const ui = mount(stateAt('plan', { status: 'succeeded' }), size);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('4.5.4 → 4.6.3'));
    expectFits(frame, size);
  });

  it('a restart gate over the recovery table: every option on screen with the focus on Skip, Why once, the table using the room it has', async () => {
    const vms = recoverOut.vms.map((v, i) => ({ ...v, state: i === 0 ? ('asking' as const) : ('pending' as const) }));
    const first = vms[0]!;
    const [namespace, name] = first.vm.split('/') as [string, string];
    const gate = { ...restartGate({ vm: first.vm, namespace, name, node: first.node, migratable: false, launcher: 'v1.4.0' }, { key: `hop1.recover/restart/${first.vm}/gate`, why: first.why, confirmByName: false, restartWaitMs: 600_000, baseline: 'snapshot', position: { index: 1, total: vms.length } }), key: `hop1.recover/restart/${first.vm}/gate` } as GateRequest;
    const state = stateAt('hop1.recover', { status: 'awaitingApproval', gate, output: undefined, live: { headline: `${vms.length} VM(s) on the old launcher`, vms, baseline: 'snapshot', rehearsal: false } });
    const ui = mount(state, size, { gate });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM'));
    const lines = expectFits(frame, size);
    expect(frame).toContain('[r] Restart this VM');
    expect(frame).toMatch(/❯ \[s\] Skip/);
    expect(frame).toContain('[a] Abort recovery');
    expect(words(frame).match(/Why:/g) ?? []).toHaveLength(1);
    expect(frame).not.toContain(`${first.vm}: ${first.why.slice(0, 20)}`);
    // The options are the gate's last lines, right above its border: nothing pushed them down.
    const skipAt = lines.findIndex((l) => l.includes('[s] Skip'));
    expect(lines.slice(skipAt + 1).some((l) => l.includes('[a] Abort recovery'))).toBe(true);
    // The table takes the room the gate leaves: as many VM rows as fit, no run of empty rows under it.
    const gateRows = lines.slice(lines.findIndex((l) => l.includes('GATE:')) + 1, skipAt);
    const vmRows = gateRows.filter((l) => /vms-\d{3}\/vm-\d{5}/.test(l)).length;
    const blank = gateRows.filter((l) => /║\s*║\s*$/.test(l.slice(l.indexOf('║')))).length;
    expect(blank).toBeLessThanOrEqual(3);
    if (size.rows >= 40) expect(vmRows).toBeGreaterThan(8);
  });

  it('the customizations review: the packs with their versions whole, the rules, and the keys', async () => {
    const gate: GateRequest = { gate: 'customize', key: 'customize/customize', title: 'Review the customizations', lines: [], options: [{ choice: 'approve', label: 'Continue with these values', key: 'c' }, { choice: 'skip', label: 'Apply my decisions and review again', key: 'a' }, { choice: 'abort', label: 'Stop here (session saved)', key: 's' }], safeChoice: 'approve', inline: true, informational: true };
    const ui = mount(stateAt('customize', { status: 'awaitingApproval', gate }), size, { gate });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('RULES'));
    expectFits(frame, size);
    const packs = customizeOut.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs));
    const shown = packs.filter((p) => frame.includes(p.name));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    for (const p of shown) expect(frame).toContain(`${p.from} → ${p.tag}`);
    // The review's keys: in full where there is room, on one line (the rest in help) where there is not.
    expect(words(frame)).toMatch(size.rows >= 40 ? /Tab packs\/differences .* a apply and review/ : /Tab ↑↓ · Enter whole · \/ search · d diff · \? keys/);
    expect(frame).toMatch(/c continue/);
  });

  it('a conflict opens whole, then its chooser shows every option, the focus on one', async () => {
    const withConflict = structuredClone(customizeOut);
    const pack = withConflict.byHop[0]!.profiles[0]!.packs[0]!;
    pack.counts.conflict += 1;
    pack.entries.unshift({ path: 'charts.kubevirt.kubevirtResource.additionalFeatureGates', label: 'conflict', deployed: ['LiveMigration', 'Snapshot', 'SMM'], newDefault: ['LiveMigration', 'Snapshot', 'VMExport', 'HotplugNICs'], result: ['LiveMigration', 'Snapshot', 'SMM'], suggestion: ['LiveMigration', 'Snapshot', 'VMExport', 'HotplugNICs', 'SMM'], decision: 'merged', note: 'both sides changed this list: the site added SMM, the new version added VMExport and HotplugNICs; merging keeps every item of both, in the new version’s order, then the site’s' });
    const gate: GateRequest = { gate: 'customize', key: 'customize/customize', title: 'Review the customizations', lines: [], options: [{ choice: 'approve', label: 'Continue with these values', key: 'c' }], safeChoice: 'approve', inline: true, informational: true };
    const ui = mount(stateAt('customize', { status: 'awaitingApproval', gate, output: withConflict }), size, { gate });
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES'));
    await press(ui.stdin, keys.tab, keys.enter);
    const whole = await waitForFrame(ui.lastFrame, (f) => f.includes('Decision now: merge both (proposed)'));
    expectFits(whole, size);
    // Wrapped at its dots and commas, never cut: the rows joined hold the path and both values whole.
    const joined = pane(whole).replace(/\s+/g, '');
    expect(joined).toContain('path:charts.kubevirt.kubevirtResource.additionalFeatureGates');
    expect(joined).toContain('site(deployed):["LiveMigration","Snapshot","SMM"]');
    expect(joined).toContain('newdefault:["LiveMigration","Snapshot","VMExport","HotplugNICs"]');
    await press(ui.stdin, keys.enter);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('What should the draft hold?'));
    expectFits(frame, size);
    for (const o of ['Keep the site value', 'Take the new default', 'Merge both lists', 'Enter a value', 'Back to the proposal']) expect(words(frame)).toContain(o);
    expect(frame).toMatch(/❯ Keep the site value/);
    expect(frame).toMatch(/↑↓ move · Enter choose · Esc back/); // the chooser's last line: nothing of it below the screen
    await press(ui.stdin, keys.down, keys.down);
    expect(await waitForFrame(ui.lastFrame, (f) => /❯ Merge both lists/.test(f))).toContain('Back to the proposal');
  });

  it('a failed run: every line of the error’s what-to-do can be reached (PgDn, G), and the key line says how', async () => {
    const hint = Array.from({ length: 14 }, (_, i) => `Step ${i + 1}: check the node vmo-worker-${String(i).padStart(3, '0')} (kubectl describe node vmo-worker-${String(i).padStart(3, '0')}).`).join('\n');
    const error = new StepFailedError('reconcile.timeout', 'The cluster did not reconcile to the new profiles within 45m.', { hint });
    const state = stateAt('hop1.reconcile', { status: 'failed', error: error.toInfo() });
    state.run = { ...state.run, status: 'failed' };
    const ui = mount(state, size, { outcome: { status: 'failed', error } });
    // Once measured: the whole of it on screen, or the key line saying how to scroll to the rest.
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('q exit') && (f.includes('Step 14: check the node vmo-worker-013') || f.includes('PgDn PgUp g G scroll')));
    expectFits(frame, size);
    if (!frame.includes('Step 14: check the node vmo-worker-013')) {
      // Longer than the screen: the key line says how to reach the rest, and the keys reach it.
      expect(frame.split('\n').at(-1)).toMatch(/PgDn PgUp g G scroll \(rows 1-\d+ of \d+\)/);
      await press(ui.stdin, keys.pageDown);
      frame = await waitForFrame(ui.lastFrame, (f) => /rows (?!1-)\d+-\d+ of \d+/.test(f));
      await press(ui.stdin, 'G');
      frame = await waitForFrame(ui.lastFrame, (f) => f.includes('Step 14: check the node vmo-worker-013'));
      expectFits(frame, size);
      for (let i = 0; i < 4 && !frame.includes('What to do: Step 1:'); i++) {
        await press(ui.stdin, keys.pageUp);
        frame = plain(ui.lastFrame());
      }
      expect(frame).toContain('What to do: Step 1:');
      await press(ui.stdin, 'g');
      await waitForFrame(ui.lastFrame, (f) => f.includes('STOPPED: a step failed'));
    } else {
      expect(frame).toContain('What to do');
    }
  });
});

it('a resize redraws the whole frame at the new size: nothing of the old one is left', async () => {
  const ui = mount(stateAt('plan', { status: 'succeeded' }), { columns: 120, rows: 40 });
  await waitForFrame(ui.lastFrame, (f) => f.includes('4.5.4 → 4.6.3'));
  ui.resize(80, 24);
  const frame = await waitForFrame(ui.lastFrame, (f) => f.split('\n').length < 24 && f.split('\n').every((l) => l.length <= 80) && f.includes('4.5.4 → 4.6.3'));
  expectFits(frame, { columns: 80, rows: 24 });
});
