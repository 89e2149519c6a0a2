/**
 * The full crash matrix of the palette flavor (`npm run test:faults`): the upgrade through the real
 * CLI against labs in other processes playing a real Palette, SIGKILLed
 *   - right after EVERY record of a clean `repave` run's journal (one hop with every kind of
 *     mutation: clones, drafts, publishes, the apply, the repave approval, a VM restart), two
 *     chains at a time,
 *   - in the middle of writing each mutation record (a torn final line: the change reached the lab,
 *     its answer never reached the journal),
 *   - at random moments from outside, on the two-hop `healthy` upgrade (hop 2 clones hop 1's version),
 * and resumed with the same approvals until done. Every run ends complete; each lab's audit shows
 * each clone, PUT, publish, apply and repave approval exactly once. The sample in `npm test` is
 * crash-sample-palette.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runTool, sessionIds, tempDir, type ServedLab } from './support/processes.js';
import { appliedMutations, crashChain, expectComplete, expectedPaletteMutations, journalOf, keyEnv, namedUids, killAfterEveryRecord, noFigures, randomKillChain, signature, startArgs, withServedLab, type ChainResult } from './support/upgrade.js';

const SPEED = 600;
const SEEDS = (process.env.UP_CRASH_SEEDS ?? '31').split(',').map(Number);

let reference: string[] = [];
const figures = noFigures();

const withLab = <T>(scenario: 'repave' | 'healthy', run: (lab: ServedLab) => Promise<T>): Promise<T> => withServedLab({ scenario, speed: SPEED, flavor: 'palette' }, run);
const checkComplete = (lab: ServedLab, chain: ChainResult, expected: { deployed: number; repave: boolean }): Promise<void> =>
  expectComplete(lab, chain, figures, expectedPaletteMutations(lab, expected), (lines) => namedUids(lab, lines));

const REPAVE = { deployed: 1, repave: true };

describe('crash matrix, palette flavor', () => {
  it('a clean run gives the journal points (all distinct) and the expected audit', async () => {
    await withLab('repave', async (lab) => {
      const stateDir = tempDir('palette-reference');
      const r = await runTool(startArgs(lab, stateDir), { env: keyEnv(lab) });
      expect(r.code, r.stderr).toBe(0);
      reference = journalOf(stateDir, sessionIds(stateDir)[0]!).map(signature);
      expect(new Set(reference).size).toBe(reference.length);
      expect(await namedUids(lab, appliedMutations(await lab.audit()))).toEqual(expectedPaletteMutations(lab, REPAVE));
    });
    figures.points = reference.length;
    for (const kind of ['clone', 'put', 'publish', 'apply', 'repave/approve']) expect(reference.some((s) => s.startsWith('mutation.intent|') && s.endsWith(`/${kind}`)), kind).toBe(true);
  }, 180_000);

  it('SIGKILL right after every journal record (two chains: odd and even points), resumed to the end', async () => {
    await killAfterEveryRecord(reference, (run) => withLab('repave', run), (lab, chain) => checkComplete(lab, chain, REPAVE), figures);
  }, 1_200_000);

  it('SIGKILL in the middle of writing each mutation record (the answer lost), resumed to the end', async () => {
    const targets = reference.filter((s) => s.startsWith('mutation.'));
    const modes = Object.fromEntries(targets.map((t) => [t, 'torn' as const]));
    await withLab('repave', async (lab) => {
      const chain = await crashChain(lab, targets, { modes });
      expect(chain.unreached).toEqual([]);
      expect(chain.kills.every((k) => k.mode === 'torn' && k.torn)).toBe(true);
      figures.tornKills = chain.kills.length;
      await checkComplete(lab, chain, REPAVE);
      // A clone whose answer was lost is found by name and label, not made twice.
      for (const key of ['hop1.draft-infra/clone', 'hop1.draft-addon/clone']) expect(chain.state.mutations[key]?.outcome).toBe('settled');
    });
  }, 900_000);

  it('SIGKILL at random moments from outside on the two-hop upgrade, resumed to the end', async () => {
    const results = await Promise.all(
      SEEDS.map((seed) =>
        withLab('healthy', async (lab) => {
          const chain = await randomKillChain(lab, seed, { minMs: 500, maxMs: 4_000, maxKills: 8 });
          await checkComplete(lab, chain, { deployed: 0, repave: false });
          return { seed, kills: chain.kills.length, delays: chain.delays };
        }),
      ),
    );
    figures.randomKills = results.reduce((n, r) => n + r.kills, 0);
    expect(figures.randomKills).toBeGreaterThan(0);
    console.log(`random kills (palette): ${results.map((r) => `seed ${r.seed}: ${r.kills} kills at ${r.delays.join(', ')} ms`).join('; ')}`);
  }, 900_000);

  it('figures', () => {
    console.log(
      `crash matrix (palette): ${figures.points} journal points, ${figures.afterKills} kills after a record, ${figures.tornKills} torn records, ${figures.randomKills} random kills, ${figures.sessions} sessions completed, ${figures.duplicates} duplicate mutations`,
    );
    expect(figures.duplicates).toBe(0);
  });
});
