/**
 * Crash sample (in `npm test`): the full `healthy` upgrade through the real CLI against a lab in
 * another process, SIGKILLed right after the records where a crash is most dangerous - each kind of
 * mutation's intent, a publish result, the largest record, a torn publish intent - then resumed
 * with the same approvals until done. The lab's audit must show each draft, publish and restart
 * exactly once. The full matrix (every journal point of every record type, torn writes, random
 * times, a session torn while being created) is `npm run test:faults`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLab, type ServedLab } from './support/processes.js';
import { appliedMutations, crashChain, duplicates, expectedHealthyMutations, journalOf, signature } from './support/upgrade.js';

/**
 * The kill points that matter most, in run order: each kind of mutation's intent (is it settled by
 * reading, never resent?) and a publish result, plus a publish intent torn in half. Every other
 * record type and every point of a run is in the full matrix (crash-matrix.faults.ts).
 */
export const SAMPLE = [
  'step.succeeded|customize|', // the largest record (about 1 MB)
  'mutation.intent|hop1.draft-infra|hop1.draft-infra/put', // draft written? settle must read it
  'mutation.intent|hop1.publish-infra|hop1.publish-infra/publish',
  'mutation.result||hop1.publish-addon/publish',
  'mutation.intent|hop1.recover|hop1.recover/restart/ns-packs/build-cache-01/send',
];
/** A torn final line (half a record on disk, then SIGKILL) where it matters most: a publish intent. */
const TORN = 'mutation.intent|hop2.publish-addon|hop2.publish-addon/publish';

let lab: ServedLab;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterAll(async () => {
  await lab?.stop();
});

describe('crash sample: SIGKILL at one journal record of every kind, then resume', () => {
  it('every kill leaves a loadable session; resumed, the upgrade completes with each change applied exactly once', async () => {
    const targets = [...SAMPLE, TORN];
    const chain = await crashChain(lab, targets, { modes: { [TORN]: 'torn' } });

    expect(chain.unreached).toEqual([]);
    expect(chain.kills.map((k) => k.signature)).toEqual(targets);
    expect(chain.kills.find((k) => k.signature === TORN)).toMatchObject({ mode: 'torn', torn: true });
    expect(chain.final.code).toBe(0);
    expect(chain.state.run.status).toBe('done');

    const applied = appliedMutations(await lab.audit());
    expect(duplicates(applied)).toEqual([]);
    expect(applied).toEqual(expectedHealthyMutations(lab));
    // The signatures really exist in a finished journal (a renamed step would fail here, not silently).
    const written = new Set(journalOf(chain.stateDir, chain.id).map(signature));
    for (const t of targets) expect(written.has(t), t).toBe(true);
  }, 300_000);

});
