import { describe, expect, it } from 'vitest';
import { BearerToken } from '../../../src/lab/kube/access.js';

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };

describe('the lab token', () => {
  it('is minted on the wall clock and lasts a day', () => {
    // Read around the minting (not when the table of cases was built, which may be long before).
    const before = Math.floor(Date.now() / 1000);
    const { iat, exp } = claims(new BearerToken('jwt').value);
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(exp - iat).toBe(24 * 3600);
  });

  it.each([
    ['a lab clock at speed 60, two days ahead', { now: () => Date.UTC(2026, 10, 24), speed: () => 60 }, Date.UTC(2026, 10, 24), 60 * 24 * 3600],
    ['a lab clock slowed below 1 (never shorter than a day)', { now: () => Date.UTC(2026, 0, 1), speed: () => 0.5 }, Date.UTC(2026, 0, 1), 24 * 3600],
  ])('is minted on %s and lasts a day of wall time', (_name, clock, nowMs, lifetimeS) => {
    const { iat, exp } = claims(new BearerToken('jwt', clock).value);
    expect(iat).toBe(Math.floor(nowMs / 1000));
    expect(exp - iat).toBe(lifetimeS);
  });

  it('a renewed token is minted on the clock as it is then', () => {
    let now = Date.UTC(2026, 10, 22);
    const token = new BearerToken('jwt', { now: () => now, speed: () => 600 });
    const first = claims(token.value);
    now += 40 * 3600 * 1000;
    const renewed = claims(token.renew());
    expect(renewed.iat - first.iat).toBe(40 * 3600);
    expect(token.accepts(`Bearer ${token.value}`)).toBe(true);
  });

  it('an opaque token carries no claims', () => {
    expect(new BearerToken('opaque').value).toMatch(/^lab-[\w-]+$/);
  });
});
