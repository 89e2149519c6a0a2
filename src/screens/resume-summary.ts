/**
 * What a resumed session says first: when and how it stopped, what the journal settled (a change
 * that was in flight when it stopped, found done or sent again), what the cluster did meanwhile,
 * and what comes next. Pure: the state as it was saved, the state now, and what was read.
 */
import { describeRequest } from '../engine/mutation.js';
import { currentStep, steps, type SessionState, type StepState } from '../engine/state.js';
import { wallDate, wallTime } from '../text/time.js';
import { sentence } from '../text/sentence.js';
import type { RecoverContract } from '../steps/contracts.js';

/** What the cluster did while the session was stopped (read once at resume). */
export interface Meanwhile {
  /** Migrations that ended since the stop, by phase; and those in flight now. */
  migrations?: { succeeded: number; failed: number; running: number };
  /** Published profile versions the cluster now runs, and those it does not run yet. */
  reconciled?: { running: string[]; waiting: string[] };
  /** VMs whose restart was in flight at the stop, as they are now. */
  restarts?: Array<{ vm: string; state: 'new-launcher' | 'old-launcher' | 'not-running'; phase: string }>;
  /** The cluster or the API could not be read. */
  unreadable?: string;
}

export interface ResumeSummary {
  /** "Stopped 21:49:52: interrupted (Ctrl+C or q)". */
  stopped: string;
  settled: string[];
  meanwhile: string[];
  outstanding?: string;
  next: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The last thing the journal recorded (a change's intent or result counts: the run's own time may be older). */
export function lastRecorded(state: SessionState): string {
  const times = [state.run.updatedAt, ...Object.values(state.mutations).flatMap((m) => [m.intentAt, m.resultAt ?? ''])].filter(Boolean);
  return times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** `today`: the local date now (the day is said only when the stop was on another one). */
function howItStopped(before: SessionState, today: string): string {
  const last = lastRecorded(before);
  const at = wallTime(last);
  const day = wallDate(last);
  const when = `${at}${day !== today ? ` on ${day}` : ''}`;
  const reason = before.run.reason ? `: ${before.run.reason.replace(/[.\s]+$/, '')}` : '';
  switch (before.run.status) {
    case 'running':
      return `It stopped at ${when} without closing (the process was killed or crashed); the journal is intact up to that moment.`;
    case 'stopped':
      return sentence(`It stopped at ${when}, by the operator${reason}`);
    case 'interrupted':
      return sentence(`It stopped at ${when}, by a signal (Ctrl+C, SIGTERM)${reason}`);
    case 'awaitingApproval':
      // The reason already begins with what the stop was: say it once.
      return sentence(`It stopped at ${when} at a gate awaiting approval${reason.replace(/^: Stopped at a gate awaiting approval(?=: |$)/, '')}`);
    case 'failed':
      return sentence(`It stopped at ${when} because a step failed${reason}`);
    case 'done':
      return `It finished at ${when}.`;
    default:
      return sentence(`It stopped at ${when}${reason}`);
  }
}

const summaryOf = (m: SessionState['mutations'][string]) => m.request.summary || describeRequest(m.request);

/** Changes journaled as intended but without a result when the session stopped, and what became of them. */
function settledLines(before: SessionState, now: SessionState): string[] {
  const open = Object.values(before.mutations).filter((m) => m.outcome === undefined || m.outcome === 'failed');
  return open.map((m) => {
    const after = now.mutations[m.key];
    const sent = `${summaryOf(m)} (sent ${wallTime(m.intentAt)})`;
    if (!after || after.outcome === undefined || (after.intentAt === m.intentAt && after.outcome === m.outcome)) return `${sent}: not settled yet; it is checked by reading before anything is sent again`;
    if (after.outcome === 'settled') return `${summaryOf(m)} sent ${wallTime(m.intentAt)}, confirmed on resume (read back: it had taken effect)`;
    if (after.outcome === 'sent') return `${summaryOf(m)}: had not taken effect; sent again ${wallTime(after.resultAt ?? after.intentAt)}`;
    if (after.outcome === 'failed') return `${sent}: ${after.error ?? 'failed'}`;
    return `${sent}: ${after.outcome}`;
  });
}

function meanwhileLines(m: Meanwhile | undefined): string[] {
  if (!m) return [];
  if (m.unreadable) return [`The cluster could not be read at resume (${m.unreadable}); the steps read it again as they run.`];
  const lines: string[] = [];
  if (m.reconciled) {
    const { running, waiting } = m.reconciled;
    if (running.length) lines.push(`The cluster runs ${running.join(', ')}${waiting.length ? `; not yet ${waiting.join(', ')}` : ''}.`);
    else if (waiting.length) lines.push(`The cluster does not run ${waiting.join(', ')} yet.`);
  }
  for (const r of m.restarts ?? []) {
    const now =
      r.state === 'new-launcher'
        ? 'it runs on the new launcher now: the restart took effect, and it is not sent again'
        : r.state === 'old-launcher'
          ? 'it still runs on the old launcher: the restart did not take effect; the journal settles it by reading the VM before anything is sent again'
          : `it is not running now (${r.phase}): the journal settles the restart by reading the VM before anything is sent again`;
    lines.push(`The restart of ${r.vm} was in flight when the session stopped; ${now}.`);
  }
  if (m.migrations) {
    const { succeeded, failed, running } = m.migrations;
    const ended = succeeded + failed;
    lines.push(ended || running ? `Migrations since the stop: ${succeeded} succeeded, ${failed} failed${running ? `; ${running} in flight now` : ''}.` : 'No migration ran since the stop.');
  }
  return lines;
}

const where = (s: StepState) => (s.hop ? `${s.title} (hop ${s.hop.index}/${s.hop.count})` : s.title);

/** VMs earlier recoveries left on the old launcher: offered again at the next recovery or at verification. */
function outstandingLine(now: SessionState): string | undefined {
  const vms = [...new Set(steps(now).filter((s) => s.kind === 'recover' && s.status === 'succeeded').flatMap((s) => (s.output as RecoverContract | undefined)?.outstanding ?? []))];
  if (vms.length === 0) return undefined;
  const list = `${vms.slice(0, 4).join(', ')}${vms.length > 4 ? ', …' : ''}`;
  return `${plural(vms.length, 'VM')} left on the old launcher (${list}): offered again at the next recovery or at verification.`;
}

export function resumeSummary(before: SessionState, now: SessionState, meanwhile?: Meanwhile, today = wallDate(new Date().toISOString())): ResumeSummary {
  const next = currentStep(now);
  const asked = next?.status === 'awaitingApproval' && next.gate ? `: ${next.gate.title}` : '';
  const outstanding = outstandingLine(now);
  return {
    stopped: howItStopped(before, today),
    settled: settledLines(before, now),
    meanwhile: meanwhileLines(meanwhile),
    ...(outstanding ? { outstanding } : {}),
    next: now.run.status === 'done' ? 'Nothing is left to do.' : next ? sentence(`Next: ${where(next)}${asked}`) : 'Next: the remaining steps.',
  };
}

/** The summary as plain lines (plain mode, and the banner's rows before wrapping). */
export function resumeLines(s: ResumeSummary): string[] {
  return [
    s.stopped,
    ...(s.settled.length ? ['Settled from the journal:', ...s.settled.map((l) => `  • ${l}`)] : []),
    ...s.meanwhile,
    ...(s.outstanding ? [s.outstanding] : []),
    s.next,
  ];
}
