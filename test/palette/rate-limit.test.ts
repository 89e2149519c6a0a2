import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/engine/clock.js';
import { InterruptedError } from '../../src/errors.js';
import { defaultRateLimits, lateMemoryMs, RateLimiter, routeClass, SlidingWindow } from '../../src/palette/rate-limit.js';
import { seeded, withSeed } from '../support/seed.js';

/** Most requests in any window of `windowMs` among start times. */
function busiest(starts: number[], windowMs = 1000): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/** A start at or after `t` as the limiter would make it: wait as long as the window says, then start. */
function schedule(w: SlidingWindow, t: number): number {
  const at = t + w.waitFor(t);
  w.take(at);
  return at;
}

describe('SlidingWindow (the pure core)', () => {
  it.each([
    { name: 'a burst under the limit starts at once', limit: 10, asks: Array(10).fill(0), expected: Array(10).fill(0) },
    { name: 'the 11th of a burst waits a full second after the 1st', limit: 10, asks: Array(11).fill(0), expected: [...Array(10).fill(0), 1000] },
    { name: 'requests spread over time never wait', limit: 2, asks: [0, 600, 1200, 1800], expected: [0, 600, 1200, 1800] },
    { name: 'a third request within the second waits for the oldest to leave it', limit: 2, asks: [0, 100, 200], expected: [0, 100, 1000] },
    { name: 'waiting requests keep their order (first come, first served)', limit: 1, asks: [0, 0, 0, 0], expected: [0, 1000, 2000, 3000] },
    { name: 'a fractional limit allows whole requests (2.5/s → 2 per second)', limit: 2.5, asks: [0, 0, 0], expected: [0, 0, 1000] },
    { name: 'a limit under 1/s still lets one request through per second', limit: 0.5, asks: [0, 0], expected: [0, 1000] },
  ])('$name', ({ limit, asks, expected }) => {
    const w = new SlidingWindow(limit);
    expect(asks.map((t) => schedule(w, t))).toEqual(expected);
  });

  it('never puts more than the limit in any one-second window, whatever the arrival pattern', () =>
    withSeed('test/palette/rate-limit.test.ts', (seed) => {
      const random = seeded(seed);
      for (const limit of [1, 3, 10, 50]) {
        const w = new SlidingWindow(limit);
        let t = 0;
        const asks: number[] = [];
        const starts: number[] = [];
        for (let i = 0; i < 500; i++) {
          t += Math.floor(random() * (random() < 0.2 ? 400 : 20));
          asks.push(t);
          starts.push(schedule(w, t));
        }
        expect(busiest(starts), `limit ${limit}`).toBeLessThanOrEqual(limit);
        // At their busiest the arrivals come 30 or more in a second: more than the small limits allow,
        // so the window had to hold requests back (or the test would prove nothing). None started early.
        if (limit <= 10) expect(busiest(asks), `limit ${limit}: the arrivals`).toBeGreaterThan(limit);
        starts.forEach((at, i) => expect(at).toBeGreaterThanOrEqual(asks[i]!));
      }
    }));

  it('under steady overload it lets exactly the limit through per second, no less', () => {
    const w = new SlidingWindow(10);
    const starts = Array.from({ length: 100 }, (_, i) => schedule(w, i * 10)); // 100/s offered
    expect(busiest(starts)).toBe(10);
    // Each request starts a second after the one ten places ahead of it: 100 requests take just over 9 s.
    expect(starts.at(-1)).toBe(9090);
  });

  it('refuses a limit of 0 or less', () => {
    expect(() => new SlidingWindow(0)).toThrow(/above 0/);
  });
});

describe('routeClass', () => {
  it.each([
    ['/v1/packs?filters=spec.name%3Dnginx', '/v1/packs'],
    ['/v1/packs/nginx/registries/abc?cloudType=all', '/v1/packs'],
    ['/v1/registries/metadata', '/v1/registries'],
    ['/v1/clusterprofiles/abc/publish', '/v1/clusterprofiles'],
    ['/v1/spectroclusters/abc/profiles', '/v1/spectroclusters'],
    ['/v1/notifications/spectrocluster/abc?isDone=false', '/v1/notifications'],
    ['/v1/dashboard/clusterprofiles?limit=50', '/v1/dashboard'],
    ['/v1/dashboard/clusterprofiles/metadata', '/v1/dashboard'],
    ['/v1/clusterprofiles/abc/clone', '/v1/clusterprofiles'],
    ['/v1/events/components/spectrocluster/abc?limit=8', '/v1/events'],
    ['/v1/packsearch', 'default'],
    ['/v1/users/me', 'default'],
  ])('%s → %s', (path, cls) => {
    expect(routeClass(defaultRateLimits, path)).toBe(cls);
  });

  it("Palette's documented rates: the dashboard lists 10/s (never the profiles' 50/s), profiles, clusters and events 50/s", () => {
    const rate = (path: string) => defaultRateLimits[routeClass(defaultRateLimits, path)];
    expect(rate('/v1/dashboard/clusterprofiles')).toBe(10);
    expect(rate('/v1/dashboard/clusterprofiles/metadata')).toBe(10);
    expect(rate('/v1/clusterprofiles/abc')).toBe(50);
    expect(rate('/v1/spectroclusters/abc/profiles')).toBe(50);
    expect(rate('/v1/events/components/spectrocluster/abc')).toBe(50);
    expect(rate('/v1/notifications/spectrocluster/abc')).toBe(10);
  });

  it('prefers the longest prefix', () => {
    expect(routeClass({ '/v1/packs': 10, '/v1/packs/nginx': 1, default: 5 }, '/v1/packs/nginx/registries/x')).toBe('/v1/packs/nginx');
  });
});

describe('RateLimiter', () => {
  function fakeClock(): Clock & { slept: number[] } {
    let now = 0;
    const slept: number[] = [];
    return {
      slept,
      now: () => now,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw new InterruptedError();
        slept.push(ms);
        now += ms;
      },
    };
  }

  it('spaces each route class on its own: packs at 10/s do not slow profiles at 50/s', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(defaultRateLimits, clock, 0);
    for (let i = 0; i < 10; i++) await limiter.acquire('/v1/packs?filters=x');
    for (let i = 0; i < 50; i++) await limiter.acquire('/v1/clusterprofiles/a');
    expect(clock.slept).toEqual([]);
    await limiter.acquire('/v1/packs/nginx/registries/r');
    expect(clock.slept).toEqual([1000]);
  });

  it('takes configured rates over the defaults, and a default for every other path', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ '/v1/packs': 2 }, clock, 0);
    for (let i = 0; i < 3; i++) await limiter.acquire('/v1/packs');
    expect(clock.slept).toEqual([1000]);
    for (let i = 0; i < 10; i++) await limiter.acquire('/v1/users/me');
    expect(clock.slept).toEqual([1000]);
  });

  it('keeps a margin over the server\'s second by default, so jitter on the way does not push a second over', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ default: 1 }, clock);
    await limiter.acquire('/v1/x');
    await limiter.acquire('/v1/x');
    expect(clock.slept).toEqual([1100]);
  });

  it('starting full, waits out a whole window before its first request of each class (a process taking over from one just killed)', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ default: 2, '/v1/packs': 10 }, clock, 0, true);
    await limiter.acquire('/v1/x');
    expect(clock.slept).toEqual([1000]);
    await limiter.acquire('/v1/x');
    expect(clock.slept).toEqual([1000]);
    await limiter.acquire('/v1/packs');
    expect(clock.slept).toEqual([1000, 1000]);
  });

  it('counts the actual start: a waiter that wakes late does not let the next one start early', async () => {
    let now = 0;
    const late: Clock = { now: () => now, sleep: async (ms) => void (now += ms + 300) }; // every sleep overruns by 300 ms
    const limiter = new RateLimiter({ default: 2 }, late, 0);
    const starts: number[] = [];
    for (let i = 0; i < 6; i++) {
      await limiter.acquire('/v1/x');
      starts.push(now);
    }
    expect(busiest(starts)).toBeLessThanOrEqual(2);
  });

  it('with its margin, no second of departures up to the margin late holds more than the limit (a wider window is not a larger budget)', async () => {
    // Before: the 1.1 s window admitted 11 starts of a 10/s class (55 of 50/s), and the fleet bench saw 11 and 54 in one second.
    for (const limit of [10, 50]) {
      const clock = fakeClock();
      const limiter = new RateLimiter({ default: limit }, clock);
      const starts: number[] = [];
      for (let i = 0; i < limit * 5; i++) {
        await limiter.acquire('/v1/x');
        starts.push(clock.now());
      }
      expect(busiest(starts, 1100)).toBe(limit);
      // Each request leaves up to 100 ms after it was let through, the worst way round: still the limit in any second.
      const departures = starts.map((t, i) => t + (i % limit === 0 ? 100 : 0));
      expect(busiest(departures)).toBeLessThanOrEqual(limit);
    }
  });

  it('widens its window to the latest late departure it was told of, and narrows it again once that is old', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ default: 2 }, clock);
    expect(limiter.windowMs()).toBe(1100);
    limiter.sent('/v1/x', 60); // within the margin: nothing changes
    expect(limiter.windowMs()).toBe(1100);
    limiter.sent('/v1/x', 450); // a busy event loop or a new TLS connection
    expect(limiter.windowMs()).toBe(1450);
    await limiter.acquire('/v1/x');
    await limiter.acquire('/v1/x');
    await limiter.acquire('/v1/x');
    expect(clock.slept).toEqual([1450]);
    clock.slept.length = 0;
    await clock.sleep(lateMemoryMs);
    expect(limiter.windowMs()).toBe(1100);
  });

  it('a wait ends with InterruptedError when the run is stopped', async () => {
    const limiter = new RateLimiter({ default: 1 }, fakeClock());
    await limiter.acquire('/v1/x');
    await expect(limiter.acquire('/v1/x', AbortSignal.abort())).rejects.toBeInstanceOf(InterruptedError);
  });
});
