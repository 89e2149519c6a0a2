/**
 * Stopping a fleet, end to end on a served fleet lab of 3 clusters (canary 1, wave-1 of 2), plain
 * mode with every gate approved by flag. SIGTERM to `fleet start` after the canary's apply stops it
 * cleanly, once (no second handler takes it for a second signal): exit 130, the fleet journal says
 * stopped with the cluster's end written, the cluster's own journal says stopped, and the cluster is
 * recorded as applied with its rollout unwatched; `fleet status` exits 3 with no cluster running and
 * names the command that watches it again. That `fleet resume` watches it to the end; in wave-1,
 * `fleet stop` halts the fleet once store-002 is applied, and the coordinator is killed while it
 * carries store-002 to a safe point. `fleet resume` then finishes the fleet, and the lab's audit log
 * shows nothing sent twice.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../e2e/support.js';
import { until } from '../support/wait.js';
import { fleetEvents, runLog, serveFleetLab, spawnFleet, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,stage', '--approve-all-restarts'];

describe('fleet: SIGTERM, fleet stop and a crash while carrying', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  let flags: string[];

  beforeAll(async () => {
    lab = await serveFleetLab(3, []);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-stop-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    flags = ['--fleet', lab.json.fleet, '--state-dir', stateDir];
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('one SIGTERM stops cleanly: journaled stopped, the applied cluster recorded unwatched, status exits 3 with no cluster running', async () => {
    const stopNothing = await cli(['fleet', 'stop', ...flags], env);
    expect(stopNothing.code).toBe(2);
    expect(stopNothing.stderr).toMatch(/No coordinator runs fleet .*: there is nothing to stop/);

    const run = spawnFleet(['start', ...flags, ...approve], env);
    await until('store-001 applied', () => runLog(stateDir, 'store-001').includes('→ Sent: attach'), 300_000);
    run.proc.kill('SIGTERM');
    expect(await run.exited).toBe(130);
    const out = run.out();
    expect(out).toMatch(/SIGTERM: stopping every cluster at its next safe point/);
    expect(out).toMatch(/store-001: unwatched: applied \(hop 1 of 1, \S+ → 4\.6\.3, at \d\d:\d\d UTC\); rollout continues unwatched since \d\d:\d\d UTC: `upgrade-pilot fleet resume --fleet \S+ --state-dir \S+` watches it again/);
    expect(out).toMatch(/fleet lab-fleet: stopped \(SIGTERM\)/);

    const events = fleetEvents(stateDir);
    expect(events.filter((e) => e.type === 'cluster.ended').map((e) => [e.cluster, e.outcome])).toEqual([['store-001', 'unwatched']]);
    expect(events.find((e) => e.type === 'stage.ended')).toMatchObject({ stage: 'canary', outcome: 'stopped' });
    expect(events.at(-1)).toMatchObject({ type: 'fleet.stopped', reason: 'SIGTERM', mode: 'now', how: 'signal' });
    // The cluster's own journal: its session stopped, as one session stops on Ctrl+C.
    const sessionId = String(events.find((e) => e.type === 'cluster.started')!.session);
    const journal = readFileSync(join(stateDir, 'sessions', sessionId, 'journal.ndjson'), 'utf8').trim().split('\n');
    expect(JSON.parse(journal.at(-1)!).event).toMatchObject({ type: 'session.stopped', status: 'interrupted' });

    const status = await cli(['fleet', 'status', ...flags], env);
    expect(status.code).toBe(3);
    expect(status.stdout).not.toMatch(/ running /);
    expect(status.stdout).toMatch(/store-001 +unwatched session \S+: applied \(hop 1 of 1, \S+ → 4\.6\.3\), rollout continues unwatched since \d\d:\d\d UTC/);
    expect(status.stdout.trim().split('\n').at(-1)).toMatch(/^next: `upgrade-pilot fleet resume --fleet \S+ --state-dir \S+` \(it watches store-001 again first\)$/);
    const report = JSON.parse((await cli(['fleet', 'report', '--json', ...flags], env)).stdout) as { clusters: Array<{ cluster: string; unwatched?: { watchAgain: string } }>; stopped: unknown };
    expect(report.clusters.find((c) => c.cluster === 'store-001')!.unwatched?.watchAgain).toMatch(/^upgrade-pilot fleet resume --fleet /);
    expect(report.stopped).toMatchObject({ reason: 'SIGTERM', mode: 'now' });
  }, 600_000);

  it('resume watches it again; fleet stop halts while store-002 is applied; a crash while carrying it, resumed, sends nothing twice', async () => {
    const run = spawnFleet(['resume', ...flags], env);
    await until('store-001 watched to its end', () => run.out().includes('store-001: done'), 300_000);
    const before = runLog(stateDir, 'store-002').split('→ Sent: attach').length;
    await until('store-002 applied in wave-1', () => runLog(stateDir, 'store-002').split('→ Sent: attach').length > before, 300_000);
    const stopped = await cli(['fleet', 'stop', ...flags], env);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/halting: no new cluster starts; applied ones are watched to a safe point first/);
    const halting = await until('the halt journaled', () => fleetEvents(stateDir).find((e) => e.type === 'stage.halting' && e.stage === 'wave-1'), 60_000);
    // The coordinator dies while it watches store-002's change settle.
    run.proc.kill('SIGKILL');
    expect(await run.exited).toBeNull();
    expect(halting).toMatchObject({ why: 'stopped by fleet stop' });
    expect(halting.carrying).toContain('store-002');

    const resumed = await cli(['fleet', 'resume', ...flags], env, 600_000);
    expect(resumed.stdout).toContain("approvals of the run: --approve draft,publish,apply,stage --approve-all-restarts (the start's)");
    expect(resumed.stdout).toContain('store-002: resuming');
    expect(resumed.stdout).toContain('fleet lab-fleet: every stage done');
    expect(resumed.code).toBe(0);

    const audit = await lab.audit();
    const palette = audit.filter((e) => e.api === 'palette' && e.status < 300);
    for (const c of lab.json.clusters) expect(palette.filter((e) => e.method === 'PATCH' && e.path.startsWith(`/v1/spectroclusters/${c.uid}/profiles`)).length, c.name).toBe(1);
    const kube = audit.filter((e) => e.api !== 'palette' && e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
    expect(kube.length).toBeGreaterThan(0);
    expect(new Set(kube).size).toBe(kube.length);
    // Every session ended done; none was left running.
    for (const id of readdirSync(join(stateDir, 'sessions'))) {
      const file = join(stateDir, 'sessions', id, 'journal.ndjson');
      if (existsSync(file)) expect(JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!).event.type, id).toBe('session.done');
    }
  }, 900_000);
});
