/**
 * Network faults (in `npm test`, one seed; more seeds and lost answers in `npm run test:faults`):
 * the lab's profile API answers 20% of requests with 500/502/503, drops 10% of connections without
 * an answer, and rate-limits in bursts (429 with Retry-After). The upgrade, resumed whenever a run
 * stops, completes; the lab applied each publish exactly once per profile per hop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAKY_PROFILE_API } from './support/faults.js';
import { serveLab, tempDir, type ServedLab } from './support/processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, loadSession, upgradeUntilDone } from './support/upgrade.js';

let lab: ServedLab;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterAll(async () => {
  await lab?.stop();
});

describe('network faults on the profile API', () => {
  it('20% 5xx, 10% dropped connections, 429 bursts: the upgrade completes, each publish applied exactly once per profile per hop', async () => {
    await lab.faults(FLAKY_PROFILE_API, 1);
    const stateDir = tempDir('net');
    const { stops, id } = await upgradeUntilDone(lab, stateDir);
    const audit = await lab.audit();

    // The faults really hit the mutations (a 429 on the first of each for sure), and every stop said so plainly.
    const faulted = audit.filter((e) => e.effect !== 'applied');
    expect(faulted.filter((e) => e.status === 429).map((e) => e.method).sort()).toEqual(expect.arrayContaining(['PATCH', 'PUT']));
    expect(stops.length).toBeGreaterThan(0); // a publish is never retried blindly: the first 429 stops the run
    for (const s of stops) expect(s.error).toMatch(/profile API/);

    const applied = appliedMutations(audit);
    expect(duplicates(applied)).toEqual([]);
    expect(applied).toEqual(expectedHealthyMutations(lab));
    const publishes = applied.filter((a) => a.startsWith('PATCH '));
    expect(publishes).toHaveLength(4); // 2 profiles x 2 hops
    expect(loadSession(stateDir, id).run.status).toBe('done');
    console.log(`network faults: ${faulted.length} faulted mutating calls (${faulted.map((e) => `${e.method} ${e.status || 'drop'}`).join(', ')}), ${stops.length} stop(s) before done`);
  }, 300_000);
});
