/**
 * Which failed reads are tried again, and how: a read that failed for now is sent again after a
 * wait; a failure of the read proxy is read again as a process unless the proxy already said all
 * there is to say. Changes are never retried here (the journal settles them by reading).
 */
import { backoffDelay, type RetryPolicy } from '../palette/retry.js';
import { classifyKubectlFailure, isTransient, type FailureContext, type KubeError } from './errors.js';

/**
 * Reads that fail for now (the API server or virt-api restarting: 5xx; throttled: 429) are tried
 * again, a few times, with jittered backoff or the server's Retry-After, all within the read's
 * budget (the process limit); never a change, which the journal settles by reading instead.
 */
export const READ_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 4_000, maxTotalMs: Infinity };

/** How long to wait before the next attempt of a read, or undefined to give up with this error. */
export function retryWait(err: unknown, attempt: number, leftMs: number, random: () => number = Math.random): number | undefined {
  if (!isTransient(err) || attempt >= READ_RETRY.attempts) return undefined;
  const wait = err.retryAfterMs ?? Math.max(100, backoffDelay(attempt, READ_RETRY, random));
  // No attempt that could not finish inside the budget: better the error now than a time-out later.
  return wait < leftMs - 1_000 ? wait : undefined;
}

/**
 * kubectl proxy's own error (its 500 text) when it says all there is to say: TLS, a TLS handshake
 * that never ends, a credential plugin that is not there. Reading it again as a process would take
 * as long again and say the same (a handshake time-out twice over). Anything else (a plugin that
 * failed, whose own words only reach a process's stderr; a refused connection, cheap to try again)
 * is read again as `kubectl get --raw`.
 */
export function proxyOwnFailure(said: string, context: FailureContext): KubeError | undefined {
  const error = classifyKubectlFailure(said, context);
  if (error.failure === 'tls' || error.failure === 'timeout') return error;
  if (error.failure === 'credential-plugin' && !/failed with exit code/.test(said)) return error;
  return undefined;
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
