/**
 * `fleet plan` with its window, end to end on a served fleet lab of 4 clusters where a cluster
 * template manages store-003: each cluster's predicted time from its own plan (the same as
 * `upgrade-pilot plan` predicts for that cluster alone), each stage's with its concurrency, soak and
 * window, the whole fleet's; `members` holds only the clusters that will run.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadFleet } from '../../src/fleet/load.js';
import { cli } from '../e2e/support.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

interface PlanJson {
  members: Record<string, string[]>;
  leftOut: Array<{ name: string }>;
  predictions: {
    clusters: Array<{ name: string; p50Seconds: number; p90Seconds: number; hops: number }>;
    stages: Array<{ name: string; clusters: number; maxConcurrency: number; p50Seconds: number; p90Seconds: number; soakSeconds: number; startsAt: string; endsAt: string; window?: { fits: boolean; openings: number } }>;
    fleet: { p50Seconds: number; p90Seconds: number; endsAt: string };
  };
}

describe('fleet plan: predicted time per cluster, stage and fleet, against the windows', () => {
  let lab: ServedFleetLab;
  let env: NodeJS.ProcessEnv;
  let file: string;
  let stateDir: string;

  beforeAll(async () => {
    lab = await serveFleetLab(4, [], 300, ['--fleet-template', 'store-003']);
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-plan-'));
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as { stages: Array<Record<string, unknown>> };
    doc.stages[0]!.soak = '1h';
    doc.stages[1]!.window = { days: ['daily'], start: '02:00', hours: 4, timeZone: 'Europe/Berlin' };
    file = join(lab.dir, 'plan-fleet.yaml');
    writeFileSync(file, stringify(doc));
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('predicts each cluster as plan does, lays the stages out with their soak and window, and lists in members only the clusters that run', async () => {
    const run = await cli(['fleet', 'plan', '--json', '--fleet', file, '--state-dir', stateDir], env);
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.stdout) as PlanJson;
    expect(plan.leftOut.map((l) => l.name)).toEqual(['store-003']);
    expect(plan.members).toEqual({ canary: ['store-001'], 'wave-1': ['store-002', 'store-004'] });
    const byName = new Map(plan.predictions.clusters.map((c) => [c.name, c]));
    expect([...byName.keys()]).toEqual(['store-001', 'store-002', 'store-004']);
    for (const c of byName.values()) {
      expect(c.hops, c.name).toBe(1);
      expect(c.p50Seconds, c.name).toBeGreaterThan(0);
      expect(c.p90Seconds, c.name).toBeGreaterThan(c.p50Seconds);
    }
    const [canary, wave1] = plan.predictions.stages;
    expect(canary).toMatchObject({ name: 'canary', clusters: 1, maxConcurrency: 1, p50Seconds: byName.get('store-001')!.p50Seconds, p90Seconds: byName.get('store-001')!.p90Seconds, soakSeconds: 3600 });
    expect(wave1).toMatchObject({ name: 'wave-1', clusters: 2, maxConcurrency: 2, window: { fits: true, openings: 1 } });
    // Both wave-1 clusters start together in one opening: the stage takes at least the longer one.
    expect(wave1!.p90Seconds).toBeGreaterThanOrEqual(Math.max(byName.get('store-002')!.p90Seconds, byName.get('store-004')!.p90Seconds));
    expect(Date.parse(wave1!.startsAt)).toBe(Date.parse(canary!.endsAt));
    expect(plan.predictions.fleet.endsAt).toBe(wave1!.endsAt);

    // The same prediction `upgrade-pilot plan` gives for store-001 alone (its params: the fleet file's defaults with its own values).
    const params = join(stateDir, 'store-001.yaml');
    writeFileSync(params, stringify(loadFleet(file).clusters[0]!.raw));
    const single = JSON.parse((await cli(['plan', '--json', '--params', params], env)).stdout) as { hops: Array<{ eta: { p50Seconds: number; p90Seconds: number } }> };
    const own = byName.get('store-001')!;
    expect(Math.abs(single.hops.reduce((n, h) => n + h.eta.p90Seconds, 0) - own.p90Seconds)).toBeLessThanOrEqual(Math.ceil(own.p90Seconds * 0.05));

    const text = (await cli(['fleet', 'plan', '--fleet', file, '--state-dir', stateDir], env)).stdout;
    expect(text).toMatch(/ {4}store-001 \(canary\): \S+-\S+: its own plan: 1 hop, \d+ VM\(s\) move, \d+ restarts?/);
    expect(text).toMatch(/ {2}stage canary: 1 cluster\(s\), 1 at a time: \S+-\S+; then soaks 1h00m/);
    expect(text).toMatch(/ {2}stage wave-1: 2 cluster\(s\), 2 at a time: .*; in its window daily 02:00-06:00 Europe\/Berlin: 1 opening\(s\), from .* UTC to .* UTC when slow/);
    expect(text).toMatch(/ {2}the whole fleet: \S+-\S+, stages one after another, soaks included; with the windows it ends by .* \(lab time\) when slow\. Not predicted: the stage approvals and the answers at the gates\./);
  });
});
