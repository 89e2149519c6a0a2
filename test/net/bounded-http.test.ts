import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedRequest, HttpFailure, originOf } from '../../src/net/bounded-http.js';
import { until } from '../support/wait.js';

/** One local server whose behaviour is chosen by the path. */
let server: Server;
let base = '';
const seen: string[] = [];
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers['x-secret'] ?? ''}`);
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = req.url ?? '/';
    if (path === '/ok') return res.end('{"now":1,"speed":60}');
    if (path === '/post') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.end(`got ${body}`));
      return;
    }
    if (path === '/forever') {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      return pump();
    }
    if (path === '/declared-huge') {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      return res.write('a');
    }
    if (path === '/hang') return; // accepts, never answers
    if (path === '/drip') {
      res.writeHead(200);
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('.')), 100);
      return;
    }
    if (path === '/redirect') {
      res.writeHead(302, { location: `${base}/elsewhere` });
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of open) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function failure(p: Promise<unknown>): Promise<HttpFailure> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpFailure) return err;
    throw err;
  }
  throw new Error('succeeded');
}

describe('boundedRequest: a deadline on the whole exchange, a cap on the body, no redirects', () => {
  it('an answer within the limits', async () => {
    const r = await boundedRequest({ url: `${base}/ok`, timeoutMs: 2_000, maxBytes: 1024 });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.toString())).toEqual({ now: 1, speed: 60 });
  });

  it('sends a body (webhooks)', async () => {
    const r = await boundedRequest({ url: `${base}/post`, method: 'POST', body: 'hello', timeoutMs: 2_000, maxBytes: 1024 });
    expect(r.body.toString()).toBe('got hello');
  });

  it('an answer that streams forever is cut at the cap, memory bounded', async () => {
    const before = process.memoryUsage().rss;
    // The stream never ends: only the cap (too-large) or the deadline (timeout) can end the read.
    const err = await failure(boundedRequest({ url: `${base}/forever`, timeoutMs: 60_000, maxBytes: 1024 * 1024 }));
    expect(err.kind).toBe('too-large');
    expect(err.message).toMatch(/larger than 1 MiB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('a declared length over the cap is refused before reading', async () => {
    expect((await failure(boundedRequest({ url: `${base}/declared-huge`, timeoutMs: 5_000, maxBytes: 1024 }))).kind).toBe('too-large');
  });

  it.each([
    ['a server that never answers', '/hang'],
    ['a server that drips a byte at a time', '/drip'],
  ])('%s: ends at the deadline', async (_name, path) => {
    // Neither ever finishes its answer: nothing but the deadline can end the exchange, and the
    // failure says it was the deadline (a drip is not mistaken for progress).
    const err = await failure(boundedRequest({ url: `${base}${path}`, timeoutMs: 500, maxBytes: 1 << 20 }));
    expect(err.kind).toBe('timeout');
  });

  it('a redirect is returned, not followed: nothing reaches the other place', async () => {
    const before = seen.length;
    const r = await boundedRequest({ url: `${base}/redirect`, headers: { 'x-secret': 'k' }, timeoutMs: 2_000, maxBytes: 1024 });
    expect(r.status).toBe(302);
    expect(seen.slice(before)).toEqual(['GET /redirect k']);
  });

  it('a refused connection, a bad URL, another scheme, an abort', async () => {
    expect((await failure(boundedRequest({ url: 'http://127.0.0.1:9/', timeoutMs: 2_000, maxBytes: 1 }))).kind).toBe('network');
    expect((await failure(boundedRequest({ url: 'not a url', timeoutMs: 2_000, maxBytes: 1 }))).kind).toBe('bad-url');
    expect((await failure(boundedRequest({ url: 'file:///etc/passwd', timeoutMs: 2_000, maxBytes: 1 }))).kind).toBe('bad-url');
    const controller = new AbortController();
    const before = seen.length;
    const p = boundedRequest({ url: `${base}/hang`, timeoutMs: 60_000, maxBytes: 1, signal: controller.signal });
    // Aborted while the server holds the request (not before it was sent).
    await until('the server to hold the request', () => seen.slice(before).includes('GET /hang '));
    controller.abort();
    expect((await failure(p)).kind).toBe('aborted');
  });

  it.each([
    ['http://127.0.0.1:8080/_lab/clock', 'http://127.0.0.1:8080'],
    ['https://api.example.com/v1/x', 'https://api.example.com'],
    ['ftp://x', undefined],
    ['nonsense', undefined],
  ])('originOf(%s)', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});
