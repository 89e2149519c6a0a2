/**
 * The pure reducer over session state. It is the only code that changes state, the journal replays
 * through it on resume, and it rejects any transition the lifecycle does not allow:
 *
 *   pending → running → (awaitingApproval → running)* → succeeded | failed
 *   pending | running → skipped
 *   on resume: running | awaitingApproval | failed → pending (the step runs again; its mutations
 *   are keyed, so what was already sent is not sent twice)
 */
import type { Entry, SessionEvent, SessionState, StepState, StepStatus } from './state.js';
import { isPlaceholder } from './state.js';
import { recordTimeline, type Appender } from './timeline.js';

export class IllegalTransitionError extends Error {
  constructor(event: SessionEvent, reason: string) {
    super(`Illegal ${event.type}${'id' in event ? ` for ${event.id}` : ''}: ${reason}`);
    this.name = 'IllegalTransitionError';
  }
}

const LOG_LIMIT = 200;

/**
 * Keyed maps (a step's decisions and notes, the session's mutations) grow with the session: a copy
 * per event makes a replay of n records cost O(n²) (10,000 records of a large recovery took seconds).
 * Inside `replaying`, the copies this module makes belong to the replay alone (no caller holds an
 * intermediate state), so later updates write into them in place. Outside it every update copies,
 * as a pure reducer must.
 */
let replayOwned: WeakSet<object> | undefined;

function put<V>(map: Record<string, V>, key: string, value: V): Record<string, V> {
  if (replayOwned?.has(map)) {
    map[key] = value;
    return map;
  }
  const copy = { ...map, [key]: value };
  replayOwned?.add(copy);
  return copy;
}

/** Appends to a list; in place when the replay owns it (see `put`). */
const append: Appender = (list, item) => {
  if (replayOwned?.has(list)) {
    list.push(item);
    return list;
  }
  const copy = [...list, item];
  replayOwned?.add(copy);
  return copy;
};

/** Runs `fn` (a loop of `reduce` whose intermediate states nobody keeps) with in-place map updates. */
export function replaying<T>(fn: () => T): T {
  const outer = replayOwned;
  replayOwned = new WeakSet();
  try {
    return fn();
  } finally {
    replayOwned = outer;
  }
}

export function initialState(event: Extract<SessionEvent, { type: 'session.created' }>): SessionState {
  const ids = new Set<string>();
  for (const e of event.entries) {
    if (ids.has(e.id)) throw new IllegalTransitionError(event, `duplicate step id ${e.id}`);
    ids.add(e.id);
  }
  return {
    meta: event.meta,
    entries: event.entries,
    mutations: {},
    run: { status: 'running', updatedAt: event.at, resumes: 0 },
    log: [],
    seq: 0,
    timeline: [],
  };
}

function updateStep(
  state: SessionState,
  event: SessionEvent & { id: string },
  allowed: readonly StepStatus[],
  change: (step: StepState) => StepState,
): SessionState {
  const index = state.entries.findIndex((e) => e.id === event.id);
  const entry = state.entries[index];
  if (!entry || isPlaceholder(entry)) throw new IllegalTransitionError(event, 'no such step');
  if (!allowed.includes(entry.status)) throw new IllegalTransitionError(event, `step is ${entry.status}, expected ${allowed.join(' or ')}`);
  const entries = state.entries.slice();
  entries[index] = change(entry);
  return { ...state, entries, run: { ...state.run, updatedAt: event.at } };
}

function elapsed(step: StepState, at: string): number {
  if (!step.startedAt) return step.durationMs;
  return step.durationMs + Math.max(0, Date.parse(at) - Date.parse(step.startedAt));
}

function endStep(step: StepState, at: string, status: StepStatus, extra: Partial<StepState>): StepState {
  const { gate: _gate, gateSince: _since, live: _live, ...rest } = step;
  return { ...rest, ...extra, status, endedAt: at, durationMs: step.status === 'pending' ? step.durationMs : elapsed(step, at) };
}

export function reduce(state: SessionState, event: SessionEvent): SessionState {
  const next = transition(state, event);
  const timeline = recordTimeline(state, next, event, append);
  return timeline === next.timeline ? next : { ...next, timeline };
}

function transition(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'session.created':
      throw new IllegalTransitionError(event, 'the session already exists');

    case 'session.resumed': {
      const entries = state.entries.map((e): Entry => {
        if (isPlaceholder(e) || !['running', 'awaitingApproval', 'failed'].includes(e.status)) return e;
        // The time an interrupted attempt ran is unknown (the process died); only finished attempts count.
        const { gate: _gate, gateSince: _since, live: _live, error: _error, ...rest } = e;
        return { ...rest, status: 'pending' };
      });
      const { reason: _r, error: _e, ...run } = state.run;
      return { ...state, entries, run: { ...run, status: 'running', updatedAt: event.at, resumes: state.run.resumes + 1 } };
    }

    case 'session.stopped':
      if (state.run.status !== 'running') throw new IllegalTransitionError(event, `the run is ${state.run.status}`);
      return { ...state, run: { ...state.run, status: event.status, reason: event.reason, ...(event.error ? { error: event.error } : {}), updatedAt: event.at } };

    case 'session.done': {
      const open = state.entries.find((e) => isPlaceholder(e) || !['succeeded', 'skipped'].includes(e.status));
      if (open) throw new IllegalTransitionError(event, `step ${open.id} is not finished`);
      return { ...state, run: { ...state.run, status: 'done', updatedAt: event.at } };
    }

    case 'session.decided':
      // Only the timeline keeps it (see timeline.ts).
      return { ...state, run: { ...state.run, updatedAt: event.at } };

    case 'group.expanded': {
      const index = state.entries.findIndex((e) => e.id === event.group);
      const placeholder = state.entries[index];
      if (!placeholder || !isPlaceholder(placeholder)) throw new IllegalTransitionError(event, `no unexpanded group ${event.group}`);
      const before = state.entries.slice(0, index);
      if (before.some((e) => isPlaceholder(e) || !['succeeded', 'skipped'].includes(e.status)))
        throw new IllegalTransitionError(event, 'steps before the group are not finished');
      const existing = new Set(state.entries.map((e) => e.id));
      for (const s of event.steps) {
        if (existing.has(s.id)) throw new IllegalTransitionError(event, `duplicate step id ${s.id}`);
        existing.add(s.id);
      }
      const expanded: StepState[] = event.steps.map((s) => ({ ...s, status: 'pending', durationMs: 0, attempts: 0, decisions: {}, notes: {} }));
      const entries = [...before, ...expanded, ...state.entries.slice(index + 1)];
      return { ...state, entries, run: { ...state.run, updatedAt: event.at } };
    }

    case 'step.started':
      return updateStep(state, event, ['pending'], (s) => {
        const { error: _e, skipReason: _s, ...rest } = s;
        return { ...rest, status: 'running', startedAt: event.at, attempts: s.attempts + 1 };
      });

    case 'step.awaiting':
      return updateStep(state, event, ['running'], (s) => ({ ...s, status: 'awaitingApproval', gate: event.gate, gateSince: event.at }));

    case 'step.decided':
      return updateStep(state, event, ['awaitingApproval'], (s) => {
        if (s.gate && s.gate.key !== event.key) throw new IllegalTransitionError(event, `the open gate is ${s.gate.key}, not ${event.key}`);
        const { gate: _g, gateSince: _since, ...rest } = s;
        return { ...rest, status: 'running', decisions: put(s.decisions, event.key, event.decision) };
      });

    case 'step.note':
      return updateStep(state, event, ['running', 'awaitingApproval'], (s) => ({ ...s, notes: put(s.notes, event.key, event.value) }));

    case 'step.succeeded':
      return updateStep(state, event, ['running'], (s) =>
        endStep(s, event.at, 'succeeded', { ...(event.output !== undefined ? { output: event.output } : {}), ...(event.summary ? { summary: event.summary } : {}) }),
      );

    case 'step.failed':
      return updateStep(state, event, ['running', 'awaitingApproval'], (s) =>
        endStep(s, event.at, 'failed', { error: event.error, ...(event.output !== undefined ? { output: event.output } : {}) }),
      );

    case 'step.skipped':
      return updateStep(state, event, ['pending', 'running'], (s) =>
        endStep(s, event.at, 'skipped', { skipReason: event.reason, ...(event.output !== undefined ? { output: event.output } : {}) }),
      );

    case 'step.drift':
      return updateStep(state, event, ['succeeded', 'skipped'], (s) => ({ ...s, drift: event.report }));

    case 'mutation.intent': {
      const prior = state.mutations[event.key];
      if (prior?.outcome && prior.outcome !== 'failed') throw new IllegalTransitionError(event, `mutation ${event.key} already has a result (${prior.outcome})`);
      const record = {
        key: event.key,
        stepId: event.stepId,
        request: event.request,
        intentAt: event.at,
        dryRun: event.dryRun,
        ...(event.approval ? { approval: event.approval } : {}),
      };
      return { ...state, mutations: put(state.mutations, event.key, record) };
    }

    case 'mutation.result': {
      const prior = state.mutations[event.key];
      if (!prior) throw new IllegalTransitionError(event, `no intent for mutation ${event.key}`);
      if (prior.outcome) throw new IllegalTransitionError(event, `mutation ${event.key} already has a result`);
      const record = { ...prior, resultAt: event.at, outcome: event.outcome, ...(event.error ? { error: event.error } : {}) };
      return { ...state, mutations: put(state.mutations, event.key, record) };
    }

    case 'step.progress': {
      const index = state.entries.findIndex((e) => e.id === event.id);
      const entry = state.entries[index];
      // Progress can race with the end of a step; a late update is dropped, never an error.
      if (!entry || isPlaceholder(entry) || (entry.status !== 'running' && entry.status !== 'awaitingApproval')) return state;
      const entries = state.entries.slice();
      entries[index] = { ...entry, live: event.live };
      return { ...state, entries };
    }

    case 'log': {
      const log = state.log.length >= LOG_LIMIT ? [...state.log.slice(state.log.length - LOG_LIMIT + 1), event.line] : [...state.log, event.line];
      return { ...state, log };
    }
    default:
      // Only a journal written by something else (a newer version, a hand edit) brings one.
      throw new IllegalTransitionError(event, `unknown event type "${String((event as { type: unknown }).type).slice(0, 60)}"`);
  }
}
