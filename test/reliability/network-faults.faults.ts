/**
 * Network faults (`npm run test:faults`): the profile API answers 20% of requests with 500/502/503,
 * drops 10% of connections without an answer, and rate-limits in bursts (429 with Retry-After; the
 * first publish and the first draft PUT always meet one), under three seeds; and the worst case for
 * a publish: the lab applies it but the answer never arrives (latency beyond `palette.timeout`).
 * Each upgrade is resumed whenever a run stops, and completes with exactly one applied publish per
 * profile per hop. A 429 on a publish no longer stops a run (it is read back and sent again); a 5xx
 * or a lost answer still does, and resume settles it by reading. In `npm test`, the same classes
 * are covered by test/palette/faults.test.ts (the client under these faults, in process),
 * test/steps/deferred-mutations.test.ts and hardening.test.ts (429/503 on publishes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAKY_PROFILE_API } from './support/faults.js';
import { serveLab, tempDir, type ServedLab } from './support/processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, upgradeUntilDone } from './support/upgrade.js';

const figures = { runs: 0, faulted: 0, stops: 0, duplicates: 0 };

async function withLab<T>(run: (lab: ServedLab) => Promise<T>): Promise<T> {
  const lab = await serveLab({ scenario: 'healthy', speed: 600 });
  try {
    return await run(lab);
  } finally {
    await lab.stop();
  }
}

async function exactlyOnce(lab: ServedLab): Promise<number> {
  const audit = await lab.audit();
  const applied = appliedMutations(audit);
  const dups = duplicates(applied);
  figures.duplicates += dups.length;
  expect(dups).toEqual([]);
  expect(applied).toEqual(expectedHealthyMutations(lab));
  expect(applied.filter((a) => a.startsWith('PATCH '))).toHaveLength(4);
  return audit.filter((e) => e.effect !== 'applied').length;
}

describe('network faults, more seeds', () => {
  it('the issue mix with seeds 1, 2 and 3 (two labs at a time): each completes, each publish applied exactly once', async () => {
    const run = (seed: number) =>
      withLab(async (lab) => {
        await lab.faults(FLAKY_PROFILE_API, seed);
        const { stops } = await upgradeUntilDone(lab, tempDir('net-seed'));
        // A stop is a 5xx or a lost answer (may have applied: settled on resume); never a 429.
        for (const s of stops) {
          expect(s.error).toMatch(/profile API/);
          expect(s.error).not.toMatch(/429/);
        }
        const audit = await lab.audit();
        // The faults really hit the mutations: the first publish and the first draft PUT met a 429.
        expect(audit.filter((e) => e.status === 429).map((e) => e.method)).toEqual(expect.arrayContaining(['PATCH', 'PUT']));
        const faulted = await exactlyOnce(lab);
        figures.runs += 1;
        figures.faulted += faulted;
        figures.stops += stops.length;
        console.log(`seed ${seed}: ${faulted} faulted mutating calls, ${stops.length} stop(s)`);
      });
    await Promise.all([run(1), run(2)]);
    await run(3);
  }, 600_000);
});

describe('a publish applied whose answer is lost', () => {
  it('times out, the run stops (exit 4) saying it may have applied; resume reads the profile and does not publish again', async () => {
    await withLab(async (lab) => {
      // One-second client time-out; the lab applies each publish and never answers (no timer race:
      // the lab decides the answer is lost, however late the client's timer fires).
      const params = join(tempDir('lost-params'), 'params.yaml');
      writeFileSync(params, readFileSync(lab.json.params, 'utf8').replace(/^ {2}timeout: .*$/m, '  timeout: 1s'));
      await lab.faults([{ route: 'PATCH /v1/clusterprofiles/*/publish', faults: { loseAnswer: true } }]);
      const stateDir = tempDir('lost-state');
      const { stops } = await upgradeUntilDone({ ...lab, json: { ...lab.json, params } }, stateDir);
      // Each of the 4 publishes: applied, answer lost, run stopped, found published on resume.
      expect(stops).toHaveLength(4);
      for (const s of stops) {
        expect(s.code).toBe(4);
        expect(s.error).toMatch(/^The profile API at \S+ did not answer PATCH \/v1\/clusterprofiles\/\S+\/publish within 1000 ms \(1 attempt\)\.$/);
      }
      await exactlyOnce(lab);
      figures.runs += 1;
      figures.stops += stops.length;
    });
  }, 400_000);

  it('figures', () => {
    console.log(`network faults: ${figures.runs} upgrades, ${figures.faulted} faulted mutating calls, ${figures.stops} stops resumed, ${figures.duplicates} duplicate mutations`);
    expect(figures.duplicates).toBe(0);
  });
});
