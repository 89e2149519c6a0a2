/**
 * Client-side rate limits, so the tool stays under what Palette allows a client (about 10 requests
 * per second for most endpoints, 50 for profiles, clusters and events) instead of learning it from
 * 429s. Each route class has its own sliding window: a request starts only when fewer than `limit`
 * requests of its class started in the last second. A window, not a token bucket: a bucket lets a
 * full burst through right after a full second's refill, twice the rate in some second.
 *
 * `SlidingWindow` is the pure core (start times in, how long to wait out); `RateLimiter` waits and
 * counts the actual start. Retries count like any other request: each attempt asks again.
 */
import { systemClock, type Clock } from '../engine/clock.js';

/** Requests per second by path prefix (`/v1/packs`); `default` for every other path. */
export type RateLimits = Record<string, number>;

/**
 * Palette's documented rates, per client and endpoint prefix (50/s with a burst of 250 for profiles,
 * clusters and events; 10/s with a burst of 50 for the rest). `/v1/dashboard` is named although the
 * default covers it: its lists (`/v1/dashboard/clusterprofiles`) must never count as `/v1/clusterprofiles`.
 */
export const defaultRateLimits: RateLimits = {
  '/v1/dashboard': 10,
  '/v1/packs': 10,
  '/v1/registries': 10,
  '/v1/notifications': 10,
  '/v1/clusterprofiles': 50,
  '/v1/spectroclusters': 50,
  '/v1/clusters': 50,
  '/v1/events': 50,
  default: 10,
};

export class SlidingWindow {
  /** Start times within the last window, ascending. */
  private readonly starts: number[] = [];
  private readonly perWindow: number;

  constructor(
    readonly limit: number,
    /** Widened by the limiter when requests leave later than they were let through (see RateLimiter.sent). */
    public windowMs = 1000,
  ) {
    if (!(limit > 0)) throw new Error(`a rate limit must be above 0, got ${limit}`);
    // Whole requests per second (a limit of 2.5/s allows 2 in any second), and always at least one.
    this.perWindow = Math.max(1, Math.floor(limit));
  }

  /** How long from `now` until a request may start without putting more than the limit in one window (0: at once). */
  waitFor(now: number): number {
    while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift();
    const n = this.starts.length;
    return n < this.perWindow ? 0 : Math.max(0, this.starts[n - this.perWindow]! + this.windowMs - now);
  }

  /** A request starts at `now` (call only when `waitFor(now)` is 0). */
  take(now: number): void {
    this.starts.push(Math.max(now, this.starts.at(-1) ?? now));
  }
}

/** The route class of a path: its longest configured prefix (at a segment boundary), else `default`. */
export function routeClass(limits: RateLimits, path: string): string {
  const bare = path.split('?')[0] ?? path;
  let best = 'default';
  for (const prefix of Object.keys(limits)) {
    if (prefix === 'default') continue;
    const matches = bare === prefix || bare.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
    if (matches && (best === 'default' || prefix.length > best.length)) best = prefix;
  }
  return best;
}

export interface Limiter {
  /** Resolves when a request to `path` may start; rejects with InterruptedError when `signal` aborts. */
  acquire(path: string, signal?: AbortSignal): Promise<void>;
  /**
   * The request let through `delayMs` ago has now left the process (its bytes written). A limiter
   * that counts starts when it lets them through uses this to keep its count true on a busy machine.
   */
  sent?(path: string, delayMs: number): void;
}

/**
 * A request's time on the wire is not its start here (a busy event loop, a new connection's TLS
 * handshake): the window is a little longer than the second the server counts, so requests that
 * leave up to `marginMs` after they were let through stay under it.
 */
export const defaultMarginMs = 100;

/** How long a late departure keeps the window wide: long enough to cover the load that caused it. */
export const lateMemoryMs = 30_000;

export class RateLimiter implements Limiter {
  private readonly windows = new Map<string, SlidingWindow>();
  private readonly limits: RateLimits;
  /** Recent departures later than the margin: when noted, and how late (ms after being let through). */
  private late: Array<{ at: number; delayMs: number }> = [];

  /** The clock is the wall clock: the server counts real seconds, whatever time the tool runs on. */
  /**
   * `startFull`: each class starts as if a full second's budget had just been spent - for a process
   * that takes over from one that may have been sending until a moment ago (a fleet resumed after a
   * crash: Palette counts the dead coordinator's last second too).
   */
  constructor(
    limits: RateLimits = defaultRateLimits,
    private readonly clock: Clock = systemClock,
    private readonly marginMs = defaultMarginMs,
    private readonly startFull = false,
  ) {
    this.limits = { ...limits, default: limits.default ?? defaultRateLimits.default! };
  }

  /**
   * The window every class uses now: a second, plus the margin, plus the latest departure seen in
   * the last `lateMemoryMs`. Starts counted over a window that long never put more than the limit
   * into any second of departures as late as that (on a loaded machine the event loop and new
   * connections delay requests by hundreds of ms, and a fixed margin let sends bunch above the limit).
   */
  windowMs(now = this.clock.now()): number {
    this.late = this.late.filter((l) => l.at > now - lateMemoryMs);
    const latest = this.late.reduce((m, l) => Math.max(m, l.delayMs), 0);
    return 1000 + Math.max(this.marginMs, latest);
  }

  sent(_path: string, delayMs: number): void {
    if (delayMs > this.marginMs) this.late.push({ at: this.clock.now(), delayMs: Math.min(delayMs, 5_000) });
  }

  async acquire(path: string, signal?: AbortSignal): Promise<void> {
    const cls = routeClass(this.limits, path);
    let window = this.windows.get(cls);
    if (!window) {
      window = new SlidingWindow(this.limits[cls]!, this.windowMs());
      if (this.startFull) {
        const at = this.clock.now();
        while (window.waitFor(at) === 0) window.take(at);
      }
      this.windows.set(cls, window);
    }
    // Only an actual start is counted: a waiter that wakes late (or after another took the slot) looks again.
    for (;;) {
      const now = this.clock.now();
      window.windowMs = this.windowMs(now);
      const wait = window.waitFor(now);
      if (wait <= 0) return window.take(now);
      await this.clock.sleep(wait, signal);
    }
  }
}
