/**
 * The exit-code table (README) held in the TUI: the whole CLI (`main`) on a terminal of 80x24 or
 * 120x40, test step kinds and scripted effects, keys typed as an operator types them, the code it
 * ends with and the status its journal keeps. 0 done, 1 a failure, 2 bad input, 3 a gate awaiting
 * approval or a stop the operator chose (declined, "stop here", q), 4 the environment, 130 Ctrl+C.
 * Plain mode's table is test/e2e/exit-codes.test.ts (the bundled CLI against served labs).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { fakeEffects, fakeWorld, type FakeWorld } from '../support/fake-effects.js';
import { testSteps } from '../support/test-steps.js';
import { NOT_ARMED_YET } from '../../src/screens/keys/gate-model.js';
import { keys, press, SizedStdout, TestStdin, waitForFrame, words } from '../support/ui.js';

/** A runbook of these steps, its gates taking keys after 1 ms (the guard itself is gate-keys.test.tsx's). */
function runbook(steps: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'up-exit-tui-'));
  const file = join(dir, 'rb.yaml');
  writeFileSync(file, `apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: exit-codes, title: Exit codes }\nsettings: { gateGuard: 1ms }\nsteps:\n${steps}`);
  return file;
}

/** `upgrade-pilot ARGV` on a terminal of `size`: its frames, its keyboard, and the code it ends with. */
function onTerminal(argv: string[], size = { columns: 80, rows: 24 }, world: FakeWorld = fakeWorld()) {
  const stdout = new SizedStdout(size.columns, size.rows);
  const stdin = new TestStdin();
  const stderr = new PassThrough();
  let errors = '';
  stderr.on('data', (d: Buffer) => (errors += d.toString()));
  const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, env: {} };
  const code = main(argv, io, { registry: testSteps(), effects: (input) => fakeEffects(world, input.confirm), inkDebug: true });
  const frame = (test: (f: string) => boolean, timeoutMs?: number) => waitForFrame(stdout.lastFrame, test, timeoutMs);
  return { code, stdin, frame, errors: () => errors, world };
}

/** The journal's end: the run's status and the reason it keeps. */
function status(stateDir: string): { status: string; reason?: string } {
  const store = new SessionStore(stateDir, new Redactor());
  const state = store.load(store.latestId());
  return { status: state.run.status, ...(state.run.reason ? { reason: state.run.reason } : {}) };
}

const state = () => mkdtempSync(join(tmpdir(), 'up-exit-tui-state-'));

describe('exit codes in the TUI', () => {
  it('0: done (the last frame waits for q)', async () => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook('  - { id: w, kind: gated-write, title: Write draft }\n'), '--state-dir', dir]);
    const last = tracking(t);
    await last.frame((f) => f.includes('GATE: Write draft'));
    await last.answer('y', (f) => f.includes('DONE: every step finished'));
    await press(t.stdin, 'q');
    expect(await t.code).toBe(0);
    expect(status(dir).status).toBe('done');
    expect(t.world.sent).toHaveLength(1);
  });

  it.each<[string, string, number, string]>([
    ['1: a step failed', '  - { id: f, kind: fail, title: Failing step, with: { message: the check is red } }\n', 1, 'failed'],
    ['4: the environment refused', '  - { id: f, kind: fail, title: Reading, with: { message: the API did not answer, environment: true } }\n', 4, 'failed'],
  ])('%s', async (_what, steps, code, journaled) => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook(steps), '--state-dir', dir]);
    const frame = await t.frame((f) => f.includes('STOPPED: a step failed') || f.includes('STEP FAILED'));
    expect(frame).not.toContain('DONE');
    await press(t.stdin, 'q');
    expect(await t.code).toBe(code);
    expect(status(dir).status).toBe(journaled);
  });

  it.each<[string, string[]]>([
    ['2: an unknown flag, before anything is drawn', ['start', '--frobnicate']],
    ['2: a runbook file that is not there', ['start', '--runbook', '/nonexistent/rb.yaml']],
    ['2: a kubeconfig named that is not there', ['start', '--runbook', 'test/fixtures/runbooks/test.yaml', '--kubeconfig', '/nonexistent/kubeconfig']],
  ])('%s', async (_what, argv) => {
    const dir = state();
    const t = onTerminal([...argv, '--state-dir', dir]);
    expect(await t.code).toBe(2);
    expect(t.errors()).toMatch(/^error: /);
    expect(new SessionStore(dir, new Redactor()).ids()).toEqual([]); // nothing half-done: no session
  });

  it.each<[string, { columns: number; rows: number }]>([
    ['80x24', { columns: 80, rows: 24 }],
    ['120x40', { columns: 120, rows: 40 }],
  ])('3: "Not now" at the health gate is a stop the operator chose, not an interruption (%s); the stop says what to fix first', async (_size, size) => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook('  - { id: health, kind: unwell }\n  - { id: w, kind: gated-write }\n'), '--state-dir', dir], size);
    const last = tracking(t);
    const gate = await last.frame((f) => words(f).includes('upgrade it anyway?') && f.includes('[n] Not now'));
    expect(words(gate)).toContain('Preflight found 1 problem(s) in 1 red check(s).');
    const stopped = await last.answer('n', (f) => f.includes('⏸ STOPPED'));
    expect(words(stopped)).toMatch(/Fix the red checks, then start again\. Or resume and approve the health gate\./);
    await press(t.stdin, 'q');
    expect(await t.code).toBe(3);
    expect(status(dir)).toMatchObject({ status: 'stopped', reason: expect.stringMatching(/was declined/) });
    expect(t.world.sent).toEqual([]);
  });

  it('3: "Stop here" at a review', async () => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook('  - { id: review, kind: review }\n  - { id: w, kind: gated-write }\n'), '--state-dir', dir], { columns: 120, rows: 40 });
    const last = tracking(t);
    await last.frame((f) => f.includes('GATE: Review the values'));
    await last.answer('s', (f) => f.includes('⏸ STOPPED'));
    await press(t.stdin, 'q');
    expect(await t.code).toBe(3);
    expect(status(dir).status).toBe('stopped');
  });

  it('3: q, then Quit, at a gate leaves it unanswered (awaiting approval)', async () => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook('  - { id: w, kind: gated-write, title: Write draft }\n'), '--state-dir', dir]);
    const last = tracking(t);
    await last.frame((f) => f.includes('GATE: Write draft'));
    await press(t.stdin, 'q');
    await last.frame((f) => f.includes('Quit upgrade-pilot?'));
    await press(t.stdin, 'y');
    expect(await t.code).toBe(3);
    expect(status(dir).status).toBe('awaitingApproval');
  });

  it.each<[string, string, number, string]>([
    ['3: q, then Quit, while a step runs: the operator’s stop', 'q', 3, 'stopped'],
    ['130: Ctrl+C while a step runs: an interruption', keys.ctrlC, 130, 'interrupted'],
  ])('%s', async (_what, key, code, journaled) => {
    const dir = state();
    const t = onTerminal(['start', '--runbook', runbook('  - { id: wait, kind: slow, title: Waiting, with: { ms: 60000, ticks: 5 } }\n  - { id: w, kind: gated-write }\n'), '--state-dir', dir]);
    const last = tracking(t);
    await last.frame((f) => f.includes('tick 1/5'));
    await press(t.stdin, key);
    if (key === 'q') {
      await last.frame((f) => f.includes('Quit upgrade-pilot?'));
      await press(t.stdin, 'y');
    }
    expect(await t.code).toBe(code);
    expect(status(dir).status).toBe(journaled);
    expect(t.world.sent).toEqual([]);
  });
});

/**
 * Waiting on the terminal's frames, and answering a gate once it takes keys: a key inside its guard
 * time would be dropped, by design, and the key line says so until the guard time is over.
 */
function tracking(t: ReturnType<typeof onTerminal>) {
  return {
    frame: (test: (f: string) => boolean) => t.frame(test),
    async answer(key: string, then: (f: string) => boolean): Promise<string> {
      await t.frame((f) => !f.includes(NOT_ARMED_YET));
      await press(t.stdin, key);
      return t.frame(then);
    },
  };
}
