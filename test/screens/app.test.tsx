import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { harness, type Harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { keys, press, pressAndWait, waitForFrame, words } from '../support/ui.js';

const runbook = (steps: string) => `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: tui, title: TUI test runbook }
steps:
${steps}`;

/** `clock`: the steps' clock; a ManualClock holds a slow step on screen until the test is done with it. */
function mount(h: Harness, opts: { rehearsal?: boolean; clock?: ManualClock } = {}) {
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  const runner = h.runner({ confirm: tuiConfirm(queue, noApprovals, opts.rehearsal ?? false), signal: ctrl.signal, ...(opts.rehearsal ? { dryRun: true } : {}), ...(opts.clock ? { clock: opts.clock } : {}) });
  const outcome = runner.run();
  const ui = render(<App controller={{ source: runner, queue, rehearsal: opts.rehearsal ?? false, outcome, stop: (reason) => ctrl.abort(reason), gateGuardMs: 0 }} />);
  return { ui, outcome, runner };
}

describe('TUI', () => {
  it('walks a runbook with keys: a gate approved with its shortcut, the next declined with Esc', async () => {
    const h = harness(runbook(`  - { id: first, kind: noop, title: First step }
  - { id: plan, kind: emit-hops, with: { hops: [{ from: "1.0", to: "1.1" }, { from: "1.1", to: "1.2" }] } }
  - id: hop
    forEach: hops
    steps:
      - { id: write, kind: gated-write, title: Write draft }
`));
    const { ui, outcome } = mount(h);
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft'));
    expect(frame).toContain('LIVE');
    // The gate takes the whole width; the line above it says where it is.
    expect(frame).toContain('Hop 1/2: 1.0 → 1.1 · Write draft · step 3 of 4');
    expect(frame).not.toContain('First step');
    // [ shows the steps (the gate waits, drawn again on f).
    await press(ui.stdin, '[');
    expect(await waitForFrame(ui.lastFrame, (f) => f.includes('✔ First step'))).toContain('viewing');
    await press(ui.stdin, 'f');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft'));
    expect(frame).toMatch(/❯ \[n\] Not now \(stop here, session saved\) \(safe default\)/); // the safe option is focused
    expect(frame).toContain('[y] Write draft');
    await press(ui.stdin, 'y');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('Hop 2/2') && f.includes('GATE: Write draft'));
    expect(h.world.sent).toHaveLength(1);
    await press(ui.stdin, keys.escape);
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('STEP FAILED'));
    expect(frame).toContain('declined by the operator');
    expect(frame).toMatch(/Continue with: upgrade-pilot resume/);
    expect((await outcome).status).toBe('failed');
    expect(h.world.sent).toHaveLength(1);
    ui.unmount();
  });

  it('asks to type the name before approving when the gate requires it', async () => {
    const h = harness(runbook(`  - { id: w, kind: gated-write, with: { confirmText: vm-alpha } }\n`));
    const { ui, outcome } = mount(h);
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE:'));
    await press(ui.stdin, 'y');
    await waitForFrame(ui.lastFrame, (f) => f.includes('Type vm-alpha to confirm'));
    await press(ui.stdin, ...'vm-beta', keys.enter);
    await waitForFrame(ui.lastFrame, (f) => f.includes('That does not match vm-alpha; nothing was approved.'));
    expect(h.world.sent).toHaveLength(0);
    await press(ui.stdin, ...Array(7).fill(keys.backspace), ...'vm-alpha', keys.enter);
    await waitForFrame(ui.lastFrame, (f) => f.includes('DONE: every step finished.'));
    expect((await outcome).status).toBe('done');
    expect(h.world.sent).toHaveLength(1);
    ui.unmount();
  });

  it('q asks first, saves, and a resume continues at the right step with earlier outputs intact', async () => {
    const h = harness(runbook(`  - { id: first, kind: noop, title: First step, with: { value: 42 } }
  - { id: wait, kind: slow, title: Waiting, with: { ms: 100, ticks: 100 } }
  - { id: last, kind: noop, title: Last step }
`));
    const first = mount(h, { clock: new ManualClock() });
    await waitForFrame(first.ui.lastFrame, (f) => f.includes('tick '));
    await press(first.ui.stdin, 'q');
    const ask = await waitForFrame(first.ui.lastFrame, (f) => f.includes('Quit upgrade-pilot?'));
    expect(words(ask)).toMatch(/The session is saved\. Continue later with: upgrade-pilot resume test-session-/);
    await press(first.ui.stdin, 'y');
    // Quitting is the operator's stop (exit 3), not an interruption (Ctrl+C, 130).
    expect((await first.outcome).status).toBe('stopped');
    first.ui.unmount();
    expect(findStep(h.store.load(h.id), 'wait')?.status).toBe('running');

    const second = mount(h, { clock: new ManualClock() });
    let frame = await waitForFrame(second.ui.lastFrame, (f) => f.includes('tick ') && f.includes('▶ Waiting'));
    expect(frame).toContain('✔ First step');
    expect(frame).toContain('▶ Waiting');
    await press(second.ui.stdin, '[');
    frame = await waitForFrame(second.ui.lastFrame, (f) => f.includes('value: 42'));
    expect(frame).toContain('viewing First step');
    await press(second.ui.stdin, 'f');
    await waitForFrame(second.ui.lastFrame, (f) => !f.includes('viewing First step'));
    second.ui.unmount();
    const state = h.store.load(h.id);
    expect(findStep(state, 'first')?.output).toEqual({ value: 42, hop: null });
    expect(state.run.resumes).toBe(1);
  });

  it('? shows the help and Esc closes it', async () => {
    const h = harness(runbook(`  - { id: wait, kind: slow, with: { ms: 100, ticks: 50 } }\n`));
    const { ui } = mount(h, { clock: new ManualClock() });
    await waitForFrame(ui.lastFrame, (f) => f.includes('tick'));
    const help = await pressAndWait(ui, ['?'], (f) => f.includes('Help'));
    expect(words(help)).toMatch(/Esc the safe option: never approves anything/);
    await pressAndWait(ui, [keys.escape], (f) => !f.includes('never approves anything'));
    ui.unmount();
  });

  it('in a rehearsal the gate is shown for information and continues on Enter', async () => {
    const h = harness(runbook(`  - { id: w, kind: gated-write }\n`), { dryRun: true });
    const { ui, outcome } = mount(h, { rehearsal: true });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('[REHEARSAL] GATE:'));
    expect(frame).toContain('REHEARSAL');
    expect(frame).toContain('Continue (rehearsal: nothing is sent)');
    await press(ui.stdin, keys.enter);
    expect((await outcome).status).toBe('done');
    expect(h.world.sent).toHaveLength(0);
    ui.unmount();
  });
});
