/**
 * A read that the API server answers 5xx or 429 (virt-api or the apiserver restarting, API
 * priority and fairness) is tried again within its budget, honouring Retry-After; a change never
 * is. Against the lab's Kubernetes API with its fault plan, through the real kubectl.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/lab/audit.js';
import { FaultPlan } from '../../src/lab/faults.js';
import { KubeError } from '../../src/kube/errors.js';
import { Kubectl, type KubectlCall } from '../../src/kube/kubectl.js';
import { READ_RETRY, retryWait } from '../../src/kube/read-retry.js';
import { ClusterReader } from '../../src/kube/reader.js';
import { restartRequest } from '../../src/steps/migrations/recover-requests.js';
import { startLab, type Lab } from '../lab/kube/lab-fixture.js';

const faults = new FaultPlan(7);
const audit = new AuditLog();
let lab: Lab;
beforeAll(async () => {
  lab = await startLab({
    faults,
    audit,
    hooks: { subresource: (req) => (req.subresource === 'restart' ? { status: 202 } : undefined) },
    seed: (s) => s.upsert('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } }),
  });
}, 30_000);
afterAll(async () => {
  await lab?.close();
});
beforeEach(() => faults.clear());

function runner(readProxy: boolean) {
  const calls: KubectlCall[] = [];
  const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
  const k = new Kubectl({
    kubeconfig: lab.kubeconfig,
    requestTimeoutMs: 10_000,
    processTimeoutMs: 30_000,
    cacheDir: mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-')),
    concurrency: 2,
    readProxy,
    onCall: (c) => calls.push(c),
    onRetry: (r) => retries.push(r),
  });
  return { k, calls, retries, reader: new ClusterReader(k) };
}

const transient = (failure: 'server-error' | 'throttled', retryAfterMs?: number) => new KubeError(failure, 'x', retryAfterMs === undefined ? {} : { retryAfterMs });

describe('retryWait (pure)', () => {
  it.each<[string, unknown, number, number, number | undefined]>([
    ['a 503, first attempt: jittered backoff', transient('server-error'), 1, 30_000, 250],
    ['a 429 with Retry-After: the server’s wait', transient('throttled', 2_000), 1, 30_000, 2_000],
    ['a Retry-After beyond what is left of the budget: give up now', transient('throttled', 5_000), 1, 5_500, undefined],
    ['the last attempt: give up', transient('server-error'), READ_RETRY.attempts, 30_000, undefined],
    ['credentials: never', new KubeError('credentials', 'x'), 1, 30_000, undefined],
    ['a time-out: never (the budget is spent)', new KubeError('timeout', 'x'), 1, 30_000, undefined],
  ])('%s', (_what, err, attempt, left, wait) => {
    expect(retryWait(err, attempt, left, () => 0.5)).toBe(wait);
  });
});

describe('reads during a restart of the API', () => {
  it('through the proxy: two 503s with Retry-After, then the answer; waited as the server asked', async () => {
    faults.set([{ route: 'GET /api/v1/nodes', faults: { rateLimit: { burst: 2, every: 1000, retryAfterSeconds: 1, status: 503 } } }]);
    const { k, reader, retries, calls } = runner(true);
    try {
      expect((await reader.nodes()).map((n) => n.metadata.name)).toEqual(['node-1']);
      expect(retries.map((r) => `${r.attempt} ${r.delayMs}`)).toEqual(['1 1000', '2 1000']);
      expect(retries[0]!.reason).toMatch(/ServiceUnavailable/);
      // No kubectl process was started for them: the proxy's answers were the server's own.
      expect(calls.filter((c) => !c.viaProxy)).toEqual([]);
    } finally {
      k.close();
    }
  });

  it('a 5xx that does not pass: a few attempts, then the server’s words, as a server error (exit 4)', async () => {
    faults.set([{ route: 'GET /api/v1/nodes', faults: { errorRate: 1 } }]);
    const { k, reader, retries } = runner(false);
    try {
      const err = await reader.nodes().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(KubeError);
      expect(err).toMatchObject({ failure: 'server-error', exitCode: 4 });
      expect((err as KubeError).message).toMatch(/^The cluster API failed to answer while trying to list nodes \((InternalError|ServiceUnavailable)\)/);
      expect(retries).toHaveLength(READ_RETRY.attempts - 1);
    } finally {
      k.close();
    }
  });

  it('a change is never tried again: one restart PUT answered 503 is one PUT', async () => {
    faults.set([{ route: 'PUT /apis/subresources.kubevirt.io/**', faults: { rateLimit: { burst: 5, every: 1000, retryAfterSeconds: 0, status: 503 } } }]);
    const { k, retries } = runner(true);
    const puts = () => audit.entries({ api: 'kube', method: 'PUT' }).length;
    const before = puts();
    try {
      await expect(k.execute(restartRequest('vms', 'web-01', 'kubectl'))).rejects.toMatchObject({ failure: 'server-error' });
    } finally {
      k.close();
    }
    expect(retries).toEqual([]);
    expect(puts() - before).toBe(1);
  });
});
