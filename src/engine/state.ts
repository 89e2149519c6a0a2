/**
 * Session state: what the journal replays into. Everything here is plain JSON so the same object
 * is the snapshot on disk, the TUI's props and the report's input.
 */
import type { ErrorInfo } from '../errors.js';
import type { Decision, GateRequest } from './gate.js';
import type { MutationRecord, MutationOutcome, MutationRequest } from './mutation.js';
import type { RunStatus, TimelineEntry } from './types.js';

export const SCHEMA_VERSION = 1;

export type StepStatus = 'pending' | 'running' | 'awaitingApproval' | 'succeeded' | 'failed' | 'skipped';

export interface HopInfo {
  index: number;
  count: number;
  from: string;
  to: string;
}

/** A step as planned: from the runbook, or from expanding a hop group. */
export interface StepPlan {
  id: string;
  /** The id in the runbook (`draft-addon`), without the hop prefix. */
  localId: string;
  kind: string;
  title: string;
  with: Record<string, unknown>;
  group?: string;
  hop?: HopInfo;
}

export interface StepState extends StepPlan {
  status: StepStatus;
  startedAt?: string;
  endedAt?: string;
  /** Milliseconds spent running, summed over attempts (a resumed step runs again). */
  durationMs: number;
  attempts: number;
  output?: unknown;
  summary?: string;
  skipReason?: string;
  error?: ErrorInfo;
  gate?: GateRequest;
  /** When the open gate was shown (the operator's wait starts here; the report's timeline draws it). */
  gateSince?: string;
  decisions: Record<string, Decision>;
  /** Durable facts recorded mid-step (e.g. a VM the operator chose to skip). */
  notes: Record<string, unknown>;
  drift?: DriftReport;
  /** Live data for the screen (not journaled). */
  live?: unknown;
}

/** A placeholder for a group not yet expanded (its hops are not known until the plan runs). */
export interface GroupPlaceholder {
  id: string;
  group: true;
  title: string;
  forEach: 'hops';
  steps: StepPlan[];
  ifEmpty: StepPlan[];
}

export type Entry = StepState | GroupPlaceholder;

export function isPlaceholder(e: Entry): e is GroupPlaceholder {
  return 'group' in e && e.group === true;
}

export type Mode = 'live' | 'rehearsal';

export interface SessionMeta {
  id: string;
  schema: number;
  createdAt: string;
  tool: string;
  user: string;
  host: string;
  mode: Mode;
  /** The embedded lab ran inside the process (`npm start`): it ended with it, so the session cannot go on. */
  lab: boolean;
  /**
   * The run talks to a lab served by `lab --serve` (its params name the lab's clock, as lab.json's
   * params file does): changes reach that lab only. It outlives the run: the session can be resumed.
   */
  servedLab?: boolean;
  runbook: { name: string; title: string; file: string; digest: string };
  paramsFile?: string;
  cluster: { uid?: string; name?: string; context?: string };
  /** The cluster's local time zone (IANA), for the report's timeline; absent in sessions recorded before it was kept. */
  timeZone?: string;
  /** The booked window's length (the params' `window`), in the session clock's time, from the start. */
  windowMs?: number;
}

export type { RunStatus } from './types.js';

export interface DriftReport {
  at: string;
  ok: boolean;
  /** One line per thing that changed since the step ran. */
  findings: string[];
}

export interface LogLine {
  at: string;
  level: 'info' | 'warn' | 'error' | 'action';
  stepId?: string;
  message: string;
}

export interface SessionState {
  meta: SessionMeta;
  entries: Entry[];
  mutations: Record<string, MutationRecord>;
  run: { status: RunStatus; reason?: string; error?: ErrorInfo; updatedAt: string; resumes: number };
  /** Recent log lines (bounded; not journaled). */
  log: LogLine[];
  /** Sequence number of the last journal record applied. */
  seq: number;
  /** Every stop, resume and decision in order (the report's history); absent in sessions saved before it existed. */
  timeline?: TimelineEntry[];
}

export type SessionEvent =
  | { type: 'session.created'; at: string; meta: SessionMeta; entries: Entry[] }
  | { type: 'session.resumed'; at: string; /** `user@host` resuming */ by?: string; /** the approval flags given */ with?: string }
  | { type: 'session.stopped'; at: string; status: Exclude<RunStatus, 'running' | 'done'>; reason: string; error?: ErrorInfo }
  | { type: 'session.done'; at: string }
  /** A gate of the run itself (drift on resume), answered outside any step. */
  | { type: 'session.decided'; at: string; gate: GateRequest; decision: Decision }
  | { type: 'group.expanded'; at: string; group: string; steps: StepPlan[] }
  | { type: 'step.started'; at: string; id: string }
  | { type: 'step.awaiting'; at: string; id: string; gate: GateRequest }
  | { type: 'step.decided'; at: string; id: string; key: string; decision: Decision }
  | { type: 'step.note'; at: string; id: string; key: string; value: unknown }
  | { type: 'step.succeeded'; at: string; id: string; output?: unknown; summary?: string }
  | { type: 'step.failed'; at: string; id: string; error: ErrorInfo; output?: unknown }
  | { type: 'step.skipped'; at: string; id: string; reason: string; output?: unknown }
  | { type: 'step.drift'; at: string; id: string; report: DriftReport }
  | { type: 'mutation.intent'; at: string; key: string; stepId: string; request: MutationRequest; dryRun: boolean; approval?: MutationRecord['approval'] }
  | { type: 'mutation.result'; at: string; key: string; outcome: MutationOutcome | 'failed'; error?: string }
  // Ephemeral: applied to the in-memory state, never journaled.
  | { type: 'step.progress'; at: string; id: string; live: unknown }
  | { type: 'log'; at: string; line: LogLine };

export const ephemeralEvents = new Set<SessionEvent['type']>(['step.progress', 'log']);

export function steps(state: SessionState): StepState[] {
  return state.entries.filter((e): e is StepState => !isPlaceholder(e));
}

export function findStep(state: SessionState, id: string): StepState | undefined {
  return steps(state).find((s) => s.id === id);
}

/** The next thing to do: a pending step, or a group to expand. */
export function nextEntry(state: SessionState): Entry | undefined {
  return state.entries.find((e) => isPlaceholder(e) || e.status === 'pending' || e.status === 'running' || e.status === 'awaitingApproval');
}

export function currentStep(state: SessionState): StepState | undefined {
  const all = steps(state);
  return (
    all.find((s) => s.status === 'running' || s.status === 'awaitingApproval') ??
    [...all].reverse().find((s) => s.status === 'failed') ??
    all.find((s) => s.status === 'pending')
  );
}
