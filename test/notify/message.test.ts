import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../src/engine/reducer.js';
import { endMessage, gateMessage, plainText } from '../../src/notify/message.js';
import { at, created, step } from '../support/state-fixtures.js';
import { restartGate } from '../support/timeline-story.js';

const waiting = () => {
  const s = initialState(created([step('hop1.recover')]));
  return reduce(reduce(s, { type: 'step.started', at: at(1), id: 'hop1.recover' }), { type: 'step.awaiting', at: at(2), id: 'hop1.recover', gate: restartGate('vms/db-1') });
};

describe('notification messages', () => {
  it('a gate: what waits, where, and where to answer it; a chat reads the text as it is', () => {
    const m = gateMessage(waiting(), restartGate('vms/db-1'), at(3));
    expect(m).toEqual({
      event: 'gate',
      session: 'test-session',
      cluster: 'cluster-1',
      step: 'hop1.recover',
      at: at(3),
      mode: 'live',
      gate: 'restart',
      text: 'upgrade-pilot on cluster-1 is waiting for you: Restart VM vms/db-1 (step hop1.recover). Answer it in the terminal running session test-session.',
    });
  });

  it('a stop says how to resume; a failure names the step and points to the report, not the detail; done says so', () => {
    const s = waiting();
    const stopped = endMessage(s, { status: 'awaitingApproval', exitCode: 3, message: 'Stopped at a gate awaiting approval: restart VM vms/db-1', hint: 'The session is saved. To approve, run: upgrade-pilot resume test-session --approve-restart vms/db-1' }, at(4));
    expect(stopped).toMatchObject({ event: 'stopped', exitCode: 3, step: 'hop1.recover' });
    expect(stopped.text).toBe('upgrade-pilot on cluster-1 stopped in step hop1.recover: Stopped at a gate awaiting approval: restart VM vms/db-1 The session is saved. To approve, run: upgrade-pilot resume test-session --approve-restart vms/db-1');
    const interrupted = endMessage(s, { status: 'interrupted', exitCode: 130, message: 'Interrupted; the session is saved.', hint: 'Continue later with: upgrade-pilot resume' });
    expect(interrupted.text).toMatch(/Resume with: upgrade-pilot resume test-session$/);
    // The operator's own stop (a decline) is a stop too, with its exit code 3.
    const declined = endMessage(s, { status: 'stopped', exitCode: 3, message: 'Declined: the draft of vmo-core was not written.', hint: 'Resume when ready: upgrade-pilot resume test-session' });
    expect(declined).toMatchObject({ event: 'stopped', exitCode: 3 });
    expect(declined.text).toBe('upgrade-pilot on cluster-1 stopped in step hop1.recover: Declined: the draft of vmo-core was not written. Resume when ready: upgrade-pilot resume test-session');
    const failed = endMessage(s, { status: 'failed', exitCode: 1, message: 'The API applied nothing:\n  charts.x.password: "hunter2"' });
    expect(failed).toMatchObject({ event: 'failed', exitCode: 1 });
    expect(failed.text).toBe('upgrade-pilot on cluster-1 failed in step hop1.recover: The API applied nothing: See the report: upgrade-pilot report test-session');
    const done = endMessage({ ...s, meta: { ...s.meta, mode: 'rehearsal' } }, { status: 'done', exitCode: 0 });
    expect(done).toMatchObject({ event: 'done', mode: 'rehearsal', exitCode: 0 });
    expect(done.step).toBeUndefined();
    expect(done.text).toBe('upgrade-pilot on cluster-1 (rehearsal) finished session test-session: nothing was sent.');
  });

  it.each([
    ['<!here> ping & go', '‹!here› ping + go'],
    ['\u001b]0;retitled\u0007clean', 'clean'],
    ['two\nlines', 'two lines'],
    ['x'.repeat(30), `${'x'.repeat(19)}…`],
  ])('plain text of %j', (input, expected) => {
    expect(plainText(input, 20)).toBe(expected);
  });
});
