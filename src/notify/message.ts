/**
 * The notification message: a small JSON object a webhook or a command receives. `text` is one
 * readable paragraph, so a Slack or Teams incoming webhook (both show a top-level `text`) needs no
 * adapter. It says what happened and what to do, never the API key or any pack value: it is built
 * from names, titles and reasons only. Pure.
 */
import type { GateRequest } from '../engine/gate.js';
import type { SessionState } from '../engine/state.js';
import { currentStep } from '../engine/state.js';
import { sanitizeText } from '../text/sanitize.js';
import { sentence } from '../text/sentence.js';

export type NotifyEvent = 'gate' | 'stopped' | 'failed' | 'done';

export interface NotifyMessage {
  event: NotifyEvent;
  session: string;
  cluster: string;
  step?: string;
  text: string;
  /** Wall-clock time, ISO 8601. */
  at: string;
  mode: 'live' | 'rehearsal';
  /** For `gate`: the gate's name (draft, restart, ...). */
  gate?: string;
  /** For the end events: the exit code the run ends with. */
  exitCode?: number;
}

const TEXT_MAX = 1_500;
const REASON_MAX = 240;

/**
 * Readable everywhere: control sequences and line breaks removed, and no `<`, `>` or `&`, which
 * Slack reads as markup (`<!channel>` would page a whole channel).
 */
export function plainText(s: string, max = TEXT_MAX): string {
  const clean = sanitizeText(s, { max: max * 2 }).replace(/</g, '‹').replace(/>/g, '›').replace(/&/g, '+');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function base(state: SessionState, event: NotifyEvent, at: string): Omit<NotifyMessage, 'text'> {
  const step = currentStep(state);
  return {
    event,
    session: state.meta.id,
    cluster: state.meta.cluster.name ?? state.meta.cluster.uid ?? 'unknown cluster',
    ...(step ? { step: step.id } : {}),
    at,
    mode: state.meta.mode,
  };
}

const who = (state: SessionState) => `upgrade-pilot on ${state.meta.cluster.name ?? state.meta.cluster.uid ?? 'the cluster'}${state.meta.mode === 'rehearsal' ? ' (rehearsal)' : ''}`;

/** A gate is waiting for the operator at the terminal. */
export function gateMessage(state: SessionState, request: GateRequest, at = new Date().toISOString()): NotifyMessage {
  const b = base(state, 'gate', at);
  const text = `${sentence(`${who(state)} is waiting for you: ${request.title}${b.step ? ` (step ${b.step})` : ''}`)} Answer it in the terminal running session ${state.meta.id}.`;
  return { ...b, gate: request.gate, text: plainText(text) };
}

export interface RunEnd {
  status: 'done' | 'failed' | 'awaitingApproval' | 'stopped' | 'interrupted';
  message?: string;
  hint?: string;
  exitCode: number;
}

/** The run ended: done, failed, or stopped (at a gate, by the operator, by a signal). */
export function endMessage(state: SessionState, end: RunEnd, at = new Date().toISOString()): NotifyMessage {
  const event: NotifyEvent = end.status === 'done' ? 'done' : end.status === 'failed' ? 'failed' : 'stopped';
  const b = base(state, event, at);
  const id = state.meta.id;
  // The reason's first line only, cut short: a failure's detail (a payload check) is for the terminal, not a chat.
  const reason = plainText((end.message ?? 'see the session').split('\n')[0]!, REASON_MAX);
  const lead =
    event === 'done'
      ? `${who(state)} finished session ${id}${state.meta.mode === 'rehearsal' ? ': nothing was sent' : ''}.`
      : `${who(state)} ${event === 'failed' ? 'failed' : 'stopped'}${b.step ? ` in step ${b.step}` : ''}: ${reason}`;
  // A stop's hint is the resume command (with the approval flags it needs); a failure's may quote values.
  // Only the hint's first line (the command to run): a chat message is one paragraph.
  const command = end.hint?.split('\n').find((l) => l.includes(id));
  const next = event === 'done' ? '' : event === 'stopped' ? ` ${command ?? `Resume with: upgrade-pilot resume ${id}`}` : ` See the report: upgrade-pilot report ${id}`;
  const { step: _s, ...rest } = b;
  return { ...(event === 'done' ? rest : b), exitCode: end.exitCode, text: plainText(`${lead}${next}`) };
}
