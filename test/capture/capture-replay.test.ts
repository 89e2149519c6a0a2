/**
 * Acceptance (issue 23, `capture` and `lab --replay`): a capture of a served lab, then a replay of
 * it, through the real kubectl over real sockets. `plan`, `diff` and `verify` print the same on the
 * replay as on the live lab (their whole JSON, timings aside), the diagnosis reads the same log
 * evidence, the capture holds no API key, no bearer token, no private key and no Secret, and a
 * capture over its size cap writes nothing (exit 2).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseCommandLine } from '../../src/cli/args.js';
import { runCaptureCommand } from '../../src/commands/capture.js';
import { runDiffCommand } from '../../src/commands/diff.js';
import { runPlanCommand } from '../../src/commands/plan.js';
import { runVerifyCommand } from '../../src/commands/verify.js';
import { bundledRunbook, loadParams } from '../../src/engine/load.js';
import { loadRunbook } from '../../src/steps/runbook-load.js';
import { ExitCode, exitCodeOf } from '../../src/errors.js';
import { KubeClient } from '../../src/kube/client.js';
import { Kubectl } from '../../src/kube/kubectl.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { startReplay, type ReplayHandle } from '../../src/lab/replay/index.js';
import { findAffected } from '../../src/steps/migrations/affected.js';
import { readMigrationView } from '../../src/steps/migrations/cluster-view.js';
import { handlerLogs } from '../../src/steps/migrations/log-sources.js';
import { builtinSteps } from '../../src/steps/index.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { createTestSession } from '../support/session-harness.js';

const registry = builtinSteps();
const scratch = (name: string) => mkdtempSync(join(tmpdir(), `up-capture-${name}-`));

async function command(run: typeof runPlanCommand, argv: string[], apiKey: string): Promise<{ code: number; out: string; err: string }> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error('bad argv');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { UPGRADE_PILOT_API_KEY: apiKey } };
  try {
    return { code: await run(parsed.invocation.options, io, registry), out, err };
  } catch (e) {
    return { code: exitCodeOf(e), out, err: `${err}${(e as Error).message}` };
  }
}

/**
 * A command's JSON without what no two runs share: timings (`ms`, `durationMs`), and ages (`Failed
 * 61s ago`): the replay's clock runs on from the capture while the live lab's stands still.
 */
function verdicts(out: string): unknown {
  return JSON.parse(out, (key, value: unknown) => (key === 'ms' || key === 'durationMs' ? undefined : typeof value === 'string' ? value.replace(/\b(\d+[smhd])+ ago\b/g, 'N ago') : value));
}

interface Site {
  lab: LabHandle;
  replay: ReplayHandle;
  file: string;
  text: string;
  /** The operator's sessions (one upgrade of this cluster, two days ago, for skip-minor). */
  sessions: string;
}

/** A live session of the cluster, started two days ago: standalone verify judges failures from its start. */
function oldSession(dir: string, lab: LabHandle): void {
  const runbook = loadRunbook(bundledRunbook(), loadParams(lab.params).params, registry).runbook;
  const clusterUid = lab.clusterUid;
  const store = new SessionStore(dir, new Redactor());
  createTestSession(store, runbook, registry, 'site', { mode: 'live', createdAt: new Date(Date.now() - 2 * 86_400_000).toISOString(), cluster: { uid: clusterUid } });
}

async function captureAndReplay(scenario: 'skip-minor' | 'healthy', flavor: 'spec' | 'palette'): Promise<Site> {
  const lab = await startLab({ scenario, stateDir: scratch('lab'), speed: 1, seed: 7, flavor });
  const sessions = scratch('sessions');
  if (scenario === 'skip-minor') oldSession(sessions, lab);
  // The live lab's world must hold still while the two are compared, as a site does between its
  // capture and a support engineer's replay of it: past its start-up, then all but stopped.
  lab.clock.advance(10 * 60_000);
  lab.clock.setSpeed(0.001);
  const file = join(scratch('out'), 'site.capture.json.gz');
  const r = await command(runCaptureCommand, ['capture', '--params', lab.params, '--out', file, '--state-dir', sessions], lab.apiKey);
  expect(r.code, r.err).toBe(0);
  const replay = await startReplay({ file, stateDir: scratch('replay') });
  return { lab, replay, file, text: gunzipSync(readFileSync(file)).toString('utf8'), sessions };
}

describe.each([
  ['skip-minor', 'spec'],
  ['healthy', 'palette'],
] as const)('capture of the %s lab (%s flavor), then its replay', (scenario, flavor) => {
  let site: Site;
  beforeAll(async () => {
    site = await captureAndReplay(scenario, flavor);
  }, 120_000);
  afterAll(async () => {
    await site?.replay.close();
    await site?.lab.close();
  });

  it.each([
    ['plan', runPlanCommand],
    ['diff', runDiffCommand],
    ['verify', runVerifyCommand],
  ] as const)('%s gives the same verdicts on the replay as on the live lab', async (name, run) => {
    // The site's verify judges from the operator's latest session; the replay has none, and is told
    // the --since that judges the same (lab.json and the manifest say it).
    const since = name === 'verify' && site.replay.labJson.replay.verifySince ? site.replay.labJson.replay.verifySince.arg.split(' ') : [];
    const live = await command(run, [name, '--params', site.lab.params, '--json', '--state-dir', site.sessions], site.lab.apiKey);
    const replayed = await command(run, [name, '--params', site.replay.params, '--json', '--state-dir', scratch('support'), ...since], site.replay.apiKey);
    expect(live.out, live.err).not.toBe('');
    expect(replayed.code).toBe(live.code);
    const [l, r] = [verdicts(live.out) as { since?: { at?: string } }, verdicts(replayed.out) as { since?: { at?: string } }];
    if (name === 'verify') {
      // Where each judged from: the same instant, said in two ways (a session, a --since).
      if (scenario === 'skip-minor') expect(Math.abs(Date.parse(r.since?.at ?? '') - Date.parse(l.since?.at ?? ''))).toBeLessThan(1_000);
      else expect([l.since?.at, r.since?.at]).toEqual([undefined, undefined]);
      delete l.since;
      delete r.since;
    }
    expect(r).toEqual(l);
  }, 60_000);

  it('the diagnosis reads the same evidence from the replay', async () => {
    const read = async (kubeconfig: string, params: string) => {
      const site = loadParams(params).params;
      const kubectl = new Kubectl({ kubeconfig, context: site.cluster.context, requestTimeoutMs: 20_000, processTimeoutMs: 30_000, cacheDir: scratch('kube'), concurrency: 4, readProxy: true });
      try {
        const reader = new KubeClient(kubectl).reader();
        const view = await readMigrationView(reader, site.kubevirt);
        const affected = findAffected(view, undefined, Date.parse('2100-01-01T00:00:00Z'));
        const logs = await handlerLogs(reader, site.kubevirt.namespace, affected.nodes, 8, 500);
        return { vmis: affected.vmis, nodes: affected.nodes, reasons: affected.reasons, logs: logs.sources };
      } finally {
        kubectl.close();
      }
    };
    const live = await read(site.lab.kubeconfig, site.lab.params);
    expect(await read(site.replay.kubeconfig, site.replay.params)).toEqual(live);
    if (scenario === 'skip-minor') expect(live.logs.flatMap((s) => s.lines).join('\n')).toMatch(/Unimplemented/);
  }, 60_000);

  it('the capture holds no API key, no bearer token, no private key and no Secret; the file is 0600', () => {
    const kubeconfig = parse(readFileSync(site.lab.kubeconfig, 'utf8')) as { users: Array<{ user: { token: string } }> };
    const token = kubeconfig.users[0]!.user.token;
    expect(token.length).toBeGreaterThan(20);
    for (const secret of [site.lab.apiKey, token, Buffer.from(site.lab.apiKey).toString('base64').slice(0, 24)]) expect(site.text).not.toContain(secret);
    expect(site.text).not.toMatch(/PRIVATE KEY|"kind":\s*"Secret"|\/secrets[/?"]/);
    expect(statSync(site.file).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(site.text).manifest as { palette: { flavor: string }; passes: Array<{ ok: boolean }>; cluster: { uid: string } };
    expect(manifest.palette.flavor).toBe(flavor);
    expect(manifest.cluster.uid).toBe(site.lab.clusterUid);
    expect(manifest.passes.every((p) => p.ok)).toBe(true);
    // No local path (README: "local paths are dropped"): the kubeconfig named by the params, the lab's folder.
    const head = JSON.stringify(JSON.parse(site.text).manifest);
    expect(site.text).not.toContain(site.lab.kubeconfig);
    expect(head).not.toContain(dirname(site.lab.params));
    expect(head).not.toMatch(/"kubeconfig"/);
    expect(JSON.parse(site.text).manifest.kube.context).toBe(loadParams(site.lab.params).params.cluster.context);
  });

  it('the replay refuses every change and changes nothing', async () => {
    const r = await fetch(`${site.replay.paletteUrl}/v1/clusterprofiles/${site.replay.labJson.profileUids.addon}/publish`, { method: 'PATCH', headers: { ApiKey: site.replay.apiKey, ProjectUid: site.replay.labJson.projectUid } });
    expect(r.status).toBe(405);
    expect(await r.json()).toMatchObject({ code: 'ReplayIsReadOnly' });
    const audit = (await (await fetch(site.replay.labJson.auditUrl, { headers: { ApiKey: site.replay.apiKey } })).json()) as Array<{ effect: string }>;
    expect(audit.map((a) => a.effect)).toEqual(['rejected']);
  });
});

describe('what a capture refuses', () => {
  let lab: LabHandle;
  beforeAll(async () => {
    lab = await startLab({ scenario: 'healthy', stateDir: scratch('lab'), speed: 1, seed: 7 });
  }, 60_000);
  afterAll(async () => {
    await lab?.close();
  });

  it('a capture over --max-size stops, writes nothing, and says what to do (exit 2)', async () => {
    const dir = scratch('cap');
    const file = join(dir, 'site.capture.json');
    const r = await command(runCaptureCommand, ['capture', '--params', lab.params, '--out', file, '--max-size', '64KiB'], lab.apiKey);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.err).toMatch(/over its cap of 64 KiB \(--max-size\)\. Nothing was written\./);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('a key the profile API refuses stops the capture: exit 4, nothing written', async () => {
    const dir = scratch('cap');
    const r = await command(runCaptureCommand, ['capture', '--params', lab.params, '--out', join(dir, 'x.json')], 'not-the-lab-key-0123456789');
    expect(r.code).toBe(ExitCode.environment);
    expect(r.err).toMatch(/did not accept the API key \(401 Unauthorized\)/);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('an --out that exists is never replaced (exit 2, before any read)', async () => {
    const dir = scratch('cap');
    const r1 = await command(runCaptureCommand, ['capture', '--params', lab.params, '--out', dir], lab.apiKey);
    expect(r1.code).toBe(ExitCode.usage);
    expect(r1.err).toMatch(/already exists; a capture never replaces a file/);
  });
});
