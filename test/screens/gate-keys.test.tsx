/**
 * The key sequences that approved things by accident (issue 14), replayed through the real App
 * over the real runner: each asserts that nothing was sent and which gate is on screen.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { exitCodeFor } from '../../src/run/exit-code.js';
import { harness, type Harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { NOT_ARMED_YET } from '../../src/screens/keys/gate-model.js';
import { keys, pane, press, waitForFrame, words } from '../support/ui.js';
import { until } from '../support/wait.js';

const runbook = (steps: string) => `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: keys, title: Gate keys }
steps:
${steps}`;

const twoDrafts = runbook(`  - { id: first, kind: noop, title: First step }
  - { id: infra, kind: gated-write, title: Draft infra, with: { path: /v1/clusterprofiles/infra } }
  - { id: addon, kind: gated-write, title: Draft add-on, with: { path: /v1/clusterprofiles/addon } }
`);

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

/** `guardClock`: the gate guard's clock, moved by hand; `clock`: the steps' clock (the runner's sleeps). */
function mount(h: Harness, opts: { gateGuardMs?: number; guardClock?: ManualClock; clock?: ManualClock } = {}) {
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  const runner = h.runner({ confirm: tuiConfirm(queue, noApprovals, false), signal: ctrl.signal, ...(opts.clock ? { clock: opts.clock } : {}) });
  const outcome = runner.run();
  const controller = { source: runner, queue, rehearsal: false, outcome, stop: () => ctrl.abort(), ...(opts.gateGuardMs !== undefined ? { gateGuardMs: opts.gateGuardMs } : {}), ...(opts.guardClock ? { guardClock: opts.guardClock.now } : {}) };
  const ui = render(<App controller={controller} />);
  unmount = () => {
    ctrl.abort();
    ui.unmount();
  };
  return { ui, outcome, runner, queue };
}

const sentPaths = (h: Harness) => h.world.sent.map((m) => (m.target === 'palette' ? m.path : ''));

describe('a gate takes only keys meant for it', () => {
  // The same keys twice, on the guard's clock: the second y reaches the next gate (drawn when it is
  // typed) and only its guard time decides whether it counts. Dropped inside it, taken after it.
  it.each([
    ['inside its guard time: dropped', 0, ['/v1/clusterprofiles/infra']],
    ['after its guard time: it writes the second draft', 600, ['/v1/clusterprofiles/infra', '/v1/clusterprofiles/addon']],
  ])('yy at a draft gate, the second y at the next gate %s', async (_name, elapsed, sent) => {
    const h = harness(twoDrafts);
    const guard = new ManualClock();
    const { ui, runner, queue } = mount(h, { gateGuardMs: 500, guardClock: guard });
    const first = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    // It says that keys do not count yet (in words: without colour, dim options look like the others).
    expect(first).toContain(NOT_ARMED_YET);
    // A y as the gate appears is dropped too.
    await press(ui.stdin, 'y');
    expect(queue.current()?.title).toBe('Write draft /v1/clusterprofiles/infra');
    guard.advance(600);
    await press(ui.stdin, 'y');
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/addon'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    guard.advance(elapsed);
    await press(ui.stdin, 'y');
    if (elapsed === 0) {
      // Nothing decided: the gate is still open (an answer closes it at once), and it stays open.
      expect(queue.current()?.title).toBe('Write draft /v1/clusterprofiles/addon');
      expect(findStep(runner.getState(), 'addon')?.status).toBe('awaitingApproval');
      expect(findStep(runner.getState(), 'addon')?.decisions).toEqual({});
    } else {
      await until('the second draft to be sent', () => h.world.sent.length === 2);
      expect(findStep(runner.getState(), 'addon')?.decisions['addon/draft']).toMatchObject({ choice: 'approve', by: 'operator', key: 'y' });
    }
    expect(sentPaths(h)).toEqual(sent);
    expect(findStep(runner.getState(), 'infra')?.decisions['infra/draft']).toMatchObject({ choice: 'approve', by: 'operator', key: 'y' });
  });

  it('q then Esc while a restart gate appears: q opens the quit question, Esc closes it; the gate decides nothing', async () => {
    const h = harness(
      runbook(`  - { id: watch, kind: slow, title: Watch migrations, with: { ms: 1000, ticks: 1 } }
  - { id: recover, kind: restart-each, title: Recover VMs, with: { vms: [vms/db-01] } }
`),
    );
    // The watch waits on a clock the test moves: it is on screen until the test ends its wait.
    const clock = new ManualClock();
    const { ui, runner, queue } = mount(h, { clock });
    await waitForFrame(ui.lastFrame, (f) => f.includes('tick 1/1'));
    await clock.waitForSleepers();
    await press(ui.stdin, 'q');
    await waitForFrame(ui.lastFrame, (f) => f.includes('Quit upgrade-pilot?'));
    // The watch ends; the restart gate opens behind the question.
    clock.advance(1000);
    await until('the restart gate to open', () => queue.current());
    expect(queue.current()?.title).toBe('Restart VM vms/db-01');
    await press(ui.stdin, keys.escape);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01') && !f.includes('Quit upgrade-pilot?'));
    expect(frame).toMatch(/❯ \[s\] Skip/);
    expect(findStep(runner.getState(), 'recover')?.decisions).toEqual({});
    expect(h.world.sent).toEqual([]);
    expect(queue.current()?.title).toBe('Restart VM vms/db-01');
  });

  it('↓ and ↑ from the safe default scroll; they never reach an approving option, and Enter then takes the safe one', async () => {
    const h = harness(twoDrafts);
    const { ui, outcome } = mount(h, { gateGuardMs: 0 });
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    await press(ui.stdin, keys.down, keys.down, keys.up, keys.up, keys.up);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    expect(frame).not.toMatch(/❯ \[y\]/);
    await press(ui.stdin, keys.enter);
    expect((await outcome).status).toBe('failed'); // declined: the test step fails on a no
    expect(h.world.sent).toEqual([]);
  });

  it('↑ at a restart gate (Skip in the middle) does not reach Restart; Enter skips, and the next VM’s gate shows', async () => {
    const h = harness(runbook(`  - { id: recover, kind: restart-each, with: { vms: [vms/db-01, vms/web-02] } }\n`));
    const { ui, runner } = mount(h, { gateGuardMs: 0 });
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01'));
    await press(ui.stdin, keys.up, keys.up, keys.enter);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/web-02'));
    expect(frame).toMatch(/❯ \[s\] Skip/);
    expect(h.world.sent).toEqual([]);
    expect(findStep(runner.getState(), 'recover')?.decisions['recover/restart/vms/db-01/gate']).toMatchObject({ choice: 'skip', key: 'Enter' });
  });

  it('↑ while looking at an earlier step ([) scrolls that step; the gate waits, and its focus has not moved when f brings it back', async () => {
    const h = harness(twoDrafts);
    const { ui } = mount(h, { gateGuardMs: 0 });
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    await press(ui.stdin, '[');
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('viewing First step'));
    expect(words(pane(frame))).toMatch(/⏸ f: back to the gate that waits for you: Write draft \/v1\/clust/);
    expect(frame).not.toContain('[y] Write draft'); // not on screen, so it takes no key
    await press(ui.stdin, keys.up, keys.up, keys.enter, 'y');
    await press(ui.stdin, 'f');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    expect(h.world.sent).toEqual([]);
  });

  it('Tab does not move a gate’s focus: Tab Tab Enter is the safe option', async () => {
    const h = harness(twoDrafts);
    const { ui, outcome } = mount(h, { gateGuardMs: 0 });
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    await press(ui.stdin, keys.tab, keys.tab);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    await press(ui.stdin, keys.enter);
    await outcome;
    expect(h.world.sent).toEqual([]);
  });

  describe('q decides nothing until the quit is confirmed', () => {
    const restartGate = runbook(`  - { id: recover, kind: restart-each, title: Recover VMs, with: { vms: [vms/db-01, vms/web-02] } }\n`);

    it.each([
      ['q n', ['q', 'n']],
      ['q Esc', ['q', keys.escape]],
    ])('%s at a restart gate: back to the same gate, still waiting, its focus kept, nothing recorded or sent', async (_name, sequence) => {
      const h = harness(restartGate);
      const { ui, runner, queue } = mount(h, { gateGuardMs: 0 });
      await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01'));
      await press(ui.stdin, keys.right); // focus on Abort recovery: Stay must find it there
      await press(ui.stdin, sequence[0]!);
      const ask = await waitForFrame(ui.lastFrame, (f) => f.includes('Quit upgrade-pilot?'));
      expect(words(ask)).toMatch(/The gate “Restart VM vms\/db-01” stays unanswered: nothing is approved or declined\. Stay goes back to it\./);
      expect(queue.current()?.title).toBe('Restart VM vms/db-01'); // the question answered nothing
      await press(ui.stdin, sequence[1]!);
      const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01') && !f.includes('Quit upgrade-pilot?'));
      expect(frame).toMatch(/❯ \[a\] Abort recovery/);
      expect(queue.current()?.title).toBe('Restart VM vms/db-01');
      expect(findStep(runner.getState(), 'recover')?.status).toBe('awaitingApproval');
      expect(findStep(runner.getState(), 'recover')?.decisions).toEqual({});
      expect(h.world.sent).toEqual([]);
      // Still the same gate, answered by its own key.
      await press(ui.stdin, 's');
      await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/web-02'));
      expect(findStep(runner.getState(), 'recover')?.decisions['recover/restart/vms/db-01/gate']).toMatchObject({ choice: 'skip', key: 's' });
    });

    it.each([
      ['q y', ['q', 'y']],
      ['q q', ['q', 'q']],
    ])('%s at a restart gate: the run stops at the gate, unanswered (exit 3), and a resume asks it again', async (_name, sequence) => {
      const h = harness(restartGate);
      const first = mount(h, { gateGuardMs: 0 });
      await waitForFrame(first.ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01'));
      await press(first.ui.stdin, ...sequence);
      const outcome = await first.outcome;
      expect(outcome.status).toBe('awaitingApproval');
      expect(exitCodeFor(outcome)).toBe(3);
      first.ui.unmount();
      const saved = h.store.load(h.id);
      expect(findStep(saved, 'recover')?.status).toBe('awaitingApproval');
      expect(findStep(saved, 'recover')?.decisions).toEqual({});
      expect(h.world.sent).toEqual([]);

      const second = mount(h, { gateGuardMs: 0 });
      const frame = await waitForFrame(second.ui.lastFrame, (f) => f.includes('GATE: Restart VM vms/db-01'));
      expect(frame).toMatch(/❯ \[s\] Skip/);
    });

    it('q n y typed in a hurry: Stay puts the gate back on screen, and a y inside its guard time approves nothing', async () => {
      const h = harness(twoDrafts);
      const guard = new ManualClock();
      const { ui, runner, queue } = mount(h, { gateGuardMs: 500, guardClock: guard });
      await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
      guard.advance(600);
      await press(ui.stdin, 'q');
      await waitForFrame(ui.lastFrame, (f) => f.includes('Quit upgrade-pilot?'));
      await press(ui.stdin, 'n', 'y');
      await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra') && !f.includes('Quit upgrade-pilot?'));
      expect(queue.current()?.title).toBe('Write draft /v1/clusterprofiles/infra');
      expect(findStep(runner.getState(), 'infra')?.decisions).toEqual({});
      expect(h.world.sent).toEqual([]);
      // Once the gate has been back on screen for its guard time, its own key counts.
      guard.advance(600);
      await press(ui.stdin, 'y');
      await until('the first draft to be sent', () => h.world.sent.length === 1);
    });
  });

  it('a paste (several keys in one read) chooses nothing', async () => {
    const h = harness(twoDrafts);
    const { ui, queue } = mount(h, { gateGuardMs: 0 });
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    await press(ui.stdin, 'yy', 'y\r');
    // An answer would have closed the gate in the key's own handler.
    expect(queue.current()?.title).toBe('Write draft /v1/clusterprofiles/infra');
    expect(h.world.sent).toEqual([]);
    expect(plainGate(ui.lastFrame())).toContain('GATE: Write draft /v1/clusterprofiles/infra');
  });
});

const plainGate = (frame: string | undefined) => words(frame ?? '');
