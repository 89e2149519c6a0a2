/**
 * The retry policy for reads and draft writes: exponential backoff with full jitter (a random wait
 * between 0 and the capped exponential step, so many clients do not retry in lockstep), 429 waits
 * for the server's Retry-After, and both a bounded number of attempts and a bounded total time.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  maxTotalMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8_000, maxTotalMs: 60_000 };

export interface RetryInfo {
  /** `GET /v1/clusterprofiles/abc` */
  call: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  /** What went wrong: `503`, `429`, `ECONNRESET`, `ETIMEDOUT`. */
  reason: string;
  delayMs: number;
}

/** Full jitter: uniform in [0, min(maxDelay, base · 2^(attempt-1))]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Statuses worth another try: the server or a proxy in front of it failed for now. */
export const transientStatus = (status: number): boolean => status === 500 || status === 502 || status === 503 || status === 504;

/** Connection failures worth another try; a host that does not resolve or a bad certificate will not get better. */
export function transientNetworkCode(code: string): boolean {
  if (code === 'ENOTFOUND' || code === 'ERR_INVALID_URL') return false;
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) return false;
  return true;
}
