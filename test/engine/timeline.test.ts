import { describe, expect, it } from 'vitest';
import { initialState, reduce, replaying } from '../../src/engine/reducer.js';
import type { GateRequest } from '../../src/engine/gate.js';
import type { TimelineEntry } from '../../src/engine/timeline.js';
import { at, created, step } from '../support/state-fixtures.js';
import { storyEvents, storyState } from '../support/timeline-story.js';

const brief = (e: TimelineEntry) => (e.type === 'decided' ? `${e.at.slice(17, 19)} decided ${e.gate} ${e.subject ?? '-'} ${e.choice} ${e.by}:${e.pressed ?? e.flag ?? ''}` : e.type === 'stopped' ? `${e.at.slice(17, 19)} stopped ${e.status} ${e.step ?? '-'} ${e.gate ?? '-'}` : e.type === 'resumed' ? `${e.at.slice(17, 19)} resumed ${e.by ?? '-'} ${e.with ?? '-'}` : `${e.at.slice(17, 19)} done`);

describe('the session timeline', () => {
  it('records every decision (even one a later attempt overwrites), every stop with its step and gate, every resume, and a crash', () => {
    const state = storyState();
    expect(state.timeline!.map(brief)).toEqual([
      '03 decided draft - approve flag:--approve draft',
      '05 decided restart vms/db-1 skip operator:s',
      '07 stopped awaitingApproval a restart',
      '20 resumed bob@jump --approve-restart vms/web-1',
      '23 decided restart vms/web-1 approve flag:--approve-restart vms/web-1',
      // No stop was journaled before this resume: the run was still "running", so it crashed at its last update.
      '23 stopped crashed a -',
      '40 resumed - -',
      '43 decided draft - abort operator:n',
      '44 stopped stopped a -',
    ]);
    // The step itself keeps only the latest answer per gate: the timeline is what remembers the first one.
    expect(state.entries.find((e) => e.id === 'a')).toMatchObject({ decisions: { 'a/draft': { choice: 'abort' } } });
  });

  it('keeps when each gate was shown (the operator\'s wait starts there), and the step forgets it once answered or stopped', () => {
    const state = storyState();
    const decided = state.timeline!.filter((e) => e.type === 'decided');
    expect(decided.map((d) => [d.shownAt?.slice(17, 19), d.at.slice(17, 19)])).toEqual([
      ['02', '03'],
      ['04', '05'],
      ['22', '23'],
      ['42', '43'],
    ]);
    expect(state.entries.find((e) => e.id === 'a')).not.toHaveProperty('gateSince');
  });

  it('keeps the label of the option taken and whether the gate offered a skip', () => {
    const decided = storyState().timeline!.filter((e) => e.type === 'decided');
    expect(decided.map((d) => [d.label, d.offeredSkip])).toEqual([
      ['Write draft', false],
      ['Skip (leave it on the old launcher, listed as outstanding)', true],
      ['Restart this VM', true],
      ['Not now (stop here, session saved)', false],
    ]);
  });

  it('records the option the pressed key named when two options share a choice (verification: re-run, or offer the restarts)', () => {
    const verifyGate: GateRequest = {
      gate: 'verify',
      key: 'a/review/1.1',
      title: 'Verification: 5 green, 1 red',
      lines: [],
      options: [
        { choice: 'skip', label: 'Finish with these results', key: 'f' },
        { choice: 'approve', label: 'Re-run the checks', key: 'r' },
        { choice: 'approve', label: 'Offer the 2 outstanding VM restart(s) again', key: 'o' },
      ],
      safeChoice: 'skip',
      inline: true,
    };
    const label = (key: string) =>
      storyState([
        { type: 'step.started', at: at(1), id: 'a' },
        { type: 'step.awaiting', at: at(2), id: 'a', gate: verifyGate },
        { type: 'step.decided', at: at(3), id: 'a', key: 'a/review/1.1', decision: { choice: 'approve', by: 'operator', key, at: at(3) } },
      ]).timeline!.find((e) => e.type === 'decided')?.label;
    expect(label('o')).toBe('Offer the 2 outstanding VM restart(s) again');
    expect(label('r')).toBe('Re-run the checks');
  });

  it('a replay of the journal (in-place appends) rebuilds the same timeline, and earlier states are not changed', () => {
    const copied = storyState();
    const start = initialState(created([step('a'), step('b')]));
    const replayed = replaying(() => storyEvents.reduce(reduce, start));
    expect(replayed.timeline).toEqual(copied.timeline);
    // Outside a replay every state owns its own list.
    const midway = storyEvents.slice(0, 3).reduce(reduce, start);
    const later = reduce(midway, storyEvents[3]!);
    const after = reduce(later, storyEvents[4]!);
    expect(midway.timeline).toHaveLength(1);
    expect(after.timeline).toHaveLength(2);
  });

  it('a gate of the run itself (drift on resume) is a decision too, outside any step', () => {
    const gate = { gate: 'drift', key: 'drift/1', title: 'The cluster changed since the session was saved', lines: [], options: [{ choice: 'approve' as const, label: 'Continue anyway', key: 'c' }, { choice: 'abort' as const, label: 'Stop', key: 'n' }], safeChoice: 'abort' as const };
    const s = reduce(storyState(storyEvents.slice(0, 8)), { type: 'session.decided', at: at(21), gate, decision: { choice: 'approve', by: 'flag', flag: '--approve drift', at: at(21) } });
    expect(s.timeline!.at(-1)).toEqual({ type: 'decided', at: at(21), step: 'session', gate: 'drift', key: 'drift/1', title: gate.title, choice: 'approve', label: 'Continue anyway', offeredSkip: false, by: 'flag', flag: '--approve drift' });
  });

  it('a session saved before the timeline existed gets one from its next record on', () => {
    const old = { ...initialState(created([step('a')])) };
    delete old.timeline;
    const progressed = reduce(old, { type: 'step.started', at: at(1), id: 'a' });
    expect(progressed.timeline).toBeUndefined();
    const stopped = reduce(progressed, { type: 'session.stopped', at: at(2), status: 'failed', reason: 'boom' });
    expect(stopped.timeline).toEqual([{ type: 'stopped', at: at(2), status: 'failed', reason: 'boom', step: 'a' }]);
  });
});
