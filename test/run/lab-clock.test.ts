import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParamsSchema } from '../../src/engine/params.js';
import { InputError } from '../../src/errors.js';
import { checkKeyDestinations, checkLabClockUrl, CLOCK_TIMEOUT_MS, labClock } from '../../src/run/lab-clock.js';

let server: Server;
let base = '';
let mode: 'ok' | 'hang' | 'huge' | 'redirect' = 'ok';
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.apikey ?? ''}`);
    if (mode === 'hang') return;
    if (mode === 'huge') {
      res.writeHead(200);
      return res.end('x'.repeat(1 << 20));
    }
    if (mode === 'redirect') {
      res.writeHead(302, { location: 'http://127.0.0.1:9/steal' });
      return res.end();
    }
    res.end(JSON.stringify({ now: 1_000_000, speed: 600 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const params = (extra: Record<string, unknown>, baseUrl = 'http://127.0.0.1:8080', palette: Record<string, unknown> = {}) =>
  ParamsSchema.parse({
    palette: { baseUrl, projectUid: 'p', ...palette },
    cluster: { uid: 'c' },
    profiles: { addon: { uid: 'a' }, infra: { uid: 'i' } },
    target: '4.6.3',
    site: { ingressIP: '10.0.0.1', blockStorageClass: 'x' },
    extra,
  });

describe('the lab clock URL may only point at the profile API itself', () => {
  it.each([
    ['http://127.0.0.1:8080/_lab/clock', true],
    ['http://127.0.0.1:8081/_lab/clock', false],
    ['https://127.0.0.1:8080/_lab/clock', false],
    ['http://evil.example.com/_lab/clock', false],
    ['http://127.0.0.1:8080@evil.example.com/', false],
    ['file:///etc/passwd', false],
    [42, false],
  ])('%j: %s', (url, ok) => {
    if (ok) expect(checkLabClockUrl(url, 'http://127.0.0.1:8080')).toBe(url);
    else {
      const err = (() => {
        try {
          checkLabClockUrl(url, 'http://127.0.0.1:8080');
        } catch (e) {
          return e as InputError;
        }
        throw new Error('accepted');
      })();
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toMatch(/is not on the profile API's origin \(http:\/\/127\.0\.0\.1:8080\): the clock is read with the API key, which goes to the profile API only/);
    }
  });

  it('checked with the base URL before anything is created or sent', () => {
    expect(() => checkKeyDestinations(params({ labClockUrl: 'http://evil.example.com/c' }))).toThrow(InputError);
    expect(() => checkKeyDestinations(params({}, 'http://palette.example.com'))).toThrow(/plain http:\/\//);
    expect(() => checkKeyDestinations(params({}, 'http://palette.example.com', { allowInsecureHttp: true }))).not.toThrow();
    expect(() => checkKeyDestinations(params({}, 'http://palette.example.com'), { allowInsecureHttp: true })).not.toThrow();
    expect(() => checkKeyDestinations(params({ labClockUrl: 'http://127.0.0.1:8080/_lab/clock' }))).not.toThrow();
  });
});

describe('reading the lab clock: bounded, never redirected', () => {
  it('follows a clock that answers', async () => {
    mode = 'ok';
    const clock = await labClock(`${base}/_lab/clock`, { ApiKey: 'k' });
    expect(clock.now()).toBeGreaterThanOrEqual(1_000_000);
  });

  it.each(['hang', 'huge', 'redirect'] as const)('a clock that does "%s": real time after one bounded read, the key sent nowhere else', async (m) => {
    mode = m;
    const started = Date.now();
    const clock = await labClock(`${base}/_lab/clock`, { ApiKey: 'k' });
    expect(Date.now() - started).toBeLessThan(CLOCK_TIMEOUT_MS + 1_000);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(5_000);
    // Sleeps do not each wait for the broken clock again.
    const t = Date.now();
    for (let i = 0; i < 3; i++) await clock.sleep(10);
    expect(Date.now() - t).toBeLessThan(CLOCK_TIMEOUT_MS);
  });
});
