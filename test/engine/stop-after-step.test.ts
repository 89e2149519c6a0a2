/**
 * A stop-after-step request (a fleet stage halting) is not Ctrl+C: the step in progress runs to its
 * end and the session stops, saved, before the next one; a step that only polls stops at its next
 * poll. Either way a resume finishes the session.
 */
import { describe, expect, it } from 'vitest';
import { findStep, steps } from '../../src/engine/state.js';
import { harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';

const runbook = (kind: 'slow' | 'watch') => `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: t, title: T }
steps:
  - { id: first, kind: noop, title: First step }
  - { id: wait, kind: ${kind}, title: Wait here, with: { ms: 1000, ticks: 3 } }
  - { id: after, kind: noop, title: After the wait }
`;

const statuses = (h: ReturnType<typeof harness>) => steps(h.store.load(h.id)).map((s) => `${s.id}:${s.status}`);

describe('stop after the current step', () => {
  it('lets a step that is not a poll run to its end, then stops before the next, and a resume finishes', async () => {
    const h = harness(runbook('slow'));
    const clock = new ManualClock();
    const drain = new AbortController();
    const run = h.runner({ clock, stopAfterStep: drain.signal }).run();
    await clock.waitForSleepers(1);
    drain.abort();
    const outcome = await clock.runUntilSettled(run);
    expect(outcome.status).toBe('interrupted');
    expect(outcome.status !== 'done' && outcome.error.message).toBe('Stopped safely after Wait here (wait); the session is saved.');
    expect(findStep(h.store.load(h.id), 'wait')?.output).toEqual({ ticks: 3 });
    expect(statuses(h)).toEqual(['first:succeeded', 'wait:succeeded', 'after:pending']);
    expect(h.store.load(h.id).run.status).toBe('interrupted');

    expect((await h.runner().run()).status).toBe('done');
    expect(statuses(h)).toEqual(['first:succeeded', 'wait:succeeded', 'after:succeeded']);
  });

  it('stops a step that only polls at its next poll, and a resume runs it again from the start', async () => {
    const h = harness(runbook('watch'));
    const clock = new ManualClock();
    const drain = new AbortController();
    const run = h.runner({ clock, stopAfterStep: drain.signal }).run();
    await clock.waitForSleepers(1);
    drain.abort();
    const outcome = await run;
    expect(outcome.status !== 'done' && outcome.error.message).toBe('Stopped safely at a poll of Wait here (wait); the session is saved.');
    expect(findStep(h.store.load(h.id), 'wait')?.output).toBeUndefined();
    expect(statuses(h)[2]).toBe('after:pending');

    const again = new ManualClock();
    expect((await again.runUntilSettled(h.runner({ clock: again }).run())).status).toBe('done');
    expect(findStep(h.store.load(h.id), 'wait')).toMatchObject({ status: 'succeeded', output: { ticks: 3 }, attempts: 2 });
  });

  it('asked before the first step, stops before it; Ctrl+C still stops a step that is not a poll at once', async () => {
    const early = harness(runbook('slow'));
    const drain = new AbortController();
    drain.abort();
    const stopped = await early.runner({ stopAfterStep: drain.signal }).run();
    expect(stopped.status !== 'done' && stopped.error.message).toBe('Stopped safely before First step (first); the session is saved.');
    expect(statuses(early)).toEqual(['first:pending', 'wait:pending', 'after:pending']);

    const h = harness(runbook('slow'));
    const clock = new ManualClock();
    const ctrlC = new AbortController();
    const run = h.runner({ clock, signal: ctrlC.signal, stopAfterStep: new AbortController().signal }).run();
    await clock.waitForSleepers(1);
    ctrlC.abort();
    const outcome = await run;
    expect(outcome.status).toBe('interrupted');
    expect(outcome.status !== 'done' && outcome.error.message).toBe('Interrupted; the session is saved.');
    expect(findStep(h.store.load(h.id), 'wait')?.output).toBeUndefined();
  });

  it('a step the stop carries (an applied change watched until it settles) runs to its end, polls and all, and so does what it carries after', async () => {
    const h = harness(runbook('watch'));
    const clock = new ManualClock();
    const drain = new AbortController();
    const asked: string[] = [];
    const carry = (_s: unknown, next: { id: string }) => (asked.push(next.id), next.id === 'wait');
    const run = h.runner({ clock, stopAfterStep: drain.signal, carry }).run();
    await clock.waitForSleepers(1);
    drain.abort();
    const outcome = await clock.runUntilSettled(run);
    expect(outcome.status !== 'done' && outcome.error.message).toBe('Stopped safely after Wait here (wait); the session is saved.');
    expect(findStep(h.store.load(h.id), 'wait')).toMatchObject({ status: 'succeeded', output: { ticks: 3 } });
    expect(statuses(h)).toEqual(['first:succeeded', 'wait:succeeded', 'after:pending']);
    expect(asked).toContain('after');
  });
});
