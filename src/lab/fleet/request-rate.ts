/**
 * What the fleet lab's Palette saw, per rate class (the route classes of Palette's documented limits,
 * src/palette/rate-limit.ts): the most requests that arrived within any one second. A fleet's shared
 * limiter must keep every class at or under its limit, whatever the number of clusters.
 */
import { routeClass, type RateLimits } from '../../palette/rate-limit.js';

export class RequestRate {
  private readonly arrivals = new Map<string, number[]>();

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  record(path: string): void {
    const cls = routeClass(this.limits, path);
    let list = this.arrivals.get(cls);
    if (!list) this.arrivals.set(cls, (list = []));
    list.push(this.now());
  }

  /** Per class: requests in all, and the most within any 1000 ms. */
  peaks(): Record<string, { requests: number; peakPerSecond: number; limit: number }> {
    const out: Record<string, { requests: number; peakPerSecond: number; limit: number }> = {};
    for (const [cls, times] of this.arrivals) {
      let peak = 0;
      let start = 0;
      for (let end = 0; end < times.length; end++) {
        while (times[end]! - times[start]! >= 1000) start++;
        peak = Math.max(peak, end - start + 1);
      }
      out[cls] = { requests: times.length, peakPerSecond: peak, limit: this.limits[cls] ?? this.limits.default ?? 0 };
    }
    return out;
  }
}
