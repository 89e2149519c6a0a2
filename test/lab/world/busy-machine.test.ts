/**
 * The lab decides outcomes, not the scheduler (issue 32): a scenario run on the lab's own paced
 * clock, once on a quiet event loop and once with the event loop starved between the lab's ticks
 * (as on a two-core machine at load 9), ends with the same migrations in the same phases, for the
 * same reasons, each taking the same lab time. A late wall-clock timer only delays the world.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import type { VmoVersion } from '../../../src/lab/data/pack-catalog.js';
import type { ScenarioName } from '../../../src/lab/world/scenarios/index.js';
import { seedSpanMs } from '../../../src/lab/world/seed.js';
import { createHarness, type Harness } from '../support/world-harness.js';

const min = 60_000;
/** 300 lab-seconds a wall second: a 100 ms stall of the event loop is 30 s of the cluster's time. */
const SPEED = 300;
/** A clock that does not move with the wall: only the seeding's jumps move it. */
const HELD = 1e-9;

interface MigrationFact {
  vmi: string;
  phase: string;
  reason: string;
  /** Lab seconds from the publish to the migration's creation, its start and its end. */
  created: number;
  ran?: number;
}

const status = (m: KubeObject) => m.status as { phase?: string; migrationState?: { failureReason?: string; startTimestamp?: string; endTimestamp?: string } };
const seconds = (from: number, ts: string | undefined) => (ts ? Math.round((Date.parse(ts) - from) / 1000) : undefined);

/** The migrations the publish caused, as facts that do not depend on when the run began. */
function facts(h: Harness, publishedAt: number, before: ReadonlySet<string>): MigrationFact[] {
  return h
    .list('virtualmachineinstancemigrations')
    .filter((m) => !before.has(m.metadata.name))
    .map((m) => {
      const s = status(m);
      const started = s.migrationState?.startTimestamp;
      const ended = s.migrationState?.endTimestamp;
      const ran = started && ended ? seconds(Date.parse(started), ended) : undefined;
      return {
        vmi: `${m.metadata.namespace}/${(m.spec as { vmiName: string }).vmiName}`,
        phase: s.phase ?? '',
        reason: s.migrationState?.failureReason ?? '',
        created: seconds(publishedAt, m.metadata.creationTimestamp)!,
        ...(ran !== undefined ? { ran } : {}),
      };
    })
    .sort((a, b) => a.vmi.localeCompare(b.vmi) || a.created - b.created || a.phase.localeCompare(b.phase));
}

/** Blocks the event loop for `ms` of wall time: what another process on a busy core does to the lab. */
function hog(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
}

/**
 * Runs `scenario` on real (paced) time: publishes `hop`, then lets the cluster run for `horizon` lab
 * time and reads the migrations at exactly that lab time. The publish and the reading are lab
 * events like any other, and the seeding ran on a held clock from `start`, so both runs see the same
 * lab times. With `starve`, every few milliseconds the event loop is held for 20-120 ms.
 */
async function run(scenario: ScenarioName, hop: VmoVersion, horizon: number, start: number, starve: boolean): Promise<{ facts: MigrationFact[]; late: number }> {
  const h = createHarness(scenario, { seed: 5, start, speed: HELD });
  harnesses.push(h);
  const taken = new Promise<MigrationFact[]>((resolve) =>
    h.clock.after(1000, () => {
      const before = new Set(h.list('virtualmachineinstancemigrations').map((m) => m.metadata.name));
      h.publishHop(hop);
      const publishedAt = h.clock.now();
      h.clock.after(horizon, () => resolve(facts(h, publishedAt, before)));
    }),
  );
  // From here the cluster runs on its own clock, paced by the wall.
  h.clock.setSpeed(SPEED);
  let late = 0;
  let hogs: NodeJS.Timeout | undefined;
  if (starve) {
    let i = 0;
    const durations = [20, 120, 60, 90, 40, 110];
    hogs = setInterval(() => {
      const d = durations[i++ % durations.length]!;
      hog(d);
      late += d;
    }, 3);
  }
  try {
    return { facts: await taken, late };
  } finally {
    if (hogs) clearInterval(hogs);
  }
}

const harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

describe('a starved event loop changes nothing the lab decides', () => {
  it.each<[ScenarioName, VmoVersion, number]>([
    ['healthy', '4.5.4', 20 * min],
    // A skipped minor: migrations that fail 8 s into Running, back-offs, ones that hang.
    ['healthy', '4.6.3', 40 * min],
  ])('%s, publishing %s: the same migrations, phases, reasons and durations', async (scenario, hop, horizon) => {
    const start = Math.floor(Date.now() / 60_000) * 60_000 - seedSpanMs;
    const quiet = await run(scenario, hop, horizon, start, false);
    const busy = await run(scenario, hop, horizon, start, true);
    // The starved run really was starved: its timers fired late by many lab minutes in all.
    expect(busy.late * SPEED).toBeGreaterThan(10 * min);
    expect(quiet.facts.length).toBeGreaterThan(0);
    expect(busy.facts).toEqual(quiet.facts);
  });
});
