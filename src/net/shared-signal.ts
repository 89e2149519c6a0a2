/**
 * One command's abort signal is shared by every request and process it has in flight or queued
 * (registry reads waiting for the rate limiter, 16 cluster reads, their retries): each adds a
 * listener. Many listeners are expected there, not a leak worth Node's MaxListenersExceededWarning
 * on the operator's terminal (`plan` and `diff` printed it: test/e2e/quiet-commands.test.ts).
 */
import { getMaxListeners, setMaxListeners } from 'node:events';

const SHARED = 1_000;

export function allowSharing(signal: AbortSignal | undefined): void {
  if (signal && getMaxListeners(signal) < SHARED) setMaxListeners(SHARED, signal);
}

/**
 * A shared answer (one read or process for several callers), awaited as long as this caller's own
 * signal lets it: a caller stopped meanwhile gets `stopped()` at once, and the others still get the
 * answer.
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, stopped: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
