/**
 * Client-side rate limits, so the tool stays under what Palette allows a client (about 10 requests
 * per second for most endpoints, 50 for profiles, clusters and events) instead of learning it from
 * 429s. Each route class has its own sliding window: a request starts only when fewer than `limit`
 * requests of its class started in the last second. A window, not a token bucket: a bucket lets a
 * full burst through right after a full second's refill, twice the rate in some second.
 *
 * `SlidingWindow` is the pure core (times in, reserved start times out); `RateLimiter` waits for
 * the reserved start. Retries count like any other request: each attempt asks again.
 */
import { systemClock, type Clock } from '../engine/clock.js';

/** Requests per second by path prefix (`/v1/packs`); `default` for every other path. */
export type RateLimits = Record<string, number>;

/** Palette's documented rates, per client. */
export const defaultRateLimits: RateLimits = {
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
  /** Start times reserved within the last window, ascending. */
  private readonly starts: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs = 1000,
  ) {
    if (!(limit > 0)) throw new Error(`a rate limit must be above 0, got ${limit}`);
  }

  /**
   * Reserves the earliest start at or after `now` that keeps every window of `windowMs` at or
   * under `limit` starts, in the order asked (first come, first served), and returns it.
   */
  reserve(now: number): number {
    while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift();
    const n = this.starts.length;
    // Whole requests per window (a limit of 2.5/s allows 2 in any second), and always at least one.
    const perWindow = Math.max(1, Math.floor(this.limit * (this.windowMs / 1000)));
    let at = Math.max(now, this.starts[n - 1] ?? now);
    if (n >= perWindow) at = Math.max(at, this.starts[n - perWindow]! + this.windowMs);
    this.starts.push(at);
    return at;
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
}

export class RateLimiter implements Limiter {
  private readonly windows = new Map<string, SlidingWindow>();
  private readonly limits: RateLimits;

  /** The clock is the wall clock: the server counts real seconds, whatever time the tool runs on. */
  constructor(
    limits: RateLimits = defaultRateLimits,
    private readonly clock: Clock = systemClock,
  ) {
    this.limits = { ...limits, default: limits.default ?? defaultRateLimits.default! };
  }

  async acquire(path: string, signal?: AbortSignal): Promise<void> {
    const cls = routeClass(this.limits, path);
    let window = this.windows.get(cls);
    if (!window) {
      window = new SlidingWindow(this.limits[cls]!);
      this.windows.set(cls, window);
    }
    const now = this.clock.now();
    const at = window.reserve(now);
    if (at > now) await this.clock.sleep(at - now, signal);
  }
}
