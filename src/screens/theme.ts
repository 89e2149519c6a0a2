/**
 * Colours and labels. Every status has a text label as well as a colour, so screens read the same
 * without colour, under NO_COLOR, and to a screen reader.
 */
import type { SessionState, StepState, StepStatus } from '../engine/state.js';
import { isStop } from '../errors.js';

export const noColor = (): boolean => 'NO_COLOR' in process.env && process.env.NO_COLOR !== '';

export type Tone = 'pass' | 'fail' | 'warn' | 'unknown' | 'info' | 'muted' | 'accent';

const colours: Record<Tone, string> = {
  pass: 'green',
  fail: 'red',
  warn: 'yellow',
  unknown: 'gray',
  info: 'cyan',
  muted: 'gray',
  accent: 'magenta',
};

/** The colour for a tone, or undefined under NO_COLOR (Ink then prints plain text). */
export function colour(tone: Tone): string | undefined {
  return noColor() ? undefined : colours[tone];
}

export const toneLabel: Record<Exclude<Tone, 'muted' | 'accent'>, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  unknown: 'UNKNOWN',
  info: 'INFO',
};

export type DisplayStatus = StepStatus | 'stopped' | 'outstanding';

/** A step left running or waiting by a run that stopped is shown as stopped there, not as running. */
export function displayStatus(status: StepStatus, runStatus: string): DisplayStatus {
  return runStatus !== 'running' && (status === 'running' || status === 'awaitingApproval') ? 'stopped' : status;
}

export const stepIcon: Record<DisplayStatus, { icon: string; tone: Tone; label: string }> = {
  stopped: { icon: '⏸', tone: 'warn', label: 'stopped here (resume to continue)' },
  pending: { icon: '·', tone: 'muted', label: 'pending' },
  running: { icon: '▶', tone: 'info', label: 'running' },
  awaitingApproval: { icon: '?', tone: 'warn', label: 'waiting for you' },
  succeeded: { icon: '✔', tone: 'pass', label: 'done' },
  failed: { icon: '✖', tone: 'fail', label: 'failed' },
  skipped: { icon: '–', tone: 'muted', label: 'skipped' },
  outstanding: { icon: '!', tone: 'warn', label: 'done, with VMs left outstanding' },
};

/** VMs whose restart the session sent (or found done), whichever step sent it. */
export function restartedVms(mutations: SessionState['mutations']): Set<string> {
  const done = new Set<string>();
  for (const [key, m] of Object.entries(mutations)) {
    const vm = /\/restart\/(.+)\/send$/.exec(key)?.[1];
    if (vm && m.outcome && m.outcome !== 'failed' && m.outcome !== 'recorded') done.add(vm);
  }
  return done;
}

/**
 * How a step shows in the list: an operator's stop (an abort at a gate) is amber like any stop,
 * not red; a step that finished but left something for later (VMs not restarted) is amber too.
 */
export function stepDisplay(step: Pick<StepState, 'status' | 'error' | 'output'>, runStatus: string, restartedLater: ReadonlySet<string> = new Set()): DisplayStatus {
  if (step.status === 'failed' && step.error && isStop(step.error)) return 'stopped';
  const outstanding = (step.output as { outstanding?: unknown } | undefined)?.outstanding;
  // Green again once a later step (verification's offer) restarted every VM it left.
  if (step.status === 'succeeded' && Array.isArray(outstanding) && outstanding.some((vm) => !restartedLater.has(String(vm)))) return 'outstanding';
  return displayStatus(step.status, runStatus);
}
