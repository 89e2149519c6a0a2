/** Fault injection in the Palette double, per route, over real HTTP. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaultRule } from '../../../src/lab/faults.js';
import { isPending, until, within } from '../../support/wait.js';
import { ADDON_UID, API_KEY, PROJECT_UID, startLab, type Lab } from './support.js';

const putBody = { metadata: { name: 'vmo-core', uid: ADDON_UID }, spec: { version: '1.3.0', template: { type: 'add-on', packs: [{ name: 'lb-metallb-helm', tag: '0.15.0' }] } } };
const profilePath = `/v1/clusterprofiles/${ADDON_UID}`;

describe('Palette double faults', () => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await startLab('spec');
  });
  afterEach(async () => {
    await lab.close();
  });

  const setFaults = async (rules: FaultRule[] | { rules: FaultRule[]; seed: number }) => {
    const res = await lab.call('POST', '/_lab/faults', rules);
    expect(res.status).toBe(200);
  };

  it('POST /_lab/faults sets the plan, GET lists it, bad plans are refused', async () => {
    await setFaults([{ route: 'GET /v1/clusterprofiles', faults: { latencyMs: 5 } }]);
    expect(await (await lab.call('GET', '/_lab/faults')).json()).toEqual([{ route: 'GET /v1/clusterprofiles', faults: { latencyMs: 5 } }]);
    await setFaults({ rules: [], seed: 3 });
    expect(lab.faults.list()).toEqual([]);
    const bad = await lab.call('POST', '/_lab/faults', [{ route: '*', faults: { errorRate: 2 } }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('errorRate');
  });

  it('adds latency to the matching route only', async () => {
    await setFaults([{ route: 'GET /v1/clusterprofiles/*', faults: { latencyMs: 150 } }]);
    // A timer never ends early: the matching route took at least its latency.
    const t = Date.now();
    expect((await lab.call('GET', profilePath)).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    // With a latency no test waits out, the other route answers while the matching one is held.
    await setFaults([{ route: 'GET /v1/clusterprofiles/*', faults: { latencyMs: 600_000 } }]);
    const asked = vi.spyOn(lab.faults, 'decide');
    const controller = new AbortController();
    const held = fetch(`${lab.url}${profilePath}`, { headers: { ApiKey: API_KEY, ProjectUid: PROJECT_UID }, signal: controller.signal }).catch(() => 'aborted');
    await until('the lab to hold the first request', () => asked.mock.calls.some(([, path]) => path === profilePath));
    expect((await lab.call('GET', '/v1/clusterprofiles')).status).toBe(200);
    expect(await isPending(held)).toBe(true);
    controller.abort();
    expect(await held).toBe('aborted');
  });

  it('latency delays the answer, not the work: a PUT whose caller gave up was still applied', async () => {
    await setFaults([{ route: 'PUT /v1/clusterprofiles/*', faults: { latencyMs: 400 } }]);
    const controller = new AbortController();
    const headers = { ApiKey: API_KEY, ProjectUid: PROJECT_UID };
    const put = fetch(`${lab.url}${profilePath}`, { method: 'PUT', headers, body: JSON.stringify(putBody), signal: controller.signal });
    const gaveUp = expect(put).rejects.toThrow();
    // The caller gives up while the answer is held back (the lab has done the work already).
    await until('the PUT to be audited', () => lab.audit.entries({ method: 'PUT' }).length > 0);
    expect(await isPending(put)).toBe(true);
    controller.abort();
    await gaveUp;
    expect(lab.store.get(ADDON_UID)?.draft?.version).toBe('1.3.0');
    expect(lab.audit.entries()).toMatchObject([{ method: 'PUT', status: 204, effect: 'applied' }]);
  });

  it('answers 5xx at the given rate with a Palette error body; the mutation is not applied', async () => {
    await setFaults([{ route: '* /v1/clusterprofiles/**', faults: { errorRate: 1 } }]);
    const res = await lab.call('PUT', profilePath, putBody);
    expect([500, 502, 503]).toContain(res.status);
    expect(await res.json()).toEqual({ code: 'ServiceUnavailable', message: expect.stringContaining(String(res.status)), ref: expect.any(String) });
    expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
    expect(lab.audit.entries()).toMatchObject([{ method: 'PUT', effect: 'rejected', note: `injected ${res.status}` }]);
  });

  it('a partial error rate is seeded: some requests fail, some pass, repeatably', async () => {
    const run = async () => {
      await setFaults({ rules: [{ route: 'GET /v1/clusterprofiles', faults: { errorRate: 0.5 } }], seed: 11 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await lab.call('GET', '/v1/clusterprofiles')).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first.some((s) => s >= 500)).toBe(true);
    expect(await run()).toEqual(first);
  });

  it('answers 429 bursts with Retry-After, then serves normally', async () => {
    await setFaults([{ route: 'GET /v1/clusterprofiles', faults: { rateLimit: { burst: 2, every: 3, retryAfterSeconds: 1 } } }]);
    const statuses: number[] = [];
    const retryAfter: Array<string | null> = [];
    for (let i = 0; i < 6; i++) {
      const res = await lab.call('GET', '/v1/clusterprofiles');
      statuses.push(res.status);
      retryAfter.push(res.headers.get('retry-after'));
    }
    expect(statuses).toEqual([429, 429, 200, 429, 429, 200]);
    expect(retryAfter).toEqual(['1', '1', null, '1', '1', null]);
  });

  it('drops connections without an answer; a dropped PUT changes nothing', async () => {
    await setFaults([{ route: '*', faults: { dropRate: 1 } }]);
    await expect(lab.call('GET', '/v1/clusterprofiles')).rejects.toThrow();
    await expect(lab.call('PUT', profilePath, putBody)).rejects.toThrow();
    expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
    expect(lab.audit.entries()).toMatchObject([{ method: 'PUT', status: 0, effect: 'dropped' }]);
  });

  it('ignorePut accepts the PUT (204) and stores nothing; other routes are unaffected', async () => {
    await setFaults([{ route: 'PUT /v1/clusterprofiles/*', faults: { ignorePut: true } }]);
    const res = await lab.call('PUT', profilePath, putBody);
    expect(res.status).toBe(204);
    expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
    expect(lab.audit.entries()).toMatchObject([{ method: 'PUT', status: 204, effect: 'ignored', note: expect.stringContaining('ignorePut') }]);
    expect((await lab.call('PATCH', `${profilePath}/publish`)).status).toBe(409);
  });

  it('hang accepts and never answers; close() still ends promptly', async () => {
    await setFaults([{ route: 'GET /v1/clusterprofiles', faults: { hang: true } }]);
    const asked = vi.spyOn(lab.faults, 'decide');
    const pending = lab.call('GET', '/v1/clusterprofiles').then(
      (r) => r.status,
      () => 'failed',
    );
    // Once the lab has the request, it holds it.
    await until('the lab to receive the request', () => asked.mock.calls.some(([method, path]) => method === 'GET' && path === '/v1/clusterprofiles'));
    expect(await isPending(pending)).toBe(true);
    // A close that waited for the hung answer would never end; ten seconds is a hang, not a busy machine.
    await within(lab.close(), 10_000, 'close() with a hung request');
    expect(await pending).toBe('failed');
    lab = await startLab('spec');
  });

  it('never applies to lab control routes, so a catch-all fault can always be cleared', async () => {
    await setFaults([{ route: '*', faults: { errorRate: 1, dropRate: 1 } }]);
    expect((await lab.call('GET', '/_lab/audit')).status).toBe(200);
    await setFaults([]);
    expect((await lab.call('GET', '/v1/clusterprofiles')).status).toBe(200);
  });
});
