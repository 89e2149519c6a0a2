/**
 * The runner's stops that are not a step's own: a fleet's "stop after the step in progress"
 * (between steps, or at a polling step's next poll), and the drift gate a resume asks when the
 * cluster changed since the session was saved.
 */
import type { Clock } from './clock.js';
import { InterruptedError } from '../errors.js';
import type { GateRequest } from './gate.js';
import type { GroupPlaceholder, StepState } from './state.js';

const stepName = (s: Pick<StepState, 'id' | 'title'>) => `${s.title} (${s.id})`;

/** The stop a `stopAfterStep` request ends in, between steps: which step finished last, which comes next. */
export function stoppedSafely(last: StepState | undefined, next: StepState | GroupPlaceholder): InterruptedError {
  const after = last ? `after ${stepName(last)}` : `before ${stepName(next)}`;
  return new InterruptedError(`Stopped safely ${after}; the session is saved.`, `Resume the session to continue with ${stepName(next)}.`);
}

/**
 * A polling step's clock under a `stopAfterStep` request: its next sleep (the wait between two
 * polls) ends the step instead, saved, with the session's ordinary interruption.
 */
export function stopAtPoll(clock: Clock, drain: AbortSignal, step: StepState): Clock {
  const stop = () => new InterruptedError(`Stopped safely at a poll of ${stepName(step)}; the session is saved.`, 'Resume the session: the step reads the cluster afresh and goes on waiting.');
  return {
    ...clock,
    now: () => clock.now(),
    async sleep(ms, signal) {
      if (drain.aborted) throw stop();
      const both = signal ? AbortSignal.any([signal, drain]) : drain;
      try {
        await clock.sleep(ms, both);
      } catch (err) {
        // Ctrl+C (the step's own signal) wins: it is the ordinary interruption.
        if (drain.aborted && !signal?.aborted) throw stop();
        throw err;
      }
    },
  };
}

/** On resume, the steps' recorded state no longer holds: continue with it anyway, or stop to re-plan. */
export function driftGate(findings: string[], resumes: number): GateRequest {
  return {
    gate: 'drift',
    key: `drift/${resumes}`,
    title: 'The cluster changed since the session was saved',
    lines: ['These steps recorded a state that no longer holds. Continuing uses what they recorded.'],
    items: findings,
    fix: 'Look at what changed (listed above): a new session plans from the cluster as it is now.',
    options: [
      { choice: 'approve', label: 'Continue anyway', key: 'c' },
      { choice: 'abort', label: 'Stop (start a new session to re-plan)', key: 'n' },
    ],
    safeChoice: 'abort',
  };
}
