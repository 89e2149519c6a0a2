import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParamsSchema } from '../../src/engine/params.js';
import { InputError } from '../../src/errors.js';
import { checkKeyDestinations, checkLabClockUrl, labClock } from '../../src/run/lab-clock.js';
import { isPending, until } from '../support/wait.js';

let server: Server;
let base = '';
let mode: 'ok' | 'hang' | 'huge' | 'redirect' = 'ok';
const seen: string[] = [];
const hung: Array<Promise<unknown>> = [];
let answer = { now: 1_000_000, speed: 600 };
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.apikey ?? ''}`);
    if (mode === 'hang') {
      // Held until the client gives up: settled when the client closes it.
      hung.push(new Promise((r) => res.on('close', r)));
      return;
    }
    if (mode === 'huge') {
      res.writeHead(200);
      return res.end('x'.repeat(1 << 20));
    }
    if (mode === 'redirect') {
      res.writeHead(302, { location: `${base}/steal` });
      return res.end();
    }
    res.end(JSON.stringify(answer));
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
  it('follows a clock that answers: its time and speed, read again after each sleep', async () => {
    mode = 'ok';
    answer = { now: 1_000_000, speed: 600 };
    const wallBefore = Date.now();
    const clock = await labClock(`${base}/_lab/clock`, { ApiKey: 'k' });
    // The lab's time, running at the lab's speed from its reading: nowhere near the wall clock.
    const t = clock.now();
    expect(t).toBeGreaterThanOrEqual(1_000_000);
    expect(t).toBeLessThanOrEqual(1_000_000 + (Date.now() - wallBefore) * 600);
    expect(clock.simulated?.speed()).toBe(600);
    // The lab jumps and slows down; the next sleep reads it again.
    answer = { now: 5_000_000_000, speed: 60 };
    await clock.sleep(600);
    const wallAfterSleep = Date.now();
    const jumped = clock.now();
    expect(jumped).toBeGreaterThanOrEqual(5_000_000_000);
    expect(jumped).toBeLessThanOrEqual(5_000_000_000 + (Date.now() - wallAfterSleep + 1_000) * 60);
    expect(clock.simulated?.speed()).toBe(60);
  });

  it.each(['hang', 'huge', 'redirect'] as const)('a clock that does "%s": real time after one bounded read, the key sent nowhere else', async (m) => {
    mode = m;
    const before = seen.length;
    const wallBefore = Date.now();
    const clock = await labClock(`${base}/_lab/clock`, { ApiKey: 'k' });
    // The wall clock, read after the failed read: between the two readings of it around this line.
    const t = clock.now();
    expect(t).toBeGreaterThanOrEqual(wallBefore);
    expect(t).toBeLessThanOrEqual(Date.now());
    expect(clock.simulated?.speed()).toBe(1);
    // One read, to the clock's own URL; a redirect's target (this server, elsewhere) is never asked.
    expect(seen.slice(before)).toEqual(['/_lab/clock k']);
    if (m !== 'hang') return;
    // Sleeps do not each wait for the broken clock again: one read in the background at a time.
    for (let i = 0; i < 3; i++) await clock.sleep(10);
    await until('the background read', () => seen.length === before + 2);
    expect(await isPending(hung.at(-1)!)).toBe(true);
    expect(seen.slice(before)).toEqual(['/_lab/clock k', '/_lab/clock k']);
  });
});
