/**
 * Stages by tag and a cluster that vanishes, end to end on a served fleet lab of 3 clusters (Palette
 * tags region=east on store-001 and store-003, region=west on store-002): a stage `selector: { tags:
 * [region=east] }` takes the east clusters when the plan is frozen and waits at its approval; store-003
 * is then deleted from Palette and store-002 tagged east; `fleet resume --approve stage` upgrades
 * store-001 and reports store-003 vanished (not failed: the stage is done, exit 0). store-002, tagged
 * after the plan was frozen, is not pulled in: it is in no stage and never touched.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../e2e/support.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations', '--approve-all-restarts'];

describe('fleet: a stage by tag, and a cluster gone from Palette after the plan', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  let file: string;

  beforeAll(async () => {
    lab = await serveFleetLab(3, []);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-selector-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as Record<string, unknown>;
    file = join(lab.dir, 'east.yaml');
    writeFileSync(file, stringify({ ...doc, fleet: 'east', stages: [{ name: 'east', selector: { tags: ['region=east'] }, approval: true, maxConcurrency: 2 }] }));
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('selects by Palette tag at the plan, and reports the vanished cluster without failing the stage', async () => {
    const plan = await cli(['fleet', 'plan', '--fleet', file, '--state-dir', stateDir], env);
    expect(plan.stdout).toMatch(/stage east: the clusters tagged region=east \(read from Palette when the plan is frozen\)/);

    const started = await cli(['fleet', 'start', '--fleet', file, '--state-dir', stateDir, ...approve], env);
    expect(started.stdout).toMatch(/stage east: tagged region=east: store-001, store-003/);
    expect(started.stdout).toMatch(/stage east waits for approval/);
    expect(started.code).toBe(3);

    expect((await lab.control('/_lab/fleet-remove', { cluster: 'store-003' })).status).toBe(200);
    // store-002 is tagged east after the plan: the target set is frozen, it is not pulled in.
    expect((await lab.control('/_lab/fleet-tags', { cluster: 'store-002', labels: { region: 'east', vmo: 'spectro__tag' } })).status).toBe(200);
    const resumed = await cli(['fleet', 'resume', '--fleet', file, '--state-dir', stateDir, ...approve, '--approve', 'stage'], env, 600_000);
    expect(resumed.stdout).toMatch(/store-003: vanished: Palette no longer has it \(deleted after the plan\); not failed, not upgraded/);
    expect(resumed.stdout).toContain('store-001: done');
    expect(resumed.stdout).toContain('stage east: done');
    expect(resumed.code).toBe(0);

    const status = JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', file, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ name: string; status: string }> };
    expect(status.clusters.map((c) => `${c.name}:${c.status}`)).toEqual(['store-001:done', 'store-003:vanished']);
    // store-002 (west) was never in the plan: Palette saw no change for it.
    const west = lab.json.clusters.find((c) => c.name === 'store-002')!.uid;
    expect((await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET' && e.path.includes(west))).toEqual([]);
  });
});
