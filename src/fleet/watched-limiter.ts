/**
 * The fleet's shared rate limiter, watched for the screen: how many Palette requests are waiting for
 * the budget right now. A request is counted as waiting only once it has waited longer than
 * `graceMs` (every request passes through the limiter; one let through at once is not "waiting"),
 * so the screen says "reads wait for the rate limit" only when they really do.
 */
import type { Params } from '../engine/params.js';
import { defaultRateLimits, RateLimiter, type Limiter } from '../palette/rate-limit.js';

export class WatchedLimiter implements Limiter {
  private next = 0;
  /** When each request still in the limiter asked, by a number of its own. */
  private readonly startedAt = new Map<number, number>();

  constructor(
    private readonly inner: Limiter,
    private readonly now: () => number = Date.now,
    private readonly graceMs = 200,
  ) {}

  async acquire(path: string, signal?: AbortSignal): Promise<void> {
    const id = this.next++;
    this.startedAt.set(id, this.now());
    try {
      await this.inner.acquire(path, signal);
    } finally {
      this.startedAt.delete(id);
    }
  }

  sent(path: string, delayMs: number): void {
    this.inner.sent?.(path, delayMs);
  }

  /** Requests that have waited longer than the grace time and still wait. */
  waiting(): number {
    const now = this.now();
    let n = 0;
    for (const at of this.startedAt.values()) if (now - at > this.graceMs) n += 1;
    return n;
  }
}

/**
 * One budget for every cluster's calls to Palette (the documented rates unless the defaults say
 * less). It starts full: a coordinator killed a moment ago may have spent this
 * second's budget. Watched: the screen says when reads wait for it.
 */
export function fleetRateLimiter(connection: Pick<Params, 'palette'>): WatchedLimiter {
  return new WatchedLimiter(new RateLimiter({ ...defaultRateLimits, ...connection.palette.rateLimits }, undefined, undefined, true));
}
