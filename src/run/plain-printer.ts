/**
 * Plain mode: one line per event for a log or a CI job, or one JSON object per line with --json.
 * Live progress is printed when it changes, at most once a second per step.
 */
import { formatDuration } from '../engine/duration.js';
import type { SessionEvent, SessionState } from '../engine/state.js';
import { findStep } from '../engine/state.js';
import { decisionSourceText } from '../engine/gate.js';
import type { LiveHeadline } from '../screens/step-screen.js';
import type { Redactor } from '../session/redact.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

export interface PlainPrinterOptions {
  json: boolean;
  write: (line: string) => void;
  redactor: Redactor;
  rehearsal: boolean;
}

const time = (iso: string) => iso.slice(11, 19);

export function createPlainPrinter(opts: PlainPrinterOptions): (state: SessionState, event: SessionEvent) => void {
  const lastProgress = new Map<string, { at: number; text: string }>();
  // The last line of defence: no key, no control characters, no line of megabytes (sanitize.ts).
  const out = (line: string) => opts.write(opts.json ? jsonSafe(opts.redactor.text(line)) : sanitizeLines(opts.redactor.text(line)));

  const throttled = (id: string, text: string): boolean => {
    const prev = lastProgress.get(id);
    const now = Date.now();
    if (prev && (prev.text === text || now - prev.at < 1000)) return false;
    lastProgress.set(id, { at: now, text });
    return true;
  };

  return (state, event) => {
    if (opts.json) {
      if (event.type === 'step.progress' && !throttled(event.id, JSON.stringify(event.live))) return;
      out(JSON.stringify(opts.redactor.value(event)));
      return;
    }
    const t = time(event.at);
    switch (event.type) {
      case 'session.created':
        return out(`${t}  session ${event.meta.id} (${event.meta.mode}${event.meta.lab ? ', lab' : ''}): ${event.meta.runbook.title}`);
      case 'session.resumed':
        return out(`${t}  resumed session ${state.meta.id}`);
      case 'step.started': {
        const s = findStep(state, event.id);
        return out(`${t}  ▶ ${event.id}  ${s?.title ?? ''}`);
      }
      case 'step.progress': {
        const live = event.live as LiveHeadline | undefined;
        if (live?.headline && throttled(event.id, live.headline)) out(`${t}    ${event.id}: ${live.headline}`);
        return;
      }
      case 'step.awaiting': {
        const g = event.gate;
        out(`${t}  ? ${event.id}  GATE ${g.gate}: ${g.title}`);
        for (const l of g.lines) out(`             ${l}`);
        for (const i of (g.items ?? []).slice(0, 50)) out(`             • ${i}`);
        if ((g.items?.length ?? 0) > 50) out(`             … and ${g.items!.length - 50} more`);
        for (const w of g.warnings ?? []) out(`             WARNING: ${w}`);
        return;
      }
      case 'step.decided':
        return out(`${t}    decision: ${event.decision.choice} (${decisionSourceText(event.decision)})`);
      case 'step.succeeded': {
        const s = findStep(state, event.id);
        return out(`${t}  ✔ ${event.id}  ${s?.title ?? ''} (${formatDuration(s?.durationMs ?? 0)})${event.summary ? `: ${event.summary}` : ''}`);
      }
      case 'step.skipped':
        return out(`${t}  – ${event.id}  skipped: ${event.reason}`);
      case 'step.failed':
        out(`${t}  ✖ ${event.id}  ${event.error.message}`);
        if (event.error.hint) out(`             what to do: ${event.error.hint}`);
        return;
      case 'step.drift':
        for (const f of event.report.findings) out(`${t}  ⚠ ${event.id}  changed since it ran: ${f}`);
        return;
      case 'log':
        if (event.line.level !== 'info') out(`${t}    ${event.line.level === 'action' ? '→' : event.line.level === 'warn' ? '⚠' : '✖'} ${event.line.message}`);
        else if (!event.line.stepId) out(`${t}    ${event.line.message}`);
        return;
      case 'session.stopped':
        return out(`${t}  ■ stopped (${event.status}): ${event.reason}`);
      case 'session.done':
        return out(`${t}  ✔ done${opts.rehearsal ? ' (rehearsal: nothing was sent)' : ''}`);
      default:
        return;
    }
  };
}
