import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/run/exit-code.js';
import { GateStopError, StoppedError } from '../../src/errors.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep, steps } from '../../src/engine/state.js';
import { harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';

const testRunbook = readFileSync('test/fixtures/runbooks/test.yaml', 'utf8');
const approveDraft = { ...noApprovals, gates: ['draft'] };

describe('runner', () => {
  it('walks every step, expands one group instance per hop, and sends each mutation once', async () => {
    const h = harness(testRunbook);
    const outcome = await h.runner({ approvals: approveDraft }).run();
    expect(outcome.status).toBe('done');
    const state = h.store.load(h.id);
    expect(steps(state).map((s) => `${s.id}:${s.status}`)).toEqual([
      'first:succeeded',
      'plan:succeeded',
      'hop1.write:succeeded',
      'hop1.after:succeeded',
      'hop2.write:succeeded',
      'hop2.after:succeeded',
      'last:succeeded',
    ]);
    expect(findStep(state, 'hop2.after')?.hop).toEqual({ index: 2, count: 2, from: '1.1.0', to: '1.2.0' });
    expect(h.world.sent).toHaveLength(2);
    expect(state.mutations['hop1.write/put']).toMatchObject({ outcome: 'sent', approval: { gateKey: 'hop1.write/draft', by: 'flag' } });
    expect(state.run.status).toBe('done');
  });

  it("hands the API's answer to the step that asked for it (a clone's uid); a rehearsal has none; steps that did not ask still send", async () => {
    const yaml = testRunbook.replace(/kind: gated-write/, 'kind: gated-write\n        with: { wantAnswer: true }');
    expect(yaml).not.toBe(testRunbook);
    const h = harness(yaml);
    expect((await h.runner({ approvals: approveDraft }).run()).status).toBe('done');
    const state = h.store.load(h.id);
    expect(findStep(state, 'hop1.write')?.output).toEqual({ outcome: 'sent', answers: [{ answered: '/v1/clusterprofiles/p1' }] });
    expect(h.world.sent).toHaveLength(2);
    const rehearsal = harness(yaml, { dryRun: true });
    expect((await rehearsal.runner().run()).status).toBe('done');
    expect(findStep(rehearsal.store.load(rehearsal.id), 'hop1.write')?.output).toEqual({ outcome: 'recorded', answers: [null] }); // undefined, as JSON keeps it
    expect(rehearsal.world.sent).toEqual([]);
  });

  it('runs the ifEmpty steps when the plan has no hops', async () => {
    const h = harness(testRunbook.replace(/hops:\n        - \{[^\n]+\n        - \{[^\n]+\n/, 'hops: []\n'));
    expect((await h.runner().run()).status).toBe('done');
    expect(steps(h.store.load(h.id)).map((s) => s.id)).toEqual(['first', 'plan', 'hop.nothing', 'last']);
  });

  it('stops at a gate without approval (nothing sent), and a resume with the approval finishes', async () => {
    const h = harness(testRunbook);
    const first = await h.runner().run();
    expect(first.status).toBe('awaitingApproval');
    expect(first.status !== 'done' && first.error).toBeInstanceOf(GateStopError);
    expect((first as unknown as { error: GateStopError }).error.pending).toEqual([{ gate: 'draft', title: 'Write draft /v1/clusterprofiles/p1', flag: '--approve draft' }]);
    expect(h.world.sent).toHaveLength(0);
    const stopped = h.store.load(h.id);
    expect(findStep(stopped, 'hop1.write')?.status).toBe('awaitingApproval');
    expect(findStep(stopped, 'first')?.output).toEqual({ value: 1, hop: null });

    expect((await h.runner({ approvals: approveDraft }).run()).status).toBe('done');
    expect(h.world.sent).toHaveLength(2);
    expect(h.store.load(h.id).run.resumes).toBe(1);
  });

  it('a rehearsal records every mutation and sends none', async () => {
    const h = harness(testRunbook, { dryRun: true });
    expect((await h.runner().run()).status).toBe('done');
    expect(h.world.sent).toHaveLength(0);
    const state = h.store.load(h.id);
    expect(Object.values(state.mutations).map((m) => [m.key, m.outcome, m.dryRun])).toEqual([
      ['hop1.write/put', 'recorded', true],
      ['hop2.write/put', 'recorded', true],
    ]);
    expect(findStep(state, 'hop1.write')?.decisions['hop1.write/draft']?.by).toBe('rehearsal');
  });

  it('after a crash between intent and result, reads the real state instead of sending again', async () => {
    const h = harness(testRunbook);
    // The first PUT reaches the server, then the connection breaks: an ambiguous failure.
    h.world.failNext = '/v1/clusterprofiles/p1';
    const first = await h.runner({ approvals: approveDraft }).run();
    expect(first.status).toBe('failed');
    expect(h.store.load(h.id).mutations['hop1.write/put']?.outcome).toBe('failed');
    // On resume the settle callback finds it applied: recorded as settled, not sent again.
    expect((await h.runner({ approvals: approveDraft }).run()).status).toBe('done');
    const state = h.store.load(h.id);
    expect(state.mutations['hop1.write/put']?.outcome).toBe('settled');
    expect(h.world.sent.map((r) => r.summary)).toEqual(['write /v1/clusterprofiles/p1']);
  });

  it('an intent without a result and no way to settle it is refused, not repeated', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: vms, kind: restart-each, with: { vms: [ns/a] } }
`);
    const s = h.store.open(h.id);
    s.append({ type: 'step.started', at: new Date().toISOString(), id: 'vms' });
    s.append({ type: 'mutation.intent', at: new Date().toISOString(), key: 'vms/restart/ns/a', stepId: 'vms', request: { target: 'kube', program: 'kubectl', argv: ['x'], summary: 'restart ns/a' }, dryRun: false });
    s.close();
    const outcome = await h.runner({ approvals: { ...noApprovals, allRestarts: true } }).run();
    expect(outcome.status).toBe('failed');
    expect(outcome.status !== 'done' && ('toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error).message).toMatch(/Cannot tell whether "restart ns\/a" took effect/);
    expect(h.world.sent).toHaveLength(0);
  });

  it('per-VM gates: approved VMs restart, the unapproved ones are listed and stop the run', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: vms, kind: restart-each, with: { vms: [ns/a, ns/b, ns/c] } }
`);
    const first = await h.runner({ approvals: { ...noApprovals, restarts: ['ns/a', 'ns/c'] } }).run();
    expect(first.status).toBe('awaitingApproval');
    expect((first as unknown as { error: GateStopError }).error.pending.map((p) => p.flag)).toEqual(['--approve-restart ns/b']);
    expect(h.world.sent.map((r) => r.summary)).toEqual(['restart ns/a', 'restart ns/c']);
    // Resume skipping b: a and c are not restarted again.
    expect((await h.runner({ approvals: { ...noApprovals, skipRestarts: ['ns/b'] } }).run()).status).toBe('done');
    expect(h.world.sent.map((r) => r.summary)).toEqual(['restart ns/a', 'restart ns/c']);
    expect(findStep(h.store.load(h.id), 'vms')?.output).toEqual({ restarted: ['ns/a', 'ns/c'], skipped: ['ns/b'] });
  });

  it('a failed step stops the run with its message; resume runs it again', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: a, kind: noop }
  - { id: b, kind: fail, with: { message: storage is degraded } }
`);
    const out = await h.runner().run();
    expect(out.status).toBe('failed');
    const b = findStep(h.store.load(h.id), 'b')!;
    expect(b).toMatchObject({ status: 'failed', error: { message: 'storage is degraded', hint: 'fix it and resume' }, attempts: 1 });
    await h.runner().run();
    expect(findStep(h.store.load(h.id), 'b')?.attempts).toBe(2);
  });

  it('on resume, drift in a finished step asks before continuing', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: a, kind: noop }
  - { id: b, kind: gated-write }
`);
    expect((await h.runner().run()).status).toBe('awaitingApproval');
    const site = { extra: { drift: 'profile vmo-core is now at 1.9.0' } } as never;
    const stopped = await h.runner({ site, approvals: approveDraft }).run();
    expect(stopped.status).toBe('awaitingApproval');
    expect((stopped as unknown as { error: GateStopError }).error.pending[0]?.flag).toBe('--approve drift');
    expect(findStep(h.store.load(h.id), 'a')?.drift).toMatchObject({ ok: false, findings: ['profile vmo-core is now at 1.9.0'] });
    expect((await h.runner({ site, approvals: { ...approveDraft, gates: ['draft', 'drift'] } }).run()).status).toBe('done');
    // The answer to the drift gate is in the session's history (the report's decisions).
    expect(h.store.load(h.id).timeline?.find((e) => e.type === 'decided' && e.gate === 'drift')).toMatchObject({ step: 'session', choice: 'approve', by: 'flag', flag: '--approve drift' });
  });

  it('an abort stops at once and the session resumes where it was', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: a, kind: noop }
  - { id: wait, kind: slow, with: { ms: 200, ticks: 3 } }
  - { id: c, kind: noop }
`);
    // The wait's ticks sleep on a clock only the test moves: nothing ends them but the abort.
    const clock = new ManualClock();
    const ctrl = new AbortController();
    const runner = h.runner({ signal: ctrl.signal, clock });
    const run = runner.run();
    await clock.waitForSleepers();
    expect(findStep(runner.getState(), 'wait')?.live).toMatchObject({ headline: 'tick 1/3' });
    ctrl.abort();
    expect((await run).status).toBe('interrupted');
    expect(clock.sleeping).toBe(0); // the tick was cut short, not waited out
    const state = h.store.load(h.id);
    expect(findStep(state, 'a')).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(findStep(state, 'wait')?.status).toBe('running');
    expect(findStep(state, 'c')?.status).toBe('pending');
    expect(state.run.status).toBe('interrupted');

    // Resumed: the finished step is not run again; the interrupted one runs from its start, then the rest.
    const resumed = await clock.runUntilSettled(h.runner({ clock }).run());
    expect(resumed.status).toBe('done');
    const after = h.store.load(h.id);
    expect(after.run.resumes).toBe(1);
    expect(findStep(after, 'a')).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(findStep(after, 'wait')).toMatchObject({ status: 'succeeded', attempts: 2, output: { ticks: 3 } });
    expect(findStep(after, 'c')).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('a decline the operator chose ends the run stopped (exit 3), not interrupted; the step is asked again on resume', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: health, kind: unwell }
  - { id: c, kind: noop }
`);
    const declined = await h.runner({ confirm: async () => ({ choice: 'abort', by: 'operator', key: 'n', at: new Date().toISOString() }) }).run();
    expect(declined.status).toBe('stopped');
    expect(declined.status !== 'done' && declined.error).toBeInstanceOf(StoppedError);
    expect(exitCodeFor(declined)).toBe(3);
    const state = h.store.load(h.id);
    expect(state.run.status).toBe('stopped');
    expect(findStep(state, 'health')?.status).toBe('running'); // not failed: nothing went wrong
    expect(state.run.error?.hint).toMatch(/^Fix the red checks, then start again\. Or resume/);
    expect((await h.runner({ approvals: { ...noApprovals, gates: ['health'] } }).run()).status).toBe('done');
  });

  it.each<[string, unknown, string, number]>([
    ['the operator’s stop (q while a step runs)', new StoppedError('Stopped by the operator (q, then Quit) while a step ran; the session is saved.', { next: 'Resume the session.' }, 'stopped.quit'), 'stopped', 3],
    ['a signal (Ctrl+C)', undefined, 'interrupted', 130],
  ])('an abort for %s ends %s (exit %i)', async (_what, reason, status, code) => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: wait, kind: slow, with: { ms: 200, ticks: 3 } }
`);
    const clock = new ManualClock();
    const ctrl = new AbortController();
    const run = h.runner({ signal: ctrl.signal, clock }).run();
    await clock.waitForSleepers();
    ctrl.abort(reason);
    const outcome = await run;
    expect(outcome.status).toBe(status);
    expect(exitCodeFor(outcome)).toBe(code);
    expect(h.store.load(h.id).run.status).toBe(status);
  });

  it('where no resume can work (noResume), a stop at a gate says what to do instead and names no resume', async () => {
    const h = harness(testRunbook);
    const ended = 'This lab ended with its process: start it again.';
    const first = await h.runner({ noResume: ended }).run();
    expect(first.status).toBe('awaitingApproval');
    const hint = h.store.load(h.id).run.error?.hint ?? '';
    expect(hint).toBe(ended);
    expect(hint).not.toMatch(/resume|--approve/);
  });
});
