/** The soak's loop on a clock the test moves: when health is read, what ends it, what a resume soaks. */
import { describe, expect, it } from 'vitest';
import { soak, type SoakHealthResult } from '../../src/fleet/soak.js';
import { ManualClock } from '../support/manual-clock.js';

const min = 60_000;
const clusters = [
  { name: 'a', paramsFile: '/a.yaml' },
  { name: 'b', paramsFile: '/b.yaml' },
];
const healthy: SoakHealthResult = { healthy: true, evidence: [] };

/** Health as a table: cluster → the minute (since the start) from which it is unhealthy. */
function scripted(clock: ManualClock, start: number, sick: Record<string, number> = {}) {
  const reads: string[] = [];
  const health = async (c: { name: string }) => {
    const at = (clock.now() - start) / min;
    reads.push(`${c.name}@${at}`);
    return sick[c.name] !== undefined && at >= sick[c.name]! ? { healthy: false, evidence: ['node vmo-worker-2: NotReady (Ready Unknown)'] } : healthy;
  };
  return { reads, health };
}

describe('soak', () => {
  it.each([
    // soak, sick, outcome, the reads made
    [30, {}, { kind: 'done', checks: 7 }, ['a@0', 'b@0', 'a@5', 'b@5', 'a@10', 'b@10', 'a@15', 'b@15', 'a@20', 'b@20', 'a@25', 'b@25', 'a@30', 'b@30']],
    [12, {}, { kind: 'done', checks: 4 }, ['a@0', 'b@0', 'a@5', 'b@5', 'a@10', 'b@10', 'a@12', 'b@12']],
    [30, { b: 7 }, { kind: 'unhealthy', cluster: 'b', evidence: ['node vmo-worker-2: NotReady (Ready Unknown)'] }, ['a@0', 'b@0', 'a@5', 'b@5', 'a@10', 'b@10']],
    [30, { a: 0 }, { kind: 'unhealthy', cluster: 'a', evidence: ['node vmo-worker-2: NotReady (Ready Unknown)'] }, ['a@0']],
  ] as const)('a %d-minute soak with clusters unhealthy from %j ends %j', async (minutes, sick, outcome, reads) => {
    const clock = new ManualClock(1_000_000);
    const start = clock.now();
    const s = scripted(clock, start, sick);
    const got = await clock.runUntilSettled(soak({ clusters, until: start + minutes * min, clock, signal: new AbortController().signal, health: s.health }));
    expect(got).toEqual(outcome);
    expect(s.reads).toEqual(reads);
  });

  it('resumed after its end was passed, reads health once and ends; a health read that throws is unhealthy, with why', async () => {
    const clock = new ManualClock(1_000_000);
    const s = scripted(clock, clock.now());
    expect(await soak({ clusters, until: clock.now() - 1, clock, signal: new AbortController().signal, health: s.health })).toEqual({ kind: 'done', checks: 1 });
    expect(s.reads).toEqual(['a@0', 'b@0']);
    const broken = async () => {
      throw new Error('params file gone');
    };
    expect(await soak({ clusters, until: clock.now() + min, clock, signal: new AbortController().signal, health: broken })).toEqual({ kind: 'unhealthy', cluster: 'a', evidence: ['its health could not be read: params file gone'] });
  });

  it('stops at Ctrl+C while it waits', async () => {
    const clock = new ManualClock(1_000_000);
    const ctrlC = new AbortController();
    const run = soak({ clusters, until: clock.now() + 30 * min, clock, signal: ctrlC.signal, health: scripted(clock, clock.now()).health });
    await clock.waitForSleepers(1);
    ctrlC.abort();
    expect(await run).toEqual({ kind: 'interrupted' });
  });
});
