import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import type { VerifyOutput } from '../../src/steps/verify/verify.js';
import { labRun } from '../support/lab-harness.js';
import { keys, pane, press, waitForFrame, words } from '../support/ui.js';
import { until } from '../support/wait.js';

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

describe('verify screen', () => {
  it('shows panels with status words, expands evidence on Enter, re-runs on r, finishes on f', async () => {
    lab = await startLab({ scenario: 'degraded', stateDir: mkdtempSync(join(tmpdir(), 'up-vscreen-')), speed: 1, seed: 5 });
    const run = labRun(lab, 'test/fixtures/runbooks/checks.yaml');
    const queue = new ConfirmQueue();
    const runner = run.runner({ confirm: tuiConfirm(queue, noApprovals, false) });
    const outcome = runner.run();
    const ui = render(<App controller={{ source: runner, queue, rehearsal: false, outcome, stop: () => undefined, gateGuardMs: 0 }} />);
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('f finish with these results') && / FAIL +Storage /.test(f), 60_000);
    expect(frame).toMatch(/❯FAIL +VM orchestration and data importer/); // the first panel that is not green has the focus
    expect(frame).not.toMatch(/9\.3\.\d/); // the spec's section numbers are for the report
    expect(frame).toMatch(/r re-run the checks/);
    await press(ui.stdin, keys.down, keys.down); // to the storage check
    frame = await waitForFrame(ui.lastFrame, (f) => /❯FAIL +Storage/.test(f) && f.includes('2 storage problem(s).'));
    expect(words(pane(frame))).not.toMatch(/phase Degraded/); // evidence collapsed
    await press(ui.stdin, keys.enter);
    frame = await waitForFrame(ui.lastFrame, (f) => words(pane(f)).includes('storage cluster portworx/px-cluster: phase Degraded'));
    expect(words(pane(frame))).toMatch(/What to do: A missing name, annotation or parameter/);
    const firstReview = queue.current()?.key;
    expect(firstReview).toMatch(/^verify\/review\/\d+\.1$/);
    await press(ui.stdin, 'r');
    // Round 2 may run too fast for its "running" line to be drawn: wait for its own review gate.
    const secondReview = await until('the review of round 2', () => queue.current()?.key.match(/^verify\/review\/\d+\.2$/)?.[0], 60_000);
    expect(findStep(runner.getState(), 'verify')?.decisions[firstReview!]).toMatchObject({ choice: 'approve', key: 'r' });
    await waitForFrame(ui.lastFrame, (f) => f.includes('f finish with these results') && !f.includes('running the checks'), 60_000);
    expect(queue.current()?.key).toBe(secondReview);
    await press(ui.stdin, 'f');
    expect((await outcome).status).toBe('failed');
    const out = findStep(run.store.load(run.id), 'verify')!.output as VerifyOutput;
    expect(out.rounds).toBe(2);
    expect(out.overall).toBe('fail');
    ui.unmount();
    // Two rounds of checks against a lab through kubectl: many seconds on a loaded machine; the
    // limits here only turn a hang into a failure.
  }, 180_000);
});
