/**
 * The report's "when" and "who": start, end, duration, every stop with the resume that followed,
 * every decision with its real source, and the people who ran the session. Read from the session's
 * timeline (wall-clock journal times). Pure.
 */
import type { SessionState, StepState } from '../engine/state.js';
import { steps } from '../engine/state.js';
import type { TimelineDecision, TimelineEntry, TimelineStop } from '../engine/timeline.js';
import type { ReportApproval, ReportDecision, ReportStop } from './model.js';

export interface History {
  operator: string;
  operators: string[];
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number | null;
  stoppedSeconds: number;
  stops: ReportStop[];
  decisions: ReportDecision[];
}

const seconds = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 100) / 10);

/** `key` | `flag` | `policy`, and the detail that goes with it. A rehearsal answered on a key counts as the key. */
export function approvalSource(d: { by: string; key?: string | undefined; flag?: string | undefined; policy?: string | undefined }): Omit<ReportApproval, 'at'> {
  const pressed = d.key;
  if (d.by === 'flag') return { by: 'flag', ...(d.flag ? { flag: d.flag } : {}) };
  if (d.by === 'operator' || (d.by === 'rehearsal' && pressed)) return { by: 'key', ...(pressed ? { key: pressed } : {}) };
  return { by: 'policy', policy: d.policy ?? (d.by === 'rehearsal' ? 'a rehearsal sends nothing' : 'a rule of the tool') };
}

function choiceOf(d: TimelineDecision): ReportDecision['choice'] {
  if (d.choice === 'abort' && !d.offeredSkip) return 'decline';
  return d.choice as ReportDecision['choice'];
}

/** The run segments: who ran each (the creator, then each resume). */
function segments(state: SessionState, timeline: TimelineEntry[]): Array<{ from: string; by: string }> {
  const first = { from: state.meta.createdAt, by: `${state.meta.user}@${state.meta.host}` };
  return [first, ...timeline.filter((e) => e.type === 'resumed').map((e) => ({ from: e.at, by: e.by ?? first.by }))];
}

/**
 * The answer an operator's stop (status `stopped`) came from: the last decision before it in the
 * step it stopped in, when that answer was not to go on (a decline, "stop here", an abort).
 */
function stoppingDecision(timeline: TimelineEntry[], stopAt: number): TimelineDecision | undefined {
  const stop = timeline[stopAt] as TimelineStop;
  if (stop.status !== 'stopped') return undefined;
  for (let i = stopAt - 1; i >= 0; i--) {
    const e = timeline[i]!;
    if (e.type === 'stopped' || e.type === 'resumed') return undefined;
    if (e.type === 'decided') return e.choice === 'abort' && (!stop.step || e.step === stop.step || e.step === 'session') ? e : undefined;
  }
  return undefined;
}

function stopsOf(timeline: TimelineEntry[]): ReportStop[] {
  const out: ReportStop[] = [];
  timeline.forEach((e, i) => {
    if (e.type !== 'stopped') return;
    const resume = timeline.slice(i + 1).find((x) => x.type === 'resumed' || x.type === 'stopped');
    const s: TimelineStop = e;
    const gate = s.gate ?? stoppingDecision(timeline, i)?.gate;
    out.push({
      at: s.at,
      status: s.status,
      reason: s.reason,
      ...(s.hint ? { hint: s.hint } : {}),
      ...(s.step ? { step: s.step } : {}),
      ...(gate ? { gate } : {}),
      ...(resume?.type === 'resumed' ? { resumedAt: resume.at, ...(resume.by ? { resumedBy: resume.by } : {}), ...(resume.with ? { resumedWith: resume.with } : {}) } : {}),
    });
  });
  return out;
}

export function historyOf(state: SessionState): History {
  const timeline = state.timeline ?? [];
  const runs = segments(state, timeline);
  const hopOf = new Map<string, StepState['hop']>(steps(state).map((s) => [s.id, s.hop]));
  const operatorAt = (at: string) => [...runs].reverse().find((r) => r.from <= at)?.by ?? runs[0]!.by;

  // Each answer that stopped the run, with what the stop said was left undone.
  const stoppedBy = new Map<TimelineDecision, string>();
  timeline.forEach((e, i) => {
    const d = e.type === 'stopped' ? stoppingDecision(timeline, i) : undefined;
    if (d && e.type === 'stopped') stoppedBy.set(d, e.reason);
  });
  const decisions: ReportDecision[] = timeline
    .filter((e): e is TimelineDecision => e.type === 'decided' && e.choice !== 'pending')
    .map((d) => {
      const stopped = stoppedBy.get(d);
      const source = approvalSource({ by: d.by, key: d.pressed, flag: d.flag, policy: d.policy });
      return {
        at: d.at,
        ...(d.shownAt ? { shownAt: d.shownAt } : {}),
        step: d.step,
        hop: hopOf.get(d.step)?.index ?? null,
        gate: d.gate,
        gateKey: d.key,
        title: d.title,
        ...(d.subject ? { subject: d.subject } : {}),
        choice: choiceOf(d),
        ...(d.label ? { label: d.label } : {}),
        ...source,
        ...(source.by === 'key' ? { operator: operatorAt(d.at) } : {}),
        ...(stopped ? { stopped } : {}),
      };
    });

  const stops = stopsOf(timeline);
  const ended = state.run.status === 'running' ? undefined : [...timeline].reverse().find((e) => e.type === 'done' || e.type === 'stopped')?.at ?? state.run.updatedAt;
  const stoppedSeconds = stops.reduce((sum, s) => sum + (s.resumedAt ? seconds(s.at, s.resumedAt) : 0), 0);
  return {
    operator: runs[0]!.by,
    operators: [...new Set(runs.map((r) => r.by))],
    startedAt: state.meta.createdAt,
    endedAt: ended ?? null,
    durationSeconds: ended ? seconds(state.meta.createdAt, ended) : null,
    stoppedSeconds: Math.round(stoppedSeconds * 10) / 10,
    stops,
    decisions,
  };
}
