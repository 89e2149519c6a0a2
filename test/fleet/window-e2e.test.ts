/**
 * A stage's window, end to end on a served fleet lab of 2 clusters (lab time runs 300x, so an hour
 * is 12 s): the canary's window opens an hour (lab time) from now, so it waits (`window.wait`),
 * Ctrl+C stops the wait with nothing started, and `fleet resume` waits out the rest and runs it.
 * wave-1's window is 3 minutes long: store-002's predicted duration (the p90 of the canary's planned
 * hops: the same profiles) never fits, and the stage stops saying so.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cli } from '../e2e/support.js';
import { until } from '../support/wait.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations,stage', '--approve-all-restarts'];
type Event = { type: string; stage?: string; cluster?: string; why?: string; opensAt?: string; basis?: string; outcome?: string; message?: string };
const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);

describe('fleet: a stage starts its clusters only in its window', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  let file: string;
  let opens: number;

  beforeAll(async () => {
    lab = await serveFleetLab(2, []);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-window-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const { now } = await lab.get<{ now: number }>('/_lab/clock');
    // The next whole minute an hour from now (lab time), in UTC: daily, 6 hours.
    opens = Math.ceil((now + 3_600_000) / 60_000) * 60_000;
    const hhmm = new Date(opens).toISOString().slice(11, 16);
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as Record<string, unknown>;
    file = join(lab.dir, 'window.yaml');
    writeFileSync(
      file,
      stringify({
        ...doc,
        fleet: 'window',
        stages: [
          { name: 'canary', clusters: ['store-001'], window: { days: ['daily'], start: hhmm, hours: 6, timeZone: 'UTC' } },
          { name: 'wave-1', clusters: ['store-002'], window: { days: ['daily'], start: hhmm, hours: 0.05, timeZone: 'UTC' } },
        ],
      }),
    );
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('waits for the window; Ctrl+C in the wait starts nothing; resume waits out the rest and runs the cluster', async () => {
    const started = spawn(process.execPath, [CLI, 'fleet', 'start', '--json', '--fleet', file, '--state-dir', stateDir, ...approve], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => started.on('close', (code) => resolve(code)));
    await until('the canary waiting for its window', () => out.includes('"window.wait"'), 120_000);
    started.kill('SIGINT');
    expect(await exited).toBe(130);
    const first = events(out);
    const wait = first.find((e) => e.type === 'window.wait')!;
    expect(wait).toMatchObject({ stage: 'canary', cluster: 'store-001', why: 'closed', opensAt: new Date(opens).toISOString() });
    expect(wait.basis).toBeUndefined(); // nothing has planned yet: only "inside the window" holds
    expect(first.some((e) => e.type === 'cluster.started')).toBe(false);
    expect(first.find((e) => e.type === 'stage.ended')).toMatchObject({ stage: 'canary', outcome: 'stopped' });

    const resumed = await cli(['fleet', 'resume', '--json', '--fleet', file, '--state-dir', stateDir, ...approve], env, 600_000);
    const after = events(resumed.stdout);
    const types = after.map((e) => `${e.type}${e.cluster ? ` ${e.cluster}` : ''}`);
    expect(types.indexOf('cluster.started store-001')).toBeGreaterThan(types.indexOf('window.wait store-001'));
    const { now } = await lab.get<{ now: number }>('/_lab/clock');
    expect(now).toBeGreaterThanOrEqual(opens);
    expect(after.find((e) => e.type === 'cluster.ended' && e.cluster === 'store-001')).toMatchObject({ outcome: 'done' });

    // wave-1's window is 3 minutes: store-002's prediction (the canary's plan) never fits, nothing starts.
    const wave1 = after.find((e) => e.type === 'stage.ended' && e.stage === 'wave-1')!;
    expect(wave1.outcome).toBe('failed');
    expect(wave1.message).toMatch(/store-002 is predicted to take \S+ \(the p90 of store-001's planned hops \(the same profiles; store-002 has not planned yet\)\), longer than any opening of the window daily \d\d:\d\d-\d\d:\d\d UTC \(the longest is 3m00s\)/);
    expect(after.some((e) => e.type === 'cluster.started' && e.cluster === 'store-002')).toBe(false);
    expect(resumed.code).toBe(1);
  });
});
