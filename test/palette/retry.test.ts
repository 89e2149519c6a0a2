import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, transientNetworkCode, transientStatus, type RetryPolicy } from '../../src/palette/retry.js';
import { seeded, withSeed } from '../support/seed.js';

const policy: RetryPolicy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalMs: 10_000 };

describe('retry policy', () => {
  it('full jitter: uniform between 0 and the capped exponential step', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(0);
    expect(backoffDelay(1, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
  });

  it('full jitter stays within its step for random draws, and uses the whole step', () =>
    withSeed('test/palette/retry.test.ts', (seed) => {
      const random = seeded(seed);
      const delays = Array.from({ length: 200 }, () => backoffDelay(4, policy, random));
      for (const d of delays) {
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(800);
        expect(Number.isInteger(d)).toBe(true);
      }
      // Uniform over 0..799: 200 draws all in one half would be a one in 10^60 event.
      expect(delays.some((d) => d < 400)).toBe(true);
      expect(delays.some((d) => d >= 400)).toBe(true);
    }));

  it.each([
    ['2', 2_000],
    ['0', 0],
    ['1.5', 1_500],
    [' 3 ', 3_000],
    ['Thu, 01 Jan 2030 00:00:10 GMT', 10_000],
    ['Thu, 01 Jan 2029 00:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Retry-After %j waits %j ms', (value, ms) => {
    expect(parseRetryAfter(value, Date.UTC(2030, 0, 1))).toBe(ms);
  });

  it('retries server and proxy failures and connection trouble, not client errors, DNS or certificates', () => {
    expect([500, 502, 503, 504].every(transientStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 429, 501].some(transientStatus)).toBe(false);
    expect(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'].every(transientNetworkCode)).toBe(true);
    expect(['ENOTFOUND', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'].some(transientNetworkCode)).toBe(false);
  });
});
