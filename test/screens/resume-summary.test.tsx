import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { reduce, initialState } from '../../src/engine/reducer.js';
import type { SessionEvent, SessionState } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { resumeLines, resumeSummary } from '../../src/screens/resume-summary.js';
import { restartsInFlight } from '../../src/run/resume-meanwhile.js';
import { wallDate, wallTime } from '../../src/text/time.js';
import { harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { at, created, step } from '../support/state-fixtures.js';
import { press, waitForFrame, words } from '../support/ui.js';

const restart = { target: 'kube' as const, program: 'kubectl' as const, argv: ['replace', '--raw', '/restart'], summary: 'restart VM vms/db-01' };

function replay(events: SessionEvent[]): SessionState {
  const [first, ...rest] = events as [Extract<SessionEvent, { type: 'session.created' }>, ...SessionEvent[]];
  return rest.reduce(reduce, initialState(first));
}

const stoppedMidRestart: SessionEvent[] = [
  created([
    step('recover', { kind: 'recover', title: 'Recover VMs', hop: { index: 1, count: 2, from: '4.4', to: '4.5' } }),
    step('verify', { kind: 'verify', title: 'Verify the cluster' }),
  ]),
  { type: 'step.started', at: at(1), id: 'recover' },
  { type: 'mutation.intent', at: at(40), key: 'recover/restart/vms/db-01/send', stepId: 'recover', request: restart, dryRun: false },
];

/** A day that is not the fixtures' (read on another day, the stop's day is said). */
const ANOTHER_DAY = '2000-01-01';

describe('the resume summary', () => {
  it('says how the session stopped, what the journal settled, what the cluster did, and what is next', () => {
    const before = replay(stoppedMidRestart); // the process died: no stop was recorded
    const now = replay([...stoppedMidRestart, { type: 'session.resumed', at: at(100) }, { type: 'step.started', at: at(101), id: 'recover' }, { type: 'mutation.result', at: at(102), key: 'recover/restart/vms/db-01/send', outcome: 'settled' }]);
    const s = resumeSummary(before, now, { migrations: { succeeded: 3, failed: 1, running: 0 }, reconciled: { running: ['vmo-infra 1.5.0'], waiting: ['vmo-core-addon 1.5.0'] } }, ANOTHER_DAY);
    expect(resumeLines(s)).toEqual([
      `It stopped at ${wallTime(at(40))} on ${wallDate(at(40))} without closing (the process was killed or crashed); the journal is intact up to that moment.`,
      'Settled from the journal:',
      `  • restart VM vms/db-01 sent ${wallTime(at(40))}, confirmed on resume (read back: it had taken effect)`,
      'The cluster runs vmo-infra 1.5.0; not yet vmo-core-addon 1.5.0.',
      'Migrations since the stop: 3 succeeded, 1 failed.',
      'Next: Recover VMs (hop 1/2).',
    ]);
  });

  it.each<[string, SessionEvent, RegExp]>([
    ['an operator’s stop', { type: 'session.stopped', at: at(50), status: 'stopped', reason: 'Recovery aborted by the operator' }, /^It stopped at \S+ on \d{4}-\d\d-\d\d, by the operator: Recovery aborted by the operator\.$/],
    ['a signal', { type: 'session.stopped', at: at(50), status: 'interrupted', reason: 'Interrupted; the session is saved.' }, /^It stopped at \S+ on \d{4}-\d\d-\d\d, by a signal \(Ctrl\+C, SIGTERM\): Interrupted; the session is saved\.$/],
    ['a gate', { type: 'session.stopped', at: at(50), status: 'awaitingApproval', reason: 'Stopped at a gate awaiting approval: restart VM vms/db-01' }, /^It stopped at \S+ on \d{4}-\d\d-\d\d at a gate awaiting approval: restart VM vms\/db-01\.$/],
    // A gate's title that is a question keeps its own mark: never `anyway?.`.
    ['a gate asking a question', { type: 'session.stopped', at: at(50), status: 'awaitingApproval', reason: 'Stopped at a gate awaiting approval: vmo-prod-east is not healthy: upgrade it anyway?' }, /^It stopped at \S+ on \d{4}-\d\d-\d\d at a gate awaiting approval: vmo-prod-east is not healthy: upgrade it anyway\?$/],
    ['a failure', { type: 'session.stopped', at: at(50), status: 'failed', reason: '1 check(s) not green' }, /because a step failed: 1 check\(s\) not green\.$/],
  ])('after %s', (_what, stop, line) => {
    const before = replay([...stoppedMidRestart, { type: 'mutation.result', at: at(41), key: 'recover/restart/vms/db-01/send', outcome: 'sent' }, stop]);
    const s = resumeSummary(before, before, { unreadable: 'connection refused' }, ANOTHER_DAY);
    expect(s.stopped).toMatch(line);
    expect(s.stopped).toContain(` on ${wallDate(at(50))}`);
    // The same stop read on its own day says the time alone.
    expect(resumeSummary(before, before, { unreadable: 'connection refused' }, wallDate(at(50))).stopped).toMatch(new RegExp(`^It stopped at ${wallTime(at(50))}[ ,]`));
    expect(s.settled).toEqual([]);
    expect(s.meanwhile).toEqual(['The cluster could not be read at resume (connection refused); the steps read it again as they run.']);
  });

  it('says what became of a restart in flight at the crash, as the VM is now', () => {
    const before = replay(stoppedMidRestart);
    expect(restartsInFlight(before)).toEqual(['vms/db-01']);
    const line = (state: 'new-launcher' | 'old-launcher' | 'not-running', phase = 'Running') => resumeSummary(before, before, { restarts: [{ vm: 'vms/db-01', state, phase }] }).meanwhile;
    expect(line('new-launcher')).toEqual(['The restart of vms/db-01 was in flight when the session stopped; it runs on the new launcher now: the restart took effect, and it is not sent again.']);
    expect(line('old-launcher')[0]).toMatch(/; it still runs on the old launcher: the restart did not take effect; the journal settles it by reading the VM before anything is sent again\.$/);
    expect(line('not-running', 'Scheduling')[0]).toMatch(/; it is not running now \(Scheduling\)/);
  });

  it('names the VMs an earlier recovery left outstanding, offered again later', () => {
    const events: SessionEvent[] = [
      ...stoppedMidRestart.slice(0, 2),
      { type: 'step.succeeded', at: at(60), id: 'recover', output: { restarted: [], outstanding: ['vms/db-01', 'vms/web-02'] } },
      { type: 'session.stopped', at: at(61), status: 'interrupted', reason: 'q' },
    ];
    const s = resumeSummary(replay(events), replay(events));
    expect(s.outstanding).toBe('2 VMs left on the old launcher (vms/db-01, vms/web-02): offered again at the next recovery or at verification.');
    expect(s.next).toBe('Next: Verify the cluster.');
  });

  it('shows as a banner above the screen on resume, until the first key', async () => {
    const h = harness(`apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: r, title: Resume }
steps:
  - { id: write, kind: gated-write, title: Write draft }
  - { id: wait, kind: slow, title: Waiting, with: { ms: 100, ticks: 100 } }
`);
    // The PUT reaches the server, then the connection breaks: an intent without a clear result.
    h.world.failNext = '/v1/clusterprofiles/p1';
    expect((await h.runner({ approvals: { ...noApprovals, gates: ['draft'] } }).run()).status).toBe('failed');
    const saved = h.store.load(h.id);
    const queue = new ConfirmQueue();
    const ctrl = new AbortController();
    // The wait after the write ticks on a clock only the test moves: it is on screen until the end.
    const runner = h.runner({ confirm: tuiConfirm(queue, { ...noApprovals, gates: ['draft'] }, false), signal: ctrl.signal, clock: new ManualClock() });
    const outcome = runner.run();
    const ui = render(<App controller={{ source: runner, queue, rehearsal: false, outcome, stop: (reason) => ctrl.abort(reason), gateGuardMs: 0, resumed: () => resumeSummary(saved, runner.getState(), { migrations: { succeeded: 0, failed: 0, running: 0 } }) }} />);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('tick') && words(f).includes('confirmed on resume'));
    expect(words(frame)).toMatch(/Resumed\. It stopped at \S+ because a step failed: connection reset after the request was sent\./);
    expect(words(frame)).toMatch(/Settled from the journal: • write \/v1\/clusterprofiles\/p1 sent \S+, confirmed on resume/);
    expect(words(frame)).toMatch(/No migration ran since the stop\./);
    await press(ui.stdin, 'j');
    await waitForFrame(ui.lastFrame, (f) => !f.includes('Resumed.'));
    expect(h.world.sent).toHaveLength(0);
    ctrl.abort();
    await outcome;
    ui.unmount();
  });
});
