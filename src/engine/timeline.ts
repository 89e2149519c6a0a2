/**
 * The session's history for the change ticket: every stop, resume and decision, in order. The
 * state's own fields say only how things stand now (a step keeps the latest decision per gate, the
 * run its latest status), so the reducer appends here as the events pass; replaying the journal
 * rebuilds it. Times are the journal's, wall-clock. Pure.
 */
import type { SessionEvent, SessionState, StepState } from './state.js';
import type { TimelineDecision, TimelineEntry, TimelineStop } from './types.js';
import { isPlaceholder } from './state.js';

export type { StopStatus, TimelineDecision, TimelineDone, TimelineEntry, TimelineResume, TimelineStop } from './types.js';

const TITLE_MAX = 300;

/**
 * Keeps appends cheap while the journal replays (the reducer hands in its replay ownership test):
 * a list the replay owns grows in place instead of being copied per event.
 */
export type Appender = <T>(list: T[], item: T) => T[];

export const copyAppend: Appender = (list, item) => [...list, item];

function openStep(state: SessionState): StepState | undefined {
  for (const e of state.entries) {
    if (isPlaceholder(e)) continue;
    if (e.status === 'awaitingApproval' || e.status === 'running') return e;
  }
  for (const e of [...state.entries].reverse()) if (!isPlaceholder(e) && e.status === 'failed') return e;
  return undefined;
}

/** The run's own gates (drift on resume) are answered outside any step. */
export const SESSION_STEP = 'session';

function decided(before: SessionState, event: Extract<SessionEvent, { type: 'step.decided' | 'session.decided' }>): TimelineDecision {
  const step = event.type === 'step.decided' ? before.entries.find((e) => e.id === event.id) : undefined;
  const gate = event.type === 'session.decided' ? event.gate : step && !isPlaceholder(step) ? step.gate : undefined;
  const key = event.type === 'step.decided' ? event.key : event.gate.key;
  const d = event.decision;
  // Two options may share a choice (verification's "re-run" and "offer the restarts again" both
  // approve): the key that was pressed names the one taken.
  const option = gate?.options.find((o) => d.key !== undefined && o.key === d.key && o.choice === d.choice) ?? gate?.options.find((o) => o.choice === d.choice);
  const subject = gate?.subject ? `${gate.subject.namespace}/${gate.subject.name}` : undefined;
  const shownAt = step && !isPlaceholder(step) ? step.gateSince : undefined;
  return {
    type: 'decided',
    at: d.at || event.at,
    ...(shownAt ? { shownAt } : {}),
    step: event.type === 'step.decided' ? event.id : SESSION_STEP,
    gate: gate?.gate ?? key.split('/').at(-1) ?? 'gate',
    key,
    title: (gate?.title ?? key).slice(0, TITLE_MAX),
    ...(subject ? { subject } : {}),
    choice: d.choice,
    ...(option ? { label: option.label } : {}),
    offeredSkip: gate?.options.some((o) => o.choice === 'skip') ?? false,
    by: d.by,
    ...(d.key ? { pressed: d.key } : {}),
    ...(d.flag ? { flag: d.flag } : {}),
    ...(d.policy ? { policy: d.policy } : {}),
  };
}

/** The timeline after `event` took `before` to `after`. */
export function recordTimeline(before: SessionState, after: SessionState, event: SessionEvent, append: Appender = copyAppend): TimelineEntry[] | undefined {
  const list = after.timeline ?? [];
  switch (event.type) {
    case 'session.resumed': {
      // A run that ended without journaling its end (killed, crashed, power lost) shows as a stop here.
      const crashed: TimelineStop | undefined =
        before.run.status === 'running'
          ? { type: 'stopped', at: before.run.updatedAt, status: 'crashed', reason: 'The run ended without recording a stop (the process was killed or crashed).', ...stepOf(before) }
          : undefined;
      const withCrash = crashed ? append(list, crashed as TimelineEntry) : list;
      return append(withCrash, { type: 'resumed', at: event.at, ...(event.by ? { by: event.by } : {}), ...(event.with ? { with: event.with } : {}) });
    }
    case 'session.stopped':
      return append(list, {
        type: 'stopped',
        at: event.at,
        status: event.status,
        reason: event.reason,
        ...(event.error?.hint ? { hint: event.error.hint } : {}),
        ...stepOf(after),
      });
    case 'session.done':
      return append(list, { type: 'done', at: event.at });
    case 'step.decided':
    case 'session.decided':
      return append(list, decided(before, event));
    default:
      return after.timeline;
  }
}

function stepOf(state: SessionState): { step?: string; gate?: string } {
  const s = openStep(state);
  if (!s) return {};
  return { step: s.id, ...(s.status === 'awaitingApproval' && s.gate ? { gate: s.gate.gate } : {}) };
}
