/**
 * The profile client against servers that misbehave on purpose: answers that never end (plain or
 * as a gzip bomb), that drip, that are 5 MB of terminal escapes, that echo the key in base64, that
 * redirect elsewhere; a 429 or 503 on a publish; a base URL that would send the key in clear.
 */
import { getEventListeners } from 'node:events';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { PaletteApiError } from '../../src/palette/errors.js';
import { assertSafeBaseUrl, isLoopbackHost } from '../../src/palette/transport.js';
import { API_KEY } from '../lab/palette/support.js';
import { clientFor, jsonAnswer, startStub, type Stub } from './support.js';

let stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  stubs = [];
});
async function stub(handler: Parameters<typeof startStub>[0]): Promise<Stub> {
  const s = await startStub(handler);
  stubs.push(s);
  return s;
}

async function failure(p: Promise<unknown>): Promise<PaletteApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(PaletteApiError);
    return err as PaletteApiError;
  }
  throw new Error('succeeded');
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('every answer is read up to a cap (exit 4 past it), the whole exchange within the time-out', () => {
  it('an answer that streams forever: stopped at the cap, memory bounded', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const before = process.memoryUsage().rss;
    const err = await failure(clientFor(s.url, { maxResponseBytes: 4 * 1024 * 1024 }).client.getProfile('p1'));
    expect(err.code).toBe('palette.too-large');
    expect(err.message).toBe('The profile API\'s answer to GET /v1/clusterprofiles/p1 is larger than 4 MiB; it was not read.');
    expect(err.hint).toMatch(/raise palette\.maxResponse in the params file/);
    expect(err.exitCode).toBe(4);
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 1024 * 1024);
  });

  it('a gzip bomb: counted after decompression', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(200_000);
    const err = await failure(clientFor(s.url, { maxResponseBytes: 1024 * 1024 }).client.getProfile('p1'));
    expect(err.code).toBe('palette.too-large');
  });

  it('a declared length over the cap is refused before the body is read', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write('{');
    });
    expect((await failure(clientFor(s.url, { maxResponseBytes: 1024 * 1024 }).client.getProfile('p1'))).code).toBe('palette.too-large');
  });

  it('an answer that drips: the time-out covers the body too', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"metadata":');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 50);
    });
    // The body never ends: only the time-out can end the read, and the error says it was the time-out.
    const err = await failure(clientFor(s.url, { timeoutMs: 500, retry: { attempts: 1 } }).client.getProfile('p1'));
    expect(err.code).toBe('palette.timeout');
  });
});

describe('server text is made safe before it is shown', () => {
  it('an error body of 5 MB full of terminal escapes: cut, no control characters', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'Boom\u001b[2J', message: `\u001b]0;owned\u0007\u001b[31mred ${'x'.repeat(5_000_000)}`, ref: '\u009b2Jref' }));
    });
    const err = await failure(clientFor(s.url, { retry: { attempts: 1 } }).client.getProfile('p1'));
    expect(err.message).toMatch(/^The profile API failed with 500 on GET \/v1\/clusterprofiles\/p1 \(code Boom, "red x+… \(cut: 5,000,019 characters in all\)", ref ref\) after 1 attempt\.$/);
    expect(err.message).not.toMatch(CONTROL);
    expect(err.message.length).toBeLessThan(800);
  });

  it('a body that is not JSON, with escapes: quoted briefly and cleanly', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`\u001b[2J<html>${'y'.repeat(100_000)}`);
    });
    const err = await failure(clientFor(s.url, { retry: { attempts: 1 } }).client.getProfile('p1'));
    expect(err.message).toMatch(/the answer is not JSON \(<html>y+… \(cut: /);
    expect(err.message).not.toMatch(CONTROL);
  });

  it('the key echoed back, as it is or in base64, is redacted', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'Bad', message: `bad key ${API_KEY} aka ${Buffer.from(API_KEY).toString('base64')} in ${Buffer.from(`ApiKey: ${API_KEY}`).toString('base64')}` }));
    });
    const err = (await clientFor(s.url, { retry: { attempts: 1 } }).client.getProfile('p1').catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/bad key \[REDACTED\] aka \[REDACTED\]/);
    expect(err.message).not.toContain(API_KEY);
    expect(err.message).not.toContain(Buffer.from(API_KEY).toString('base64'));
  });
});

describe('the key goes to the profile API only', () => {
  it('a redirect to another host is not followed: the other host sees nothing', async () => {
    const elsewhere = await stub((_req, res) => res.end('{}'));
    const s = await stub((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v1/clusterprofiles/p1` });
      res.end();
    });
    const err = await failure(clientFor(s.url, { retry: { attempts: 1 } }).client.getProfile('p1'));
    expect(err.message).toMatch(/answered 302/);
    expect(elsewhere.requests).toEqual([]);
  });

  it.each([
    ['https://api.spectrocloud.com', true],
    ['http://127.0.0.1:8080', true],
    ['http://127.8.9.10', true],
    ['http://localhost:3000', true],
    ['http://lab.localhost', true],
    ['http://[::1]:8080', true],
    ['http://api.spectrocloud.com', false],
    ['http://10.0.0.5:8080', false],
    ['http://127.0.0.1.evil.com', false],
    ['http://localhost.evil.com', false],
    ['http://[::ffff:10.0.0.1]', false],
  ])('%s: %s', (url, accepted) => {
    if (accepted) expect(() => assertSafeBaseUrl(url)).not.toThrow();
    else {
      expect(() => assertSafeBaseUrl(url)).toThrow(InputError);
      expect(() => assertSafeBaseUrl(url)).toThrow(/plain http:\/\/ to another host: the API key would cross the network unencrypted/);
      expect(() => assertSafeBaseUrl(url, true)).not.toThrow();
    }
    expect(isLoopbackHost(new URL(url).hostname)).toBe(accepted && !url.startsWith('https://api'));
  });

  it('the client itself refuses before any request, saying how to allow it', () => {
    let err: unknown;
    try {
      clientFor('http://palette.example.com');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).hint).toMatch(/--allow-insecure-http or palette\.allowInsecureHttp: true/);
    expect(() => clientFor('http://palette.example.com', { allowInsecureHttp: true })).not.toThrow();
  });
});

describe('"not now" on a publish: not applied, with the wait the server asked for', () => {
  it.each([
    [429, { 'retry-after': '3' }, 'palette.rate-limited', 3_000],
    [429, {}, 'palette.rate-limited', 1_000],
    [503, { 'retry-after': '7' }, 'palette.unavailable', 7_000],
  ])('%d %j: retryAfterMs, not applied', async (status, headers, code, ms) => {
    const s = await stub((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end('{"code":"Later"}');
    });
    const err = await failure(clientFor(s.url).client.execute({ target: 'palette', method: 'PATCH', path: '/v1/clusterprofiles/p1/publish', summary: 'publish' }));
    expect(err).toMatchObject({ code, mayHaveApplied: false, retryAfterMs: ms, status });
    expect(s.requests).toHaveLength(1); // sent once: the gateway decides what happens next
  });

  it('a 503 without Retry-After on a publish may have applied: no wait offered, settled by reading', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const err = await failure(clientFor(s.url).client.execute({ target: 'palette', method: 'PATCH', path: '/v1/clusterprofiles/p1/publish', summary: 'publish' }));
    expect(err).toMatchObject({ code: 'palette.server-error', mayHaveApplied: true });
    expect(err.retryAfterMs).toBeUndefined();
  });
});

describe('a signal that outlives its requests keeps none of them', () => {
  it('after answers, refusals and a closed connection, the signal holds no listener (each kept its answer alive: the fleet grew by every cluster)', async () => {
    const s = await stub((req, res) => {
      if (req.url?.startsWith('/v1/clusterprofiles/gone')) return jsonAnswer(404, { code: 'ResourceNotFound', message: 'gone' })(req, res);
      if (req.url?.startsWith('/v1/clusterprofiles/cut')) return req.socket.destroy();
      return jsonAnswer(200, { items: [{ metadata: { name: 'a', uid: 'ua' }, spec: { version: '1.0.0' } }], listmeta: { continue: '' } })(req, res);
    });
    const session = new AbortController();
    const { client } = clientFor(s.url, { flavor: 'spec' });
    for (let i = 0; i < 5; i++) expect(await client.listProfiles({ signal: session.signal })).toHaveLength(1);
    await expect(client.getProfile('gone', { signal: session.signal })).rejects.toThrow(/was not found|gone/);
    await expect(client.getProfile('cut', { signal: session.signal })).rejects.toBeInstanceOf(PaletteApiError);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });
});
