/**
 * `plan` against the lab judges the VMs' restart windows at the lab's time, not the machine's: on
 * the no-converge lab ns-packs/build-cache-01 may be restarted only at weekend nights in Berlin.
 * With the lab's clock on a Wednesday noon the plan says its restart falls outside the window, at
 * the lab's hour; moved to a Saturday 03:00 in Berlin, the same plan finds it inside. The machine's
 * clock cannot be both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import { planOnLab } from './support/lab-plan.js';

const DAY = 24 * 3_600_000;

/** The first instant after `from` that is weekday `day` (0 = Sunday) at `hour`:00 UTC. */
function next(from: number, day: number, hour: number): number {
  const d = new Date(from);
  d.setUTCHours(hour, 0, 0, 0);
  while (d.getTime() <= from || d.getUTCDay() !== day) d.setTime(d.getTime() + DAY);
  return d.getTime();
}

describe('plan on the lab: the restart window judged at the lab\'s time', () => {
  let lab: LabHandle;
  const stateDir = mkdtempSync(join(tmpdir(), 'up27-clock-'));
  beforeAll(async () => {
    lab = await startLab({ scenario: 'no-converge', stateDir, seed: 27, speed: 1 });
  });
  afterAll(async () => {
    await lab.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const cache = async () => {
    const { code, out } = await planOnLab(lab, ['--json']);
    expect(code).toBe(0);
    return (JSON.parse(out) as PlanOutput).impact.find((i) => i.vm === 'ns-packs/build-cache-01')!;
  };
  const jumpTo = (t: number) => lab.clock.advance(t - lab.clock.now());

  it('Wednesday noon: outside, at the lab\'s hour; Saturday 03:00 in Berlin: inside', async () => {
    jumpTo(next(lab.clock.now(), 3, 12));
    const wednesday = await cache();
    expect(wednesday.fate).toBe('restart');
    expect(wednesday.limitsBroken?.find((b) => b.includes('restart window'))).toMatch(/^its restart would come at about 12:\d\d UTC, outside its restart window "Sat,Sun 02:00-06:00 Europe\/Berlin" \(it opens Sat /);

    // 02:00 UTC on a Saturday in November is 03:00 in Berlin; the restart comes after the hop, still inside.
    jumpTo(next(lab.clock.now(), 6, 2));
    const saturday = await cache();
    expect(saturday.limitsBroken?.filter((b) => b.includes('restart window')) ?? []).toEqual([]);
  });
});
