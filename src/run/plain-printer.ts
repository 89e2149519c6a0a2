/**
 * Plain mode: one line per event for a log or a CI job, or one JSON object per line with --json.
 * Live progress is printed when it changes, at most once a second per step. Lines name steps as
 * the operator knows them ("Hop 1/2 · Draft infra profile"), at this machine's wall-clock time;
 * JSON lines stay small (a step's large output, a request body: the session folder holds them).
 */
import { join } from 'node:path';
import { decisionSourceText } from '../engine/gate.js';
import { describeRequest } from '../engine/mutation.js';
import type { SessionEvent, SessionState, StepPlan } from '../engine/state.js';
import { findStep } from '../engine/state.js';
import { isStop } from '../errors.js';
import type { LiveHeadline } from '../screens/step-screen.js';
import type { Redactor } from '../session/redact.js';
import { jsonSafe, sanitizeLines, sanitizeText } from '../text/sanitize.js';
import { wallTime } from '../text/time.js';
import { formatDuration } from '../text/duration.js';

export interface PlainPrinterOptions {
  json: boolean;
  write: (line: string) => void;
  redactor: Redactor;
  rehearsal: boolean;
  /** The session's folder: JSON lines point at its journal for what they leave out. */
  sessionDir?: string;
}

/** A step output or gate item list in a JSON line at most this big; larger ones are referenced. */
export const JSON_OUTPUT_MAX = 2_048;

/** How the operator knows a step: its title, and its hop. */
export function stepLabel(step: Pick<StepPlan, 'title' | 'hop'> | undefined, fallback = ''): string {
  if (!step) return fallback;
  return step.hop ? `Hop ${step.hop.index}/${step.hop.count} · ${step.title}` : step.title;
}

const clean = (text: string) => sanitizeText(text, { max: 2000 });

/** `■ stopped (…)`: how the run stopped, in words. */
const stopWords: Record<Extract<SessionEvent, { type: 'session.stopped' }>['status'], string> = {
  awaitingApproval: 'at a gate',
  stopped: 'by the operator',
  interrupted: 'interrupted',
  failed: 'failed',
};

/** An event as a JSON line: everything that identifies and explains it, nothing that weighs (bodies, large outputs). */
export function jsonEvent(state: SessionState, event: SessionEvent, journal: string | undefined): Record<string, unknown> | undefined {
  const sized = (output: unknown) => {
    if (output === undefined) return {};
    const bytes = Buffer.byteLength(JSON.stringify(output));
    return bytes <= JSON_OUTPUT_MAX ? { output } : { outputOmitted: { bytes, ...(journal ? { in: journal } : {}) } };
  };
  const title = 'id' in event ? findStep(state, event.id)?.title : undefined;
  switch (event.type) {
    case 'step.progress': {
      const live = event.live as LiveHeadline | undefined;
      return live?.headline ? { type: event.type, at: event.at, id: event.id, headline: live.headline } : undefined;
    }
    case 'log':
      return { type: event.type, at: event.at, level: event.line.level, ...(event.line.stepId ? { id: event.line.stepId } : {}), message: event.line.message };
    case 'session.created':
      return { type: event.type, at: event.at, meta: event.meta, steps: event.entries.map((e) => ({ id: e.id, title: e.title })) };
    case 'group.expanded':
      return { type: event.type, at: event.at, group: event.group, steps: event.steps.map((s) => ({ id: s.id, title: s.title, ...(s.hop ? { hop: s.hop.index } : {}) })) };
    case 'step.succeeded':
      return { type: event.type, at: event.at, id: event.id, title, ...(event.summary ? { summary: event.summary } : {}), ...sized(event.output) };
    case 'step.failed':
      return { type: event.type, at: event.at, id: event.id, title, error: event.error, ...sized(event.output) };
    case 'step.skipped':
      return { type: event.type, at: event.at, id: event.id, title, reason: event.reason, ...sized(event.output) };
    case 'step.awaiting': {
      const { items, ...gate } = event.gate;
      return { type: event.type, at: event.at, id: event.id, title, gate: { ...gate, ...(items ? { items: items.slice(0, 50), itemCount: items.length } : {}) } };
    }
    case 'mutation.intent': {
      const r = event.request;
      const call = r.target === 'palette' ? { method: r.method, path: r.path } : { program: r.program, argv: r.argv };
      return { type: event.type, at: event.at, key: event.key, id: event.stepId, summary: r.summary, target: r.target, ...call, dryRun: event.dryRun, ...(event.approval ? { approval: event.approval } : {}), ...(journal ? { bodyIn: journal } : {}) };
    }
    default:
      return event as unknown as Record<string, unknown>;
  }
}

export function createPlainPrinter(opts: PlainPrinterOptions): (state: SessionState, event: SessionEvent) => void {
  const lastProgress = new Map<string, { at: number; text: string }>();
  // The last line of defence: no key, no control characters, no line of megabytes (sanitize.ts).
  const out = (line: string) => opts.write(opts.json ? jsonSafe(opts.redactor.text(line)) : sanitizeLines(opts.redactor.text(line)));
  const journal = opts.sessionDir ? join(opts.sessionDir, 'journal.ndjson') : undefined;

  const throttled = (id: string, text: string): boolean => {
    const prev = lastProgress.get(id);
    const now = Date.now();
    if (prev && (prev.text === text || now - prev.at < 1000)) return false;
    lastProgress.set(id, { at: now, text });
    return true;
  };

  return (state, event) => {
    if (opts.json) {
      const line = jsonEvent(state, event, journal);
      if (!line) return;
      if (event.type === 'step.progress' && !throttled(event.id, String(line.headline))) return;
      out(JSON.stringify(opts.redactor.value(line)));
      return;
    }
    const t = wallTime(event.at);
    const label = 'id' in event ? stepLabel(findStep(state, event.id), event.id) : '';
    switch (event.type) {
      case 'session.created':
        return out(`${t}  session ${event.meta.id} (${event.meta.mode}${event.meta.lab || event.meta.servedLab ? ', lab' : ''}): ${event.meta.runbook.title}`);
      case 'session.resumed':
        return out(`${t}  resumed session ${state.meta.id}`);
      case 'step.started':
        return out(`${t}  ▶ ${label}`);
      case 'step.progress': {
        const live = event.live as LiveHeadline | undefined;
        if (live?.headline && throttled(event.id, live.headline)) out(`${t}    ${clean(live.headline)}`);
        return;
      }
      case 'step.awaiting': {
        const g = event.gate;
        out(`${t}  ? GATE: ${clean(g.title)} (${label})`);
        for (const l of g.lines) out(`             ${clean(l)}`);
        for (const i of (g.items ?? []).slice(0, 50)) out(`             • ${clean(i)}`);
        if ((g.items?.length ?? 0) > 50) out(`             … and ${g.items!.length - 50} more`);
        for (const w of g.warnings ?? []) out(`             WARNING: ${clean(w)}`);
        if (g.ifStopped) out(`             if you stop here: ${clean(g.ifStopped)}`);
        return;
      }
      case 'step.decided':
        return out(`${t}    decision: ${event.decision.choice} (${decisionSourceText(event.decision)})`);
      case 'step.succeeded': {
        const s = findStep(state, event.id);
        return out(`${t}  ✔ ${label} (${formatDuration(s?.durationMs ?? 0)})${event.summary ? `: ${clean(event.summary)}` : ''}`);
      }
      case 'step.skipped':
        return out(`${t}  – ${label} skipped: ${clean(event.reason)}`);
      case 'step.failed':
        out(`${t}  ${isStop(event.error) ? '⏸' : '✖'} ${label}: ${clean(event.error.message)}`);
        if (event.error.hint) out(`             what to do: ${clean(event.error.hint)}`);
        return;
      case 'step.drift':
        for (const f of event.report.findings) out(`${t}  ⚠ ${label}: changed since it ran: ${clean(f)}`);
        return;
      case 'mutation.result': {
        // What an interrupted session had sent, found done by reading on resume.
        const m = state.mutations[event.key];
        if (event.outcome === 'settled' && m) out(`${t}    settled: ${m.request.summary || describeRequest(m.request)} sent ${wallTime(m.intentAt)}, confirmed on resume`);
        return;
      }
      case 'log':
        if (event.line.level !== 'info') out(`${t}    ${event.line.level === 'action' ? '→' : event.line.level === 'warn' ? '⚠' : '✖'} ${clean(event.line.message)}`);
        else if (!event.line.stepId) out(`${t}    ${clean(event.line.message)}`);
        return;
      case 'session.stopped':
        // A gate's reason already says "Stopped at a gate awaiting approval: ...": not twice in one line.
        return out(`${t}  ■ stopped (${stopWords[event.status]}): ${clean(event.status === 'awaitingApproval' ? event.reason.replace(/^Stopped at a gate awaiting approval: /, 'awaiting approval: ') : event.reason)}`);
      case 'session.done':
        return out(`${t}  ✔ done${opts.rehearsal ? ' (rehearsal: nothing was sent)' : ''}`);
      default:
        return;
    }
  };
}
