/**
 * Crash sample of the palette flavor (in `npm test`): the `repave` scenario (one hop: clone, draft,
 * publish, apply, node rebuild) through the real CLI against a lab in another process playing a real
 * Palette, SIGKILLed with the answer of a clone, an apply and a repave approval lost (the result
 * record torn), then resumed until done. The lab's audit must show each change exactly once: a lost clone answer is settled by
 * finding the version, never by a second copy. The full matrix is crash-matrix-palette.faults.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLab, type ServedLab } from './support/processes.js';
import { appliedMutations, crashChain, duplicates, expectedPaletteMutations, namedUids } from './support/upgrade.js';

/**
 * Each written half, then killed: the mutation reached the lab, its answer never reached the journal
 * (the hardest case: settled by reading, never sent again). Kills before a send are the spec sample's.
 */
export const PALETTE_SAMPLE = ['mutation.result||hop1.draft-addon/clone', 'mutation.result||hop1.apply/apply', 'mutation.result||hop1.repave/repave/approve'];
const TORN = new Set(PALETTE_SAMPLE);

let lab: ServedLab;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'repave', flavor: 'palette', speed: 600 });
});
afterAll(async () => {
  await lab?.stop();
});

describe('crash sample, palette flavor: SIGKILL at the clone, the apply and the repave approval, then resume', () => {
  it('resumes to done with each clone, PUT, publish, apply and repave approval applied exactly once', async () => {
    const modes = Object.fromEntries([...TORN].map((t) => [t, 'torn' as const]));
    const chain = await crashChain(lab, PALETTE_SAMPLE, { modes });
    expect(chain.unreached).toEqual([]);
    expect(chain.kills.map((k) => k.signature)).toEqual(PALETTE_SAMPLE);
    expect(chain.kills.filter((k) => k.torn).map((k) => k.signature)).toEqual([...TORN]);
    expect(chain.final.code).toBe(0);
    expect(chain.state.run.status).toBe('done');
    const applied = appliedMutations(await lab.audit());
    expect(duplicates(applied)).toEqual([]);
    expect(await namedUids(lab, applied)).toEqual(expectedPaletteMutations(lab, { deployed: 1, repave: true }));
    // The lost answers were found by reading, not sent again.
    expect(chain.state.mutations['hop1.draft-addon/clone']?.outcome).toBe('settled');
    expect(chain.state.mutations['hop1.apply/apply']?.outcome).toBe('settled');
    expect(chain.state.mutations['hop1.repave/repave/approve']?.outcome).toBe('settled');
  }, 300_000);
});
