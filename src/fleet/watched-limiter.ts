/**
 * The fleet's shared rate limiter, watched for the screen: how many Palette requests are waiting for
 * the budget right now. A request is counted as waiting only once it has waited longer than
 * `graceMs` (every request passes through the limiter; one let through at once is not "waiting"),
 * so the screen says "reads wait for the rate limit" only when they really do.
 */
import type { Limiter } from '../palette/rate-limit.js';

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

  /** Requests that have waited longer than the grace time and still wait. */
  waiting(): number {
    const now = this.now();
    let n = 0;
    for (const at of this.startedAt.values()) if (now - at > this.graceMs) n += 1;
    return n;
  }
}
