/**
 * The fleet lab's faults besides pack-error, each the single-cluster lab's own on one cluster of the
 * fleet, end to end: a served fleet lab of 2 clusters, a fleet file per fault (the lab's own, with
 * stages of our own), `fleet start` in plain mode. The product decides what the fault becomes:
 *
 * - node-not-ready (store-001): preflight's health gate stops the canary before its first write; the
 *   fleet halts there, the next stage never starts, nothing is sent to Palette for either cluster.
 * - stuck-migration (store-002): the hop goes through, db-01's migration never converges, recovery
 *   asks to restart it; with restarts approved only for the VM every upgrade restarts (the build
 *   cache on its node-local disk), the cluster stops at db-01's restart gate and the fleet halts.
 *   Once the database calms down (the fault cleared) `fleet retry` completes it with the same settings.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../e2e/support.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations,stage', '--approve-restart', 'ns-packs/build-cache-01'];

interface Status {
  stages: Array<{ name: string; status: string; message?: string }>;
  clusters: Array<{ name: string; uid: string; status: string; message?: string }>;
}

describe('fleet lab faults: node-not-ready and stuck-migration', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;

  /** The lab's fleet file under another name, with these stages. */
  const fleetFile = (name: string, stages: Array<{ name: string; clusters: string[] }>) => {
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as Record<string, unknown>;
    const file = join(lab.dir, `${name}.yaml`);
    writeFileSync(file, stringify({ ...doc, fleet: name, stages }));
    return file;
  };
  const status = async (file: string) => JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', file, '--state-dir', stateDir], env)).stdout) as Status;
  const applies = async (uid: string) => (await lab.audit()).filter((e) => e.api === 'palette' && e.method === 'PATCH' && e.path.startsWith(`/v1/spectroclusters/${uid}/profiles`) && e.status < 300).length;

  beforeAll(async () => {
    lab = await serveFleetLab(2, ['store-001:node-not-ready', 'store-002:stuck-migration']);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-faults-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('node-not-ready: the canary stops at its health gate before any change, and the next stage never starts', async () => {
    const file = fleetFile('nnr', [{ name: 'canary', clusters: ['store-001'] }, { name: 'wave-1', clusters: ['store-002'] }]);
    const run = await cli(['fleet', 'start', '--fleet', file, '--state-dir', stateDir, ...approve], env, 300_000);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/store-001: gate: Stopped at a gate awaiting approval: store-001 is not healthy: upgrade it anyway\?/);
    expect(run.stdout).toMatch(/stage canary: stopped: store-001 waits at a gate without an approval/);
    expect(run.stdout).not.toContain('stage wave-1');
    const s = await status(file);
    expect(s.clusters.map((c) => `${c.name}:${c.status}`)).toEqual(['store-001:gate', 'store-002:pending']);
    expect(s.stages.map((st) => `${st.name}:${st.status}`)).toEqual(['canary:stopped', 'wave-1:pending']);
    // The cluster's own session names the NotReady node among the health gate's problems.
    const log = readFileSync(join(stateDir, 'fleets', 'nnr', 'clusters', 'store-001', 'run.log'), 'utf8');
    expect(log).toMatch(/vmo-worker-2/);
    const audit = (await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET');
    expect(audit).toEqual([]);
  });

  it('stuck-migration: the cluster stops at its stuck VM\'s restart gate and the fleet halts; cleared, a retry completes it', async () => {
    const file = fleetFile('stuck', [{ name: 'wave-1', clusters: ['store-002'] }, { name: 'wave-2', clusters: ['store-001'] }]);
    const run = await cli(['fleet', 'start', '--fleet', file, '--state-dir', stateDir, ...approve], env, 600_000);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/store-002: gate: Stopped at a gate awaiting approval: .*restart VM virtual-machines\/db-01/);
    expect(run.stdout).toMatch(/stage wave-1: stopped: store-002 waits at a gate without an approval/);
    expect(run.stdout).not.toContain('stage wave-2');
    const uid = lab.json.clusters.find((c) => c.name === 'store-002')!.uid;
    expect(await applies(uid)).toBe(1);
    // Its own session saw the migration fail to converge (KubeVirt's own words in its log).
    const log = readFileSync(join(stateDir, 'fleets', 'stuck', 'clusters', 'store-002', 'run.log'), 'utf8');
    expect(log).toMatch(/db-01/);
    expect((await status(file)).clusters.find((c) => c.name === 'store-001')!.status).toBe('pending');

    expect((await lab.control('/_lab/fleet-fault', { cluster: 'store-002' })).status).toBe(200);
    const retried = await cli(['fleet', 'retry', 'store-002', '--fleet', file, '--state-dir', stateDir, ...approve], env, 600_000);
    expect(retried.stdout).toContain('store-002: done');
    expect(retried.code).toBe(0);
    expect(await applies(uid)).toBe(1);
  });
});
