/**
 * The engine's shared types that its modules refer to each other through: the run's status and the
 * session history's entries (timeline.ts builds them, state.ts holds them). Here so no two engine
 * modules import each other.
 */
import type { Choice, DecisionSource } from './gate.js';

export type RunStatus = 'running' | 'stopped' | 'awaitingApproval' | 'done' | 'failed' | 'interrupted';

export type StopStatus = Exclude<RunStatus, 'running' | 'done'> | 'crashed';

export interface TimelineStop {
  type: 'stopped';
  at: string;
  status: StopStatus;
  reason: string;
  hint?: string;
  /** The step the run stopped in, and the gate it waited at (if any). */
  step?: string;
  gate?: string;
}

export interface TimelineResume {
  type: 'resumed';
  at: string;
  /** `user@host` of whoever resumed. */
  by?: string;
  /** The flags the resume was given (`--approve draft`, ...), as typed. */
  with?: string;
}

export interface TimelineDecision {
  type: 'decided';
  at: string;
  /** When the gate was shown: from here to `at` the run waited for the answer (absent in sessions recorded before it was kept). */
  shownAt?: string;
  step: string;
  /** The gate's name (`draft`, `restart`, any other), its unique key and its title. */
  gate: string;
  key: string;
  title: string;
  /** For a VM restart: `namespace/name`. */
  subject?: string;
  choice: Choice | 'pending';
  /** The label of the option taken, as the gate showed it ("Not now (stop here, session saved)"). */
  label?: string;
  /** Whether the gate offered a skip (tells a decline of one thing from an abort of a sequence). */
  offeredSkip: boolean;
  by: DecisionSource;
  pressed?: string;
  flag?: string;
  policy?: string;
}

export interface TimelineDone {
  type: 'done';
  at: string;
}

export type TimelineEntry = TimelineStop | TimelineResume | TimelineDecision | TimelineDone;
