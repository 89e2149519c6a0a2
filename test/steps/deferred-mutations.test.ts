/**
 * The engine's gateway and a real client against the in-process lab: a publish answered 429 (or 503
 * with Retry-After) was not applied, so the run reads the profile back, waits and publishes again -
 * without stopping, and exactly once applied. The same holds for any mutation that has a `settle`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { startLab, type Lab } from '../lab/palette/support.js';
import { fullHopSteps, onePackHop, paletteRun, runbookYaml } from '../support/palette-harness.js';

const approveAll = { ...noApprovals, gates: ['draft', 'publish'] };
let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

describe.each([429, 503] as const)('a publish answered %d with Retry-After', (status) => {
  it('is read back, then sent again after the wait: the run goes on, each publish applied once', async () => {
    lab = await startLab('spec');
    lab.faults.set([{ route: 'PATCH /v1/clusterprofiles/*/publish', faults: { rateLimit: { burst: 2, every: 3, retryAfterSeconds: 0, status } } }]);
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps));
    const runner = run.runner({ approvals: approveAll });
    const outcome = await runner.run();
    expect(outcome.status).toBe('done');
    const calls = lab.audit.entries({ api: 'palette' }).filter((e) => e.method === 'PATCH').map((e) => `${e.path} ${e.status} ${e.effect}`);
    expect(calls).toEqual([
      `/v1/clusterprofiles/profile-infra-0001/publish ${status} rejected`,
      `/v1/clusterprofiles/profile-infra-0001/publish ${status} rejected`,
      '/v1/clusterprofiles/profile-infra-0001/publish 204 applied',
      `/v1/clusterprofiles/profile-addon-0001/publish ${status} rejected`,
      `/v1/clusterprofiles/profile-addon-0001/publish ${status} rejected`,
      '/v1/clusterprofiles/profile-addon-0001/publish 204 applied',
    ]);
    // Each resend came after a read-back (the order itself is proven in test/engine/deferred-send.test.ts).
    const log = runner.getState().log.map((l) => l.message);
    expect(log.filter((m) => new RegExp(`not applied, the API answered ${status}.*reading it back, then sending again in 0s \\(send [23] of 5\\)`).test(m))).toHaveLength(4);
  });
});

describe('a deferral that does not end', () => {
  it('stops within the budget (exit 4), nothing applied, and resume publishes once', async () => {
    lab = await startLab('spec');
    lab.faults.set([{ route: 'PATCH /v1/clusterprofiles/profile-infra-0001/publish', faults: { rateLimit: { burst: 100, every: 100, retryAfterSeconds: 0 } } }]);
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps));
    const outcome = await run.run({ approvals: approveAll });
    expect(outcome.status).toBe('failed');
    const error = 'toInfo' in (outcome as { error: object }).error ? (outcome as { error: { toInfo(): { message: string; kind: string } } }).error.toInfo() : (outcome as { error: { message: string; kind: string } }).error;
    expect(error.kind).toBe('environment');
    expect(error.message).toMatch(/^"publish vmo-infra 2\.1\.0" was not applied: the API deferred it 5 times/);
    expect(lab.audit.entries({ api: 'palette', method: 'PATCH', effect: 'applied' })).toHaveLength(0);
    lab.faults.set([]);
    expect((await run.run({ approvals: approveAll })).status).toBe('done');
    expect(lab.audit.entries({ api: 'palette', method: 'PATCH', effect: 'applied' })).toHaveLength(2);
  });
});
