/**
 * A stage's soak, end to end on a served fleet lab of 2 clusters (the lab's clock runs 300x, so an
 * hour's soak is seconds): the canary soaks 1h; the coordinator is killed with SIGKILL in the soak;
 * `fleet status` says until when it soaks; the canary's node goes NotReady; `fleet resume` soaks
 * only what is left, reads the canary unhealthy and fails the stage naming it with its evidence, and
 * wave-1 never starts. Once the node is back, `fleet resume` soaks the stage again in full and runs
 * wave-1.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cli } from '../e2e/support.js';
import { until } from '../support/wait.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations,stage', '--approve-all-restarts'];

describe('fleet: a stage soaks before the next', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  let file: string;
  const journal = () => {
    const path = join(stateDir, 'fleets', 'soak', 'journal.ndjson');
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };

  beforeAll(async () => {
    lab = await serveFleetLab(2, []);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-soak-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as Record<string, unknown>;
    file = join(lab.dir, 'soak.yaml');
    writeFileSync(file, stringify({ ...doc, fleet: 'soak', stages: [{ name: 'canary', clusters: ['store-001'], soak: '1h' }, { name: 'wave-1', clusters: ['store-002'] }] }));
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('fails the stage when a cluster turns unhealthy in the soak, resumed after a crash with only what is left', async () => {
    const started = spawn(process.execPath, [CLI, 'fleet', 'start', '--fleet', file, '--state-dir', stateDir, ...approve], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    started.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    let ended = false;
    const exited = new Promise<number | null>((resolve) => started.on('close', (code, signal) => ((ended = true), resolve(signal ? null : code))));
    await until('the canary soaking', () => {
      if (ended) throw new Error(`fleet start ended before the soak:\n${out}`);
      // The journal is written before the line is printed: wait for both, or the kill may beat the pipe.
      return journal().includes('"stage.soak.started"') && /stage canary: soaking/.test(out);
    }, 300_000);
    started.kill('SIGKILL');
    expect(await exited).toBeNull();
    expect(out).toMatch(/stage canary: soaking 1h00m until \d\d:\d\d UTC \(lab time \d\d:\d\d UTC\), reading each cluster's health every 5m00s/);

    const status = await cli(['fleet', 'status', '--fleet', file, '--state-dir', stateDir], env);
    expect(status.stdout).toMatch(/stage canary: soaking until \d\d:\d\d UTC/);
    expect(status.stdout).toMatch(/store-001 +done/);

    expect((await lab.control('/_lab/fleet-fault', { cluster: 'store-001', fault: 'node-not-ready' })).status).toBe(200);
    const resumed = await cli(['fleet', 'resume', '--fleet', file, '--state-dir', stateDir, ...approve], env, 300_000);
    expect(resumed.stdout).toMatch(/stage canary: soak resumed, (\d+m\d\ds|\d+s|\d+ms) left/);
    expect(resumed.stdout).toMatch(/stage canary: failed: store-001 turned unhealthy during the soak: node vmo-worker-2: NotReady \(Ready Unknown/);
    expect(resumed.stdout).not.toContain('stage wave-1');
    expect(resumed.code).toBe(1);
    // One soak start journaled: the resume went on with the same end.
    expect(journal().match(/"stage\.soak\.started"/g)).toHaveLength(1);
    const s = JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', file, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ name: string; status: string; unhealthy?: string[] }> };
    expect(s.clusters.map((c) => `${c.name}:${c.status}`)).toEqual(['store-001:done', 'store-002:pending']);
    expect(s.clusters[0]!.unhealthy?.[0]).toMatch(/^node vmo-worker-2: NotReady/);
  });

  it('soaks again in full once the cluster is healthy, then runs the next stage', async () => {
    expect((await lab.control('/_lab/fleet-fault', { cluster: 'store-001' })).status).toBe(200);
    const resumed = await cli(['fleet', 'resume', '--fleet', file, '--state-dir', stateDir, ...approve, '--json'], env, 300_000);
    const events = resumed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; stage?: string; cluster?: string; healthy?: boolean; outcome?: string });
    expect(events.filter((e) => e.type === 'soak.started').map((e) => e.stage)).toEqual(['canary']);
    const checks = events.filter((e) => e.type === 'soak.check');
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(checks.every((c) => c.cluster === 'store-001' && c.healthy)).toBe(true);
    expect(events.filter((e) => e.type === 'stage.ended').map((e) => `${e.stage}:${e.outcome}`)).toEqual(['canary:done', 'wave-1:done']);
    expect(resumed.code).toBe(0);
  });
});
