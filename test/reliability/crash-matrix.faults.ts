/**
 * The full crash matrix (`npm run test:faults`): the `healthy` upgrade through the real CLI against
 * labs in other processes, SIGKILLed
 *   - right after EVERY record of a clean run's journal (each intent, each result, each step
 *     boundary, each gate and decision, each note: all of them), two chains at a time,
 *   - in the middle of writing each mutation record and the largest records (a torn final line),
 *   - at random moments, from outside, several times per session,
 * and resumed with the same approvals until done. Every session loads after every kill; every run
 * ends complete; each lab's audit shows each draft, publish and VM restart exactly once.
 * The sample in `npm test` is crash-sample.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, sessionIds, STACK_TRACE, tempDir, type ServedLab } from './support/processes.js';
import { appliedMutations, crashChain, expectComplete, expectedHealthyMutations, journalOf, keyEnv, killAfterEveryRecord, noFigures, randomKillChain, resumeArgs, signature, startArgs, withServedLab, type ChainResult } from './support/upgrade.js';

const SPEED = 600;
/** Random-kill seeds; `UP_CRASH_SEEDS=1,2` replays others (printed on failure). */
const SEEDS = (process.env.UP_CRASH_SEEDS ?? '11,23').split(',').map(Number);

let reference: string[] = [];
const figures = noFigures();

const withLab = <T>(run: (lab: ServedLab) => Promise<T>): Promise<T> => withServedLab({ scenario: 'healthy', speed: SPEED }, run);
const checkComplete = (lab: ServedLab, chain: ChainResult): Promise<void> => expectComplete(lab, chain, figures, expectedHealthyMutations(lab));

describe('crash matrix', () => {
  it('a clean run gives the journal points (all distinct) and the expected audit', async () => {
    await withLab(async (lab) => {
      const stateDir = tempDir('reference');
      const r = await runTool(startArgs(lab, stateDir), { env: keyEnv(lab) });
      expect(r.code, r.stderr).toBe(0);
      reference = journalOf(stateDir, sessionIds(stateDir)[0]!).map(signature);
      expect(new Set(reference).size).toBe(reference.length);
      expect(appliedMutations(await lab.audit())).toEqual(expectedHealthyMutations(lab));
    });
    figures.points = reference.length;
    expect(reference.length).toBeGreaterThan(80);
  }, 180_000);

  it('SIGKILL right after every journal record (two chains: odd and even points), resumed to the end', async () => {
    await killAfterEveryRecord(reference, withLab, checkComplete, figures);
  }, 900_000);

  it('SIGKILL in the middle of writing each mutation record and the largest ones (torn lines), resumed to the end', async () => {
    const targets = reference.filter((s) => s.startsWith('mutation.') || s === 'step.succeeded|customize|' || s === 'group.expanded|hop|');
    const modes = Object.fromEntries(targets.map((t) => [t, 'torn' as const]));
    await withLab(async (lab) => {
      const chain = await crashChain(lab, targets, { modes });
      expect(chain.unreached).toEqual([]);
      expect(chain.kills.every((k) => k.mode === 'torn' && k.torn)).toBe(true);
      figures.tornKills = chain.kills.length;
      await checkComplete(lab, chain);
    });
  }, 600_000);

  it('SIGKILL at random moments from outside, several times per session, resumed to the end', async () => {
    const results = await Promise.all(
      SEEDS.map((seed) =>
        withLab(async (lab) => {
          const chain = await randomKillChain(lab, seed, { minMs: 500, maxMs: 4_000, maxKills: 8 });
          await checkComplete(lab, chain);
          return { seed, kills: chain.kills.length, delays: chain.delays };
        }),
      ),
    );
    figures.randomKills = results.reduce((n, r) => n + r.kills, 0);
    expect(figures.randomKills).toBeGreaterThan(0);
    console.log(`random kills: ${results.map((r) => `seed ${r.seed}: ${r.kills} kills at ${r.delays.join(', ')} ms`).join('; ')}`);
  }, 600_000);

  it('a run killed while writing its very first record: the session is listed as incomplete, resume says so (exit 2)', async () => {
    await withLab(async (lab) => {
      const stateDir = tempDir('torn-created');
      const report = join(tempDir('torn-created-report'), 'kill.json');
      const r = await runTool(startArgs(lab, stateDir), { env: keyEnv(lab), crash: { targets: ['session.created||'], mode: 'torn', report } });
      expect(r.signal).toBe('SIGKILL');
      const [id] = sessionIds(stateDir);
      const list = await runTool(['sessions', '--state-dir', stateDir]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${id}\\s+-\\s+-\\s+-\\s+-\\s+incomplete\\s`, 'm'));
      const resumed = await runTool(resumeArgs(stateDir), { env: keyEnv(lab) });
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toMatch(new RegExp(`^error: Session ${id} has no complete record \\(it was interrupted while being created\\)\\.$`, 'm'));
      expect(resumed.stderr).toMatch(/what to do: Start a new session; remove \S+ when convenient\./);
      expect(resumed.stderr).not.toMatch(STACK_TRACE);
    });
  }, 120_000);

  it('figures', () => {
    console.log(
      `crash matrix: ${figures.points} journal points, ${figures.afterKills} kills after a record, ${figures.tornKills} torn records, ${figures.randomKills} random kills, ${figures.sessions} sessions completed, ${figures.duplicates} duplicate mutations`,
    );
    expect(figures.duplicates).toBe(0);
  });
});
