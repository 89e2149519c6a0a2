/**
 * The fleet's acceptance, end to end: a served fleet lab of 12 clusters (canary 1, wave-1 of 3,
 * wave-2 of 8 with failure threshold 1) where store-007 fails its pack rollout; `fleet start` in
 * plain mode with every gate approved, killed with SIGKILL in the middle of wave-1 (after a cluster's
 * apply was sent), then `fleet resume`: the canary and wave-1 end upgraded, wave-2 halts at the
 * failure: the clusters in flight past their apply are watched to their end, those before it stop
 * safely after their step, the rest are untouched. The lab's audit proves one
 * clone, one draft PUT and one publish per shared profile, one apply per cluster that ran, none for
 * the untouched, and no VM restart sent twice. Then the fault is cleared and `fleet retry store-007`
 * completes it; `fleet report` lists every cluster once with its fate.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetReportSchema, type FleetReport } from '../../src/fleet/report-schema.js';
import { CLI, cli } from '../e2e/support.js';
import { readCheckedReport } from '../support/report-pictures.js';
import { until } from '../support/wait.js';
import { fleetEvents, serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations,stage', '--approve-all-restarts'];

describe('fleet: lab --fleet 12, one wave-2 cluster failing its pack rollout', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  /** Wave-2 clusters that ended upgraded in the first run (before the failure, or in their last step when it halted). */
  let wave2Done = 0;
  const fleetDir = () => join(stateDir, 'fleets', 'lab-fleet');

  beforeAll(async () => {
    lab = await serveFleetLab(12, ['store-007:pack-error']);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-state-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('stops wave-2 at the failure, after a SIGKILL in wave-1 and a resume, sending nothing twice', async () => {
    const started = spawn(process.execPath, [CLI, 'fleet', 'start', '--fleet', lab.json.fleet, '--state-dir', stateDir, ...approve], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    started.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => started.on('close', (code, signal) => resolve(signal ? null : code)));
    // In wave-1, once store-002's apply has been sent (its own journal holds it): the coordinator dies.
    const log = join(fleetDir(), 'clusters', 'store-002', 'run.log');
    await until('store-002 applied in wave-1', () => existsSync(log) && readFileSync(log, 'utf8').includes('→ Sent: attach'), 240_000);
    started.kill('SIGKILL');
    expect(await exited).toBeNull();
    expect(out).toContain('stage canary: done');
    expect(out).not.toContain('stage wave-1: done');

    // The fleet's notifications (per stage and at the end) reach a command that records them; the clusters send none.
    const got = join(stateDir, 'notified.ndjson');
    const recorder = join(stateDir, 'record.mjs');
    writeFileSync(recorder, `import { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(got)}, readFileSync(0, 'utf8') + '\\n');\n`);
    const resumed = await cli(['fleet', 'resume', '--fleet', lab.json.fleet, '--state-dir', stateDir, ...approve, '--notify-command', `${process.execPath} ${recorder}`], env, 600_000);
    expect(resumed.stdout).toContain('store-002: resuming');
    expect(resumed.stdout).toContain('stage wave-1: done');
    expect(resumed.stdout).toMatch(/store-007: failed: cni-cilium-oss 1\.17\.1 of vmo-infra \S+ failed on store-007/);
    expect(resumed.stdout).toMatch(/stage wave-2: failed: 1 failure\(s\) reached the threshold 1 \(last: store-007\)/);
    expect(resumed.code).toBe(1);
    const notified = readFileSync(got, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; stage?: string; outcome?: string; counts?: Record<string, number>; exitCode?: number });
    expect(notified.map((m) => `${m.event} ${m.stage ?? ''} ${m.outcome ?? ''}`.trim())).toEqual(['stage.started wave-1', 'stage.ended wave-1 done', 'stage.started wave-2', 'stage.ended wave-2 failed', 'fleet.failed']);
    expect(notified.at(-1)).toMatchObject({ exitCode: 1, counts: { failed: 1 } });

    const status = JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', lab.json.fleet, '--state-dir', stateDir], env)).stdout) as {
      clusters: Array<{ name: string; uid: string; stage: string; status: string; message?: string }>;
    };
    const by = (stage: string) => status.clusters.filter((c) => c.stage === stage);
    expect([...by('canary'), ...by('wave-1')].map((c) => c.status)).toEqual(['done', 'done', 'done', 'done']);
    const wave2 = by('wave-2');
    expect(wave2.find((c) => c.name === 'store-007')!.status).toBe('failed');
    const inFlight = wave2.filter((c) => c.status === 'stopped');
    const untouched = wave2.filter((c) => c.status === 'pending');
    // A wave-2 cluster may have ended before the failure, or been in its last step when the stage
    // halted: finishing that step finished its upgrade. Which ones depends on timing, not on the product.
    const finished = wave2.filter((c) => c.status === 'done');
    wave2Done = finished.length;
    expect(inFlight.length + untouched.length + finished.length).toBe(7);
    expect(untouched.length).toBeGreaterThan(0);
    expect(notified.at(-1)!.counts).toMatchObject({ upgraded: 4 + wave2Done });
    // The clusters in flight whose change was not applied finished the step they were in (or had just
    // been started and stopped before their first step): stopped safely, saved, resumable. None is
    // left applied and unwatched.
    expect(wave2.filter((c) => c.status === 'unwatched' || c.status === 'running')).toEqual([]);
    for (const c of inFlight) expect(c.message, c.name).toMatch(/^stopped safely (after|at a poll of|before) .+; the session is saved \(the stage halted: 1 failure\(s\) reached the threshold 1 \(last: store-007\)\)$/);
    // wave-2 starts four clusters at once (store-005 to store-008), so store-007 never fails alone:
    // its companions were in flight at the halt, each carried to done (applied) or stopped before it.
    const wave2Names = new Set(wave2.map((c) => c.name));
    const companions = [...new Set(fleetEvents(stateDir).filter((e) => e.type === 'cluster.started' && wave2Names.has(e.cluster as string) && e.cluster !== 'store-007').map((e) => e.cluster as string))];
    expect(companions.length, 'wave-2 clusters started beside store-007').toBeGreaterThanOrEqual(3);
    for (const name of companions) expect(['done', 'stopped'], name).toContain(wave2.find((c) => c.name === name)!.status);

    // Each cluster's session verified its upgrade: the canary's and wave-1's reports say done.
    const audit = await lab.audit();
    const palette = audit.filter((e) => e.api === 'palette' && e.status < 300);
    const count = (re: RegExp) => palette.filter((e) => re.test(`${e.method} ${e.path}`)).length;
    // Two shared profiles (infra, add-on), one hop: one clone, one draft PUT, one publish each.
    expect(count(/^POST \/v1\/clusterprofiles\/\w+\/clone$/)).toBe(2);
    expect(count(/^PUT \/v1\/clusterprofiles\/\w+$/)).toBe(2);
    expect(count(/^PATCH \/v1\/clusterprofiles\/\w+\/publish$/)).toBe(2);
    const applies = (uid: string) => palette.filter((e) => e.method === 'PATCH' && e.path.startsWith(`/v1/spectroclusters/${uid}/profiles`)).length;
    for (const c of [...by('canary'), ...by('wave-1'), ...inFlight, wave2.find((x) => x.name === 'store-007')!]) expect(applies(c.uid), c.name).toBeLessThanOrEqual(1);
    for (const c of [...by('canary'), ...by('wave-1'), ...finished]) expect(applies(c.uid), c.name).toBe(1);
    for (const c of untouched) expect(applies(c.uid), c.name).toBe(0);
    // A cluster stopped by the halt was stopped before its apply: nothing was sent to it (an applied one is carried).
    for (const c of inFlight) expect(applies(c.uid), c.name).toBe(0);
    // Every cluster's calls went through one budget. The lab counts arrivals on its own busy event loop,
    // so a per-second figure is a timing (the bench's to judge, not a test's): printed for the record.
    const rates = await lab.get<Record<string, { requests: number; peakPerSecond: number; limit: number }>>('/_lab/request-rate');
    expect(Object.values(rates).reduce((n, r) => n + r.requests, 0)).toBeGreaterThan(100);
    console.log(`Palette requests per class (peak in any second / limit): ${Object.entries(rates).map(([c, r]) => `${c} ${r.peakPerSecond}/${r.limit} of ${r.requests}`).join(', ')}`);
    // No VM restart (or any other change to a cluster) was sent twice.
    const kube = audit.filter((e) => e.api !== 'palette' && e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
    expect(new Set(kube).size).toBe(kube.length);
  }, 900_000);

  it('retries the failed cluster once its fault is cleared, and the report lists every cluster once', async () => {
    expect((await lab.control('/_lab/fleet-fault', { cluster: 'store-007' })).status).toBe(200);
    const retried = await cli(['fleet', 'retry', 'store-007', '--fleet', lab.json.fleet, '--state-dir', stateDir, ...approve], env, 600_000);
    expect(retried.stdout).toContain('store-007: done');
    expect(retried.code).toBe(0);

    const report = await cli(['fleet', 'report', '--json', '--fleet', lab.json.fleet, '--state-dir', stateDir], env);
    const data = JSON.parse(report.stdout) as FleetReport;
    expect(FleetReportSchema.safeParse(data).error).toBeUndefined();
    expect(data.clusters.map((c) => c.cluster).sort()).toEqual(lab.json.clusters.map((c) => c.name).sort());
    const s7 = data.clusters.find((c) => c.cluster === 'store-007')!;
    expect(s7).toMatchObject({ fate: 'upgraded', attempts: 2, retries: 1 });
    // Its first run failed at the pack rollout; the retry continued the same session to the end.
    expect(s7.runs.map((r) => [r.attempt, r.outcome])).toEqual([[1, 'failed'], [2, 'done']]);
    expect(s7.runs[0]!.message).toMatch(/cni-cilium-oss 1\.17\.1 of vmo-infra \S+ failed on store-007/);
    // The pictures: report.md's gantt valid, report.html's SVG with every run a bar; store-007's failed run red, its retry beside it.
    const pictured = readCheckedReport<FleetReport>(fleetDir()).data.timeline.sections.flatMap((x) => x.bars);
    expect(pictured.filter((b) => b.id.startsWith('wave-2.store-007.')).map((b) => [b.label, b.status])).toEqual([['store-007', 'failed'], ['store-007 retry 1', 'ok']]);
    expect(data.clusters.filter((c) => c.fate === 'upgraded').length).toBe(5 + wave2Done);
    // Versions and VM fates come from each cluster's own session report; decisions name their flags.
    const upgraded = data.clusters.filter((c) => c.fate === 'upgraded');
    for (const c of upgraded) {
      expect(c.versions, c.cluster).toMatchObject({ to: data.target });
      expect(c.versions!.from, c.cluster).not.toBe(data.target);
      expect(c.vms!.migrated + c.vms!.restarted, c.cluster).toBeGreaterThan(0);
      expect(c.decisions.some((d) => d.by === 'flag' && d.detail.startsWith('--approve ')), c.cluster).toBe(true);
    }
    for (const s of data.stages) expect(s.approval, s.name).toEqual(s.needsApproval ? expect.objectContaining({ by: 'flag', detail: '--approve stage' }) : null);
    for (const c of data.clusters.filter((x) => x.fate === 'untouched')) expect(c, c.cluster).toMatchObject({ session: null, attempts: 0, runs: [] });
    // A pipeline's view: JUnit, one test case per cluster, written where it is asked to be.
    const junit = join(stateDir, 'fleet.junit.xml');
    const written = await cli(['fleet', 'report', '--format', 'junit', '--out', junit, '--fleet', lab.json.fleet, '--state-dir', stateDir], env);
    expect(written.code).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(12);
    expect(xml).toMatch(/<testcase classname="upgrade-pilot.fleet.wave-2" name="store-007" time="\d+">\n {6}<system-out>fate: upgraded/);
    expect(xml.match(/<skipped message="(untouched|stopped safely)/g)!.length).toBe(7 - wave2Done);
    // One apply for the retried cluster: the retry continued its session, it did not start over.
    const audit = await lab.audit();
    const uid = lab.json.clusters.find((c) => c.name === 'store-007')!.uid;
    expect(audit.filter((e) => e.api === 'palette' && e.method === 'PATCH' && e.path.startsWith(`/v1/spectroclusters/${uid}/profiles`)).length).toBe(1);
  }, 900_000);
});
