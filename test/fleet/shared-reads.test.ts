/**
 * The Palette reads a fleet's clusters share (shared-reads.ts), and the transport that asks them:
 * the pack registry read once for the fleet; a profile version shared until any cluster sends a
 * change to a profile (a read on its way when the change went out is not given after it); each
 * cluster's own state never shared; a failed read not kept; a session stopped while it waits for a
 * shared read stops alone. A change goes out on a connection of its own.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/engine/clock.js';
import { FleetReads } from '../../src/fleet/shared-reads.js';
import { defaultRetryPolicy } from '../../src/palette/retry.js';
import { Transport, type Call, type Reply } from '../../src/palette/transport.js';
import { Redactor } from '../../src/session/redact.js';
import { startStub, type Stub } from '../palette/support.js';
import { listenOnLoopback } from '../support/loopback.js';

const get = (path: string): Call => ({ method: 'GET', path, retry: true });
const reply = (text: string): Reply => ({ status: 200, text });

describe('FleetReads', () => {
  it('reads the pack registry once for the fleet; a cluster’s own state every time', async () => {
    const reads = new FleetReads();
    let sent = 0;
    const send = () => Promise.resolve(reply(String(++sent)));
    for (const path of ['/v1/packs?filters=spec.name%3Dnginx', '/v1/packs/nginx/registries/r1?cloudType=all', '/v1/registries/metadata']) {
      expect(await reads.read(get(path), send)).toEqual(await reads.read(get(path), send));
    }
    expect(sent).toBe(3);
    for (const path of ['/v1/spectroclusters/c1', '/v1/spectroclusters/c1/profiles', '/v1/events/components/spectrocluster/c1?limit=8']) expect(reads.read(get(path), send)).toBeUndefined();
    // A change to a profile does not make a pack version's defaults stale.
    reads.changed({ method: 'PUT', path: '/v1/clusterprofiles/p1', retry: true });
    await reads.read(get('/v1/packs?filters=spec.name%3Dnginx'), send);
    expect(sent).toBe(3);
    expect(reads.stats).toEqual({ shared: 4, sent: 3 });
  });

  it('shares a profile version until a change to a profile, or its time, is up; a read on its way during a change is not given after it', async () => {
    let t = 0;
    const reads = new FleetReads(() => t, 60_000);
    let sent = 0;
    const send = () => Promise.resolve(reply(String(++sent)));
    const profile = get('/v1/clusterprofiles/p1');
    expect((await reads.read(profile, send))!.text).toBe('1');
    expect((await reads.read(profile, send))!.text).toBe('1');
    expect((await reads.read(get('/v1/dashboard/clusterprofiles/metadata'), send))!.text).toBe('2');
    reads.changed({ method: 'POST', path: '/v1/clusterprofiles/p1/clone', retry: false });
    expect((await reads.read(profile, send))!.text).toBe('3');
    expect((await reads.read(get('/v1/dashboard/clusterprofiles/metadata'), send))!.text).toBe('4');
    t += 60_000;
    expect((await reads.read(profile, send))!.text).toBe('5');
    // On its way when p2's draft is written: the next reader asks again.
    let answer: (r: Reply) => void = () => undefined;
    const slow = reads.read(get('/v1/clusterprofiles/p2'), () => new Promise<Reply>((r) => (answer = r)))!;
    reads.changed({ method: 'PUT', path: '/v1/clusterprofiles/p2', retry: true });
    answer(reply('old'));
    expect((await slow).text).toBe('old');
    expect((await reads.read(get('/v1/clusterprofiles/p2'), send))!.text).toBe('6');
  });

  it('keeps no failed read', async () => {
    const reads = new FleetReads();
    await expect(reads.read(get('/v1/registries/metadata'), () => Promise.reject(new Error('503')))).rejects.toThrow('503');
    expect((await reads.read(get('/v1/registries/metadata'), () => Promise.resolve(reply('ok'))))!.text).toBe('ok');
  });

  it('parses a shared answer once for every cluster that reads it, frozen so that none can change it for another', async () => {
    const reads = new FleetReads();
    const send = () => Promise.resolve(reply('{"spec":{"packs":[{"name":"cni","values":"a: 1"}]}}'));
    const one = (await reads.read(get('/v1/clusterprofiles/p1'), send))!;
    const two = (await reads.read(get('/v1/clusterprofiles/p1'), send))!;
    const json = one.json!() as { spec: { packs: Array<{ values: string }> } };
    expect(two.json!()).toBe(json);
    expect(json.spec.packs[0]!.values).toBe('a: 1');
    expect(Object.isFrozen(json.spec.packs[0])).toBe(true);
    expect(() => {
      json.spec.packs[0]!.values = 'b: 2';
    }).toThrow(TypeError);
    expect(one.text).toBe('{"spec":{"packs":[{"name":"cni","values":"a: 1"}]}}');
  });
});

describe('the transport with shared reads', () => {
  let stub: Stub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });
  const transport = (url: string, shared?: FleetReads) => new Transport({ baseUrl: url, projectUid: 'p', apiKey: 'k'.repeat(20), timeoutMs: 5_000, redactor: new Redactor(), retry: defaultRetryPolicy, clock: systemClock, ...(shared ? { shared } : {}) });

  it('two clusters’ clients send one registry read; one stopped while it waits stops alone', async () => {
    let hold: () => void = () => undefined;
    const released = new Promise<void>((r) => (hold = r));
    stub = await startStub((_req, res) => void released.then(() => res.end(JSON.stringify({ items: [] }))));
    const shared = new FleetReads();
    const [a, b] = [transport(stub.url, shared), transport(stub.url, shared)];
    const stop = new AbortController();
    const first = a.send({ ...get('/v1/registries/metadata'), signal: stop.signal });
    const second = b.send(get('/v1/registries/metadata'));
    stop.abort();
    await expect(first).rejects.toMatchObject({ kind: 'interrupted' });
    hold();
    expect(await second).toMatchObject({ status: 200 });
    expect(stub.requests.map((r) => r.url)).toEqual(['/v1/registries/metadata']);
  });

  it('a change goes out on a connection of its own; reads reuse theirs', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('{}'));
    server.on('connection', () => connections++);
    const listening = await listenOnLoopback(server);
    try {
      const t = transport(listening.url);
      await t.send(get('/v1/clusterprofiles/p1'));
      await t.send(get('/v1/clusterprofiles/p1'));
      expect(connections).toBe(1);
      await t.send({ method: 'PATCH', path: '/v1/clusterprofiles/p1/publish', retry: false });
      expect(connections).toBe(2);
      await t.send(get('/v1/clusterprofiles/p1'));
      expect(connections).toBe(2);
    } finally {
      await listening.close();
    }
  });
});
