/**
 * The client under the lab's network faults: reads and draft writes complete through 5xx, dropped
 * connections and 429 bursts; a publish is sent once per attempt and settled by reading, so the
 * audit log shows exactly one applied publish; an abort stops a retry loop at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { buildDraftBody } from '../../src/palette/draft-body.js';
import { publishRequest, putProfileRequest } from '../../src/palette/mutations.js';
import type { PaletteClient } from '../../src/palette/client.js';
import { ADDON_UID, CLUSTER_UID, startLab, type Lab } from '../lab/palette/support.js';
import { ManualClock } from '../support/manual-clock.js';
import { until, within } from '../support/wait.js';
import { labClient } from './support.js';

/** 20% 5xx, 10% dropped connections, and 2 of every 10 requests answered 429. */
const rough = (seed: number) => ({
  seed,
  rules: [{ route: '*', faults: { errorRate: 0.2, dropRate: 0.1, rateLimit: { burst: 2, every: 10, retryAfterSeconds: 0 } } }],
});

/**
 * What the engine's journaled gateway does around a publish (src/engine/runner.ts `mutate`): send
 * once; after a failure, settle first by reading (`isPublished`) and send again only when the
 * profile says it did not happen. `afterFailure` starts where an earlier send already failed.
 */
async function publishLikeTheEngine(client: PaletteClient, uid: string, version: string, afterFailure = false): Promise<{ sends: number; settled: boolean }> {
  let failed = afterFailure;
  for (let sends = 0; sends < 30; ) {
    if (failed && (await client.isPublished(uid, version))) return { sends, settled: true };
    sends++;
    try {
      await client.execute(publishRequest(uid, `publish ${version}`));
      return { sends, settled: false };
    } catch {
      failed = true;
    }
  }
  throw new Error('publish did not complete in 30 sends');
}

describe.each(['spec', 'palette'] as const)('PaletteClient under faults, %s dialect', (dialect) => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await startLab(dialect);
  });
  afterEach(async () => {
    await lab.close();
  });

  it('reads and draft writes complete under 20% 5xx, 10% drops and 429 bursts', async () => {
    const t = labClient(lab, dialect, { flavor: 'spec', retry: { attempts: 10, baseDelayMs: 1, maxDelayMs: 4, maxTotalMs: 10_000 } });
    const plan = rough(5);
    lab.faults.set(plan.rules, plan.seed);
    for (let i = 0; i < 15; i++) {
      const doc = await t.client.getProfile(ADDON_UID);
      expect(doc.name).toBe('vmo-core');
      const body = buildDraftBody(doc, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.6.3', values: `round: ${i}\n` }] });
      await t.client.execute(putProfileRequest(ADDON_UID, body, 'draft'));
      expect((await t.client.getClusterProfiles(CLUSTER_UID)).length).toBe(2);
    }
    lab.faults.clear();
    expect(lab.store.get(ADDON_UID)?.draft?.packs[1]?.values).toBe('round: 14\n');
    const reasons = new Set(t.retries.map((r) => (/^5\d\d$/.test(r.reason) ? '5xx' : r.reason)));
    expect(reasons).toEqual(new Set(['5xx', '429', 'ECONNRESET']));
  });

  it('a publish under the same faults is applied exactly once', async () => {
    const t = labClient(lab, dialect, { flavor: 'spec', retry: { attempts: 10, baseDelayMs: 1, maxDelayMs: 4, maxTotalMs: 10_000 } });
    const doc = await t.client.getProfile(ADDON_UID);
    await t.client.execute(putProfileRequest(ADDON_UID, buildDraftBody(doc, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471' }] }), 'draft'));
    const plan = rough(9);
    lab.faults.set(plan.rules, plan.seed);
    const outcome = await publishLikeTheEngine(t.client, ADDON_UID, '1.3.0');
    lab.faults.clear();
    expect(outcome.sends).toBeGreaterThan(1);
    const publishes = lab.audit.entries({ method: 'PATCH' });
    expect(publishes.filter((e) => e.effect === 'applied')).toHaveLength(1);
    expect(publishes).toHaveLength(outcome.sends);
    expect(publishes.at(-1)?.effect).toBe('applied');
    expect(lab.published).toEqual(['vmo-core 1.3.0']);
  });

  it('a publish whose answer is lost (applied, then the client timed out) is settled, not resent', async () => {
    // The lab applies the publish and keeps its answer: the client's time-out ends the call, however
    // late either side runs (a few seconds, so even a stalled machine delivers the request first).
    const t = labClient(lab, dialect, { flavor: 'spec', timeoutMs: 2_000 });
    const doc = await t.client.getProfile(ADDON_UID);
    await t.client.execute(putProfileRequest(ADDON_UID, buildDraftBody(doc, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471' }] }), 'draft'));
    lab.faults.set([{ route: 'PATCH /v1/clusterprofiles/*/publish', faults: { loseAnswer: true } }]);
    const err = await t.client.execute(publishRequest(ADDON_UID, 'publish')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'palette.timeout', mayHaveApplied: true });
    expect(await publishLikeTheEngine(t.client, ADDON_UID, '1.3.0', true)).toEqual({ sends: 0, settled: true });
    expect(lab.audit.entries({ method: 'PATCH' })).toMatchObject([{ effect: 'applied', status: 204 }]);
    expect(lab.audit.entries({ method: 'PATCH' })).toHaveLength(1);
  });
});

describe('PaletteClient aborts', () => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await startLab('spec');
  });
  afterEach(async () => {
    await lab.close();
  });

  it('an abort during the backoff stops at once with InterruptedError', async () => {
    lab.faults.set([{ route: '*', faults: { errorRate: 1 } }]);
    // The backoff waits on a clock only the test moves: a call that ends did not wait it out.
    const clock = new ManualClock();
    const t = labClient(lab, 'spec', { clock, retry: { attempts: 5, baseDelayMs: 5_000, maxDelayMs: 5_000, maxTotalMs: 60_000 } });
    const controller = new AbortController();
    const call = t.client.listProfiles({ signal: controller.signal }).catch((e: unknown) => e);
    await clock.waitForSleepers();
    expect(t.retries).toHaveLength(1);
    controller.abort();
    expect(await call).toBeInstanceOf(InterruptedError);
    expect(clock.sleeping).toBe(0);
    const withReason = new AbortController();
    const reason = new InterruptedError('Stopped by the operator.');
    const second = t.client.listProfiles({ signal: withReason.signal });
    const rejected = expect(second).rejects.toBe(reason);
    await clock.waitForSleepers();
    withReason.abort(reason);
    await rejected;
    expect(t.retries).toHaveLength(2); // no request after either abort
  });

  it('an abort during a request stops it; the signal’s own PilotError reason is kept', async () => {
    lab.faults.set([{ route: '*', faults: { hang: true } }]);
    const t = labClient(lab, 'spec');
    const controller = new AbortController();
    const reason = new InterruptedError('Stopped by the operator.');
    const asked = vi.spyOn(lab.faults, 'decide');
    const get = t.client.getProfile(ADDON_UID, { signal: controller.signal });
    const rejected = expect(get).rejects.toBe(reason);
    // Aborted while the lab holds the request, not before it was sent.
    await until('the lab to hold the request', () => asked.mock.calls.some(([method, path]) => method === 'GET' && path === `/v1/clusterprofiles/${ADDON_UID}`));
    controller.abort(reason);
    await rejected;
    await expect(t.client.execute(publishRequest(ADDON_UID, 'publish'), controller.signal)).rejects.toBe(reason);
  });

  it('a retry that would overrun the total time budget is not started', async () => {
    lab.faults.set([{ route: '*', faults: { rateLimit: { burst: 10, every: 10, retryAfterSeconds: 30 } } }]);
    // On a clock only the test moves, a client that waited the 30 s out would never end.
    const clock = new ManualClock();
    const t = labClient(lab, 'spec', { clock, retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 1, maxTotalMs: 1_000 } });
    const err = await within(t.client.listProfiles().catch((e: unknown) => e), 10_000, 'the rate-limited call');
    expect(err).toMatchObject({ code: 'palette.rate-limited', message: expect.stringContaining('(1 attempt)') });
    expect(clock.sleeping).toBe(0);
  });
});
