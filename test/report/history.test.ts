import { describe, expect, it } from 'vitest';
import { approvalSource, historyOf } from '../../src/report/history.js';
import { at } from '../support/state-fixtures.js';
import { storyEvents, storyState } from '../support/timeline-story.js';

describe('report history: when and who', () => {
  it('lists every decision with its real source, declines told apart from aborts, and who was at the keyboard', () => {
    const h = historyOf(storyState());
    expect(h.decisions.map((d) => [d.gate, d.subject ?? '-', d.choice, d.by, d.key ?? d.flag ?? d.policy, d.operator ?? '-'])).toEqual([
      ['draft', '-', 'approve', 'flag', '--approve draft', '-'],
      ['restart', 'vms/db-1', 'skip', 'key', 's', 'tester@localhost'],
      ['restart', 'vms/web-1', 'approve', 'flag', '--approve-restart vms/web-1', '-'],
      // "Not now" at a yes-or-no gate is a decline, pressed in the run resumed after the crash (no one named: the creator).
      ['draft', '-', 'decline', 'key', 'n', 'tester@localhost'],
    ]);
  });

  it('lists each stop with the resume that followed, the crash included, and the time spent stopped', () => {
    const h = historyOf(storyState());
    expect(h.stops.map((s) => [s.status, s.step, s.gate ?? '-', s.resumedAt ?? '-', s.resumedBy ?? '-', s.resumedWith ?? '-'])).toEqual([
      ['awaitingApproval', 'a', 'restart', at(20), 'bob@jump', '--approve-restart vms/web-1'],
      ['crashed', 'a', '-', at(40), '-', '-'],
      // The operator's "Not now" stopped the run: the stop names the gate its answer was at.
      ['stopped', 'a', 'draft', '-', '-', '-'],
    ]);
    expect(h.stops[0]!.hint).toMatch(/--approve-restart vms\/web-1/);
    expect(h).toMatchObject({ operator: 'tester@localhost', operators: ['tester@localhost', 'bob@jump'], startedAt: at(0), endedAt: at(44), durationSeconds: 44 });
    // 07 → 20 and 23 → 40.
    expect(h.stoppedSeconds).toBe(30);
  });

  it('the answer that stopped the run says what was declined; earlier answers say nothing of the kind', () => {
    const h = historyOf(storyState());
    expect(h.decisions.map((d) => d.stopped ?? '-')).toEqual(['-', '-', '-', 'Declined: the draft of vmo-core was not written.']);
  });

  it('a stop by a signal after a decline is not the decline’s doing', () => {
    const events = storyEvents.map((e) => (e.type === 'session.stopped' && e.at === at(44) ? { ...e, status: 'interrupted' as const, reason: 'Interrupted; the session is saved.' } : e));
    const h = historyOf(storyState(events));
    expect(h.decisions.every((d) => d.stopped === undefined)).toBe(true);
    expect(h.stops.at(-1)).toMatchObject({ status: 'interrupted' });
    expect(h.stops.at(-1)?.gate).toBeUndefined();
  });

  it('a run still going has no end yet', () => {
    const h = historyOf({ ...storyState(), run: { status: 'running', updatedAt: at(50), resumes: 2 } });
    expect(h.endedAt).toBeNull();
    expect(h.durationSeconds).toBeNull();
  });

  it.each([
    [{ by: 'operator', key: 'y' }, { by: 'key', key: 'y' }],
    [{ by: 'operator' }, { by: 'key' }],
    [{ by: 'flag', flag: '--approve publish' }, { by: 'flag', flag: '--approve publish' }],
    [{ by: 'policy', policy: 'unattended: an informational gate takes its safe choice' }, { by: 'policy', policy: 'unattended: an informational gate takes its safe choice' }],
    [{ by: 'rehearsal', policy: 'a rehearsal sends nothing' }, { by: 'policy', policy: 'a rehearsal sends nothing' }],
    [{ by: 'rehearsal', key: 'c' }, { by: 'key', key: 'c' }],
  ])('source %j reads as %j', (given, expected) => {
    expect(approvalSource(given)).toEqual(expected);
  });
});
