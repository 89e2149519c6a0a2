/**
 * How a stopped run's hint says to go on: normally a resume (the command as it works when pasted);
 * for a session that cannot be resumed (the embedded lab ran inside the process and ended with it),
 * what to fix first and why no resume is offered. A command that cannot work is never suggested.
 * Pure.
 */
import { GateStopError, type ErrorInfo, type PilotError } from '../errors.js';

/** `resume`: the command that continues the session; `ended`: why it cannot be, and what to do instead. */
export type Continuation = { resume: string } | { ended: string };

const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z(`])/;

/** The hint without its sentences that tell to resume (the rest, what to check or fix, stays). */
export function withoutResumeAdvice(hint: string): string {
  return hint
    .split('\n')
    .flatMap((line) => line.split(SENTENCE_END))
    .filter((sentence) => !/\bresum/i.test(sentence))
    .join(' ')
    .trim();
}

/** The stop's error with its hint saying how to go on (`how` undefined: as it was built). */
export function continued(error: PilotError, how: Continuation | undefined): PilotError | ErrorInfo {
  if (!how) return error;
  if (error instanceof GateStopError) return 'resume' in how ? error.withResume(how.resume) : error.withoutResume(how.ended);
  if ('resume' in how) return error;
  const first = error.fix ?? withoutResumeAdvice(error.hint ?? '');
  return { ...error.toInfo(), hint: first ? `${first} ${how.ended}` : how.ended };
}
