import { describe, expect, it } from 'vitest';
import { IllegalTransitionError, initialState, reduce, replaying } from '../../src/engine/reducer.js';
import type { SessionEvent, SessionState, StepStatus } from '../../src/engine/state.js';
import { findStep, nextEntry } from '../../src/engine/state.js';
import { at, created, step } from '../support/state-fixtures.js';

const gate = { gate: 'draft', key: 'a/draft', title: 'Write', lines: [], options: [], safeChoice: 'abort' as const };
const decision = { choice: 'approve' as const, by: 'operator' as const, at: at(3) };

function withStatus(status: StepStatus): SessionState {
  const s = initialState(created([step('a'), step('b')]));
  const entries = s.entries.map((e) => (e.id === 'a' ? { ...step('a'), status, startedAt: at(1), ...(status === 'awaitingApproval' ? { gate } : {}) } : e));
  return { ...s, entries };
}

// Every step event from every status: what is legal, what it leads to, what is rejected.
const table: Array<[StepStatus, SessionEvent['type'], StepStatus | 'illegal']> = [
  ['pending', 'step.started', 'running'],
  ['pending', 'step.skipped', 'skipped'],
  ['pending', 'step.succeeded', 'illegal'],
  ['pending', 'step.failed', 'illegal'],
  ['pending', 'step.awaiting', 'illegal'],
  ['pending', 'step.decided', 'illegal'],
  ['running', 'step.started', 'illegal'],
  ['running', 'step.awaiting', 'awaitingApproval'],
  ['running', 'step.succeeded', 'succeeded'],
  ['running', 'step.failed', 'failed'],
  ['running', 'step.skipped', 'skipped'],
  ['running', 'step.decided', 'illegal'],
  ['awaitingApproval', 'step.decided', 'running'],
  ['awaitingApproval', 'step.failed', 'failed'],
  ['awaitingApproval', 'step.succeeded', 'illegal'],
  ['awaitingApproval', 'step.awaiting', 'illegal'],
  ['awaitingApproval', 'step.started', 'illegal'],
  ['succeeded', 'step.started', 'illegal'],
  ['succeeded', 'step.failed', 'illegal'],
  ['succeeded', 'step.skipped', 'illegal'],
  ['succeeded', 'step.succeeded', 'illegal'],
  ['failed', 'step.started', 'illegal'],
  ['failed', 'step.succeeded', 'illegal'],
  ['skipped', 'step.started', 'illegal'],
  ['skipped', 'step.awaiting', 'illegal'],
];

function eventFor(type: SessionEvent['type']): SessionEvent {
  switch (type) {
    case 'step.started':
      return { type, at: at(2), id: 'a' };
    case 'step.awaiting':
      return { type, at: at(2), id: 'a', gate };
    case 'step.decided':
      return { type, at: at(3), id: 'a', key: 'a/draft', decision };
    case 'step.succeeded':
      return { type, at: at(5), id: 'a', output: { ok: true } };
    case 'step.failed':
      return { type, at: at(5), id: 'a', error: { kind: 'failed', code: 'x', message: 'boom' } };
    case 'step.skipped':
      return { type, at: at(5), id: 'a', reason: 'not needed' };
    default:
      throw new Error(type);
  }
}

describe('reducer: step transitions', () => {
  it.each(table)('%s + %s → %s', (from, type, to) => {
    const state = withStatus(from);
    if (to === 'illegal') {
      expect(() => reduce(state, eventFor(type))).toThrow(IllegalTransitionError);
    } else {
      expect(findStep(reduce(state, eventFor(type)), 'a')?.status).toBe(to);
    }
  });

  it('rejects events for unknown steps and a second session.created', () => {
    const s = initialState(created([step('a')]));
    expect(() => reduce(s, { type: 'step.started', at: at(1), id: 'nope' })).toThrow(/no such step/);
    expect(() => reduce(s, created([step('a')]))).toThrow(IllegalTransitionError);
  });

  it('rejects duplicate step ids at creation', () => {
    expect(() => initialState(created([step('a'), step('a')]))).toThrow(/duplicate/);
  });

  it('records the time a step ran, and keeps its output', () => {
    let s = initialState(created([step('a')]));
    s = reduce(s, { type: 'step.started', at: at(1), id: 'a' });
    s = reduce(s, { type: 'step.succeeded', at: at(4), id: 'a', output: { n: 1 }, summary: 'ok' });
    const a = findStep(s, 'a')!;
    expect(a.durationMs).toBe(3000);
    expect(a.output).toEqual({ n: 1 });
    expect(a.summary).toBe('ok');
    expect(a.attempts).toBe(1);
  });

  it('a decision must answer the open gate', () => {
    const s = withStatus('awaitingApproval');
    expect(() => reduce(s, { type: 'step.decided', at: at(3), id: 'a', key: 'other', decision })).toThrow(/open gate/);
    const next = reduce(s, { type: 'step.decided', at: at(3), id: 'a', key: 'a/draft', decision });
    expect(findStep(next, 'a')?.decisions['a/draft']).toEqual(decision);
    expect(findStep(next, 'a')?.gate).toBeUndefined();
  });
});

describe('reducer: session', () => {
  it('resume puts running, awaiting and failed steps back to pending and keeps finished ones', () => {
    let s = initialState(created([step('a'), step('b'), step('c'), step('d')]));
    s = reduce(s, { type: 'step.started', at: at(1), id: 'a' });
    s = reduce(s, { type: 'step.succeeded', at: at(2), id: 'a', output: { kept: true } });
    s = reduce(s, { type: 'step.started', at: at(3), id: 'b' });
    s = reduce(s, { type: 'step.awaiting', at: at(4), id: 'b', gate: { ...gate, key: 'b/draft' } });
    s = reduce(s, { type: 'session.stopped', at: at(5), status: 'awaitingApproval', reason: 'gate' });
    s = reduce(s, { type: 'session.resumed', at: at(6) });
    expect(findStep(s, 'a')).toMatchObject({ status: 'succeeded', output: { kept: true } });
    expect(findStep(s, 'b')).toMatchObject({ status: 'pending' });
    expect(findStep(s, 'b')?.gate).toBeUndefined();
    expect(s.run).toMatchObject({ status: 'running', resumes: 1 });
    expect(nextEntry(s)?.id).toBe('b');
  });

  it('done only when every step finished; stopped only while running', () => {
    let s = initialState(created([step('a')]));
    expect(() => reduce(s, { type: 'session.done', at: at(1) })).toThrow(/not finished/);
    s = reduce(s, { type: 'step.started', at: at(1), id: 'a' });
    s = reduce(s, { type: 'step.succeeded', at: at(2), id: 'a' });
    s = reduce(s, { type: 'session.done', at: at(3) });
    expect(s.run.status).toBe('done');
    expect(() => reduce(s, { type: 'session.stopped', at: at(4), status: 'failed', reason: 'x' })).toThrow(/run is done/);
  });

  it('expands a hop group in place, only once the steps before it finished', () => {
    const group = { id: 'hop', group: true as const, title: 'Hops', forEach: 'hops' as const, steps: [], ifEmpty: [] };
    let s = initialState(created([step('plan'), group, step('last')]));
    const expanded = { type: 'group.expanded' as const, at: at(3), group: 'hop', steps: [{ id: 'hop1.x', localId: 'x', kind: 'noop', title: 'x', with: {}, group: 'hop' }] };
    expect(() => reduce(s, expanded)).toThrow(/not finished/);
    s = reduce(s, { type: 'step.started', at: at(1), id: 'plan' });
    s = reduce(s, { type: 'step.succeeded', at: at(2), id: 'plan' });
    s = reduce(s, expanded);
    expect(s.entries.map((e) => e.id)).toEqual(['plan', 'hop1.x', 'last']);
    expect(() => reduce(s, expanded)).toThrow(/no unexpanded group/);
  });

  it('mutations: an intent, then exactly one result; a second intent after a result is refused', () => {
    let s = initialState(created([step('a')]));
    const request = { target: 'palette' as const, method: 'PUT' as const, path: '/p', summary: 'put' };
    expect(() => reduce(s, { type: 'mutation.result', at: at(1), key: 'k', outcome: 'sent' })).toThrow(/no intent/);
    s = reduce(s, { type: 'mutation.intent', at: at(1), key: 'k', stepId: 'a', request, dryRun: false });
    s = reduce(s, { type: 'mutation.result', at: at(2), key: 'k', outcome: 'sent' });
    expect(s.mutations.k).toMatchObject({ outcome: 'sent', intentAt: at(1), resultAt: at(2) });
    expect(() => reduce(s, { type: 'mutation.result', at: at(3), key: 'k', outcome: 'sent' })).toThrow(/already has a result/);
    expect(() => reduce(s, { type: 'mutation.intent', at: at(3), key: 'k', stepId: 'a', request, dryRun: false })).toThrow(/already has a result/);
  });

  it('a failed mutation may be attempted again', () => {
    let s = initialState(created([step('a')]));
    const request = { target: 'palette' as const, method: 'PATCH' as const, path: '/p/publish', summary: 'publish' };
    s = reduce(s, { type: 'mutation.intent', at: at(1), key: 'k', stepId: 'a', request, dryRun: false });
    s = reduce(s, { type: 'mutation.result', at: at(2), key: 'k', outcome: 'failed', error: 'timeout' });
    s = reduce(s, { type: 'mutation.intent', at: at(3), key: 'k', stepId: 'a', request, dryRun: false });
    expect(s.mutations.k?.outcome).toBeUndefined();
  });

  it('drops progress for a step that already ended, and bounds the log', () => {
    let s = initialState(created([step('a')]));
    expect(reduce(s, { type: 'step.progress', at: at(1), id: 'a', live: { x: 1 } })).toBe(s);
    for (let i = 0; i < 250; i++) s = reduce(s, { type: 'log', at: at(1), line: { at: at(1), level: 'info', message: `m${i}` } });
    expect(s.log).toHaveLength(200);
    expect(s.log.at(-1)?.message).toBe('m249');
  });
});

describe('replaying (in-place map updates while a journal is replayed)', () => {
  /** A gate, its decision, a note, and a mutation's intent and result, for each of n VMs. */
  function recoveryEvents(n: number): SessionEvent[] {
    const events: SessionEvent[] = [{ type: 'step.started', at: at(1), id: 'a' }];
    for (let i = 0; i < n; i++) {
      const key = `a/restart/vm-${i}`;
      events.push({ type: 'step.awaiting', at: at(2), id: 'a', gate: { ...gate, key } });
      events.push({ type: 'step.decided', at: at(3), id: 'a', key, decision });
      events.push({ type: 'step.note', at: at(3), id: 'a', key: `${key}/before`, value: { uid: `u${i}` } });
      events.push({ type: 'mutation.intent', at: at(4), key: `${key}/send`, stepId: 'a', request: { kind: 'kubectl', argv: ['get', 'x'] } as never, dryRun: false });
      events.push({ type: 'mutation.result', at: at(5), key: `${key}/send`, outcome: 'sent' });
    }
    return events;
  }

  it('reaches exactly the state the pure reducer reaches, and leaves the starting state untouched', () => {
    const start = initialState(created([step('a'), step('b')]));
    const frozen = JSON.stringify(start);
    const events = recoveryEvents(50);
    const pure = events.reduce(reduce, start);
    const replayed = replaying(() => events.reduce(reduce, start));
    expect(replayed).toEqual(pure);
    expect(JSON.stringify(start)).toBe(frozen);
    expect(Object.keys(replayed.mutations)).toHaveLength(50);
    expect(Object.keys(findStep(replayed, 'a')!.decisions)).toHaveLength(50);
  });

  it('outside a replay every update copies: an earlier state keeps its maps as they were', () => {
    const events = recoveryEvents(2);
    const states = [initialState(created([step('a')]))];
    replaying(() => undefined);
    for (const e of events) states.push(reduce(states.at(-1)!, e));
    const afterFirstVm = states[6]!;
    expect(Object.keys(afterFirstVm.mutations)).toEqual(['a/restart/vm-0/send']);
    expect(Object.keys(findStep(afterFirstVm, 'a')!.decisions)).toEqual(['a/restart/vm-0']);
  });
});
