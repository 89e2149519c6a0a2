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
