/**
 * Crash sample (in `npm test`): the full `healthy` upgrade through the real CLI against a lab in
 * another process, SIGKILLed right after one journal record of every kind - each record type, each
 * kind of mutation's intent and result, step boundaries, a torn record - then resumed with the same
 * approvals until done. The lab's audit must show each draft, publish and restart exactly once.
 * The full matrix (every journal point, torn writes, random times) is `npm run test:faults`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runTool, serveLab, sessionIds, STACK_TRACE, tempDir, type ServedLab } from './support/processes.js';
import { appliedMutations, crashChain, duplicates, expectedHealthyMutations, journalOf, keyEnv, resumeArgs, signature, startArgs } from './support/upgrade.js';

/** One of each record type and of each mutation kind, in run order (signatures: see crash-preload.mjs). */
export const SAMPLE = [
  'session.created||',
  'step.started|preflight|',
  'step.succeeded|snapshot|',
  'step.awaiting|customize|',
  'step.decided|customize|customize/review/1',
  'step.succeeded|customize|', // the largest record (about 1 MB)
  'group.expanded|hop|',
  'mutation.intent|hop1.draft-infra|hop1.draft-infra/put', // draft written? settle must read it
  'mutation.result||hop1.draft-addon/put',
  'mutation.intent|hop1.publish-infra|hop1.publish-infra/publish',
  'mutation.result||hop1.publish-addon/publish',
  'step.succeeded|hop1.reconcile|',
  'step.skipped|hop1.diagnose|',
  'step.note|hop1.recover|offered',
  'mutation.intent|hop1.recover|hop1.recover/restart/ns-packs/build-cache-01/send',
  'mutation.result||hop2.recover/restart/ns-packs/build-cache-01/send',
  'step.started|verify|',
  'session.done||',
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
    const targets = [...SAMPLE.slice(0, 15), TORN, ...SAMPLE.slice(15)];
    const chain = await crashChain(lab, targets, { modes: { [TORN]: 'torn' } });

    expect(chain.unreached).toEqual([]);
    expect(chain.kills.map((k) => k.signature)).toEqual(targets);
    expect(chain.kills.find((k) => k.signature === TORN)).toMatchObject({ mode: 'torn', torn: true });
    expect(chain.final.code).toBe(0);
    expect(chain.state.run.status).toBe('done');
    // Every record type the journal knows was a kill point (or only appears on resume).
    const types = new Set(journalOf(chain.stateDir, chain.id).map((e) => e.type));
    const killed = new Set(chain.kills.map((k) => k.signature!.split('|')[0]));
    expect([...types].filter((t) => !killed.has(t) && t !== 'session.resumed' && t !== 'step.drift')).toEqual([]);

    const applied = appliedMutations(await lab.audit());
    expect(duplicates(applied)).toEqual([]);
    expect(applied).toEqual(expectedHealthyMutations(lab));
    // The signatures really exist in a finished journal (a renamed step would fail here, not silently).
    const written = new Set(journalOf(chain.stateDir, chain.id).map(signature));
    for (const t of targets) expect(written.has(t), t).toBe(true);
  }, 300_000);

  it('a run killed while writing its very first record: the session is listed as incomplete, resume says so (exit 2)', async () => {
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
  }, 60_000);
});
