/**
 * Hardening (issue 17), the fast sample in `npm test`; the long matrices are hardening.faults.ts.
 * The real binary against labs served by other processes:
 *
 * - waits: a hung exec credential plugin (that leaves a helper holding the pipes) ends `verify`
 *   within the process limit plus the kill grace, exit 4, nothing left in the process table; a hung
 *   lab clock costs one bounded read, not the run;
 * - reads: an API answer that never ends is cut at the cap, and the peak memory is measured; a
 *   kubectl answer over the runbook's cap stops the call (exit 4);
 * - text: a credential plugin that prints terminal escapes does not reach the terminal raw;
 * - damage: `sessions` lists a damaged session as damaged, the others as they are;
 * - leftovers: a killed run's scratch folder is removed by the next run;
 * - rate limits: a publish answered 429 / 503 with Retry-After is read back and sent again, and the
 *   run goes on (exit 3 at the next gate, not 4), each publish applied once.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { at, created, meta, step } from '../support/state-fixtures.js';
import { paletteProxy, type PaletteProxy } from './support/palette-proxy.js';
import { ESCAPING_PLUGIN, HUNG_PLUGIN, paramsVia, peaks, pluginKubeconfig, runbookWithSettings } from './support/hostile.js';
import { deployedTargetParams, isStopped, processesWith, RAW_CONTROL, runTool, serveLab, spawnTool, STACK_TRACE, tempDir, waitFor, type ServedLab } from './support/processes.js';
import { appliedMutations, keyEnv } from './support/upgrade.js';

/** What a run may take on top of its own bound: starting Node and loading the tool on a busy machine. */
const STARTUP_SLACK_MS = 15_000;

let lab: ServedLab;
const proxies: PaletteProxy[] = [];
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await lab?.stop();
});

async function proxy(): Promise<PaletteProxy> {
  const p = await paletteProxy(lab.json.paletteUrl);
  proxies.push(p);
  return p;
}

describe.concurrent('hardening, a sample of each class', () => {
  it('a hung exec credential plugin: verify ends within the process limit + 3 s, exit 4, no process left', async () => {
    const marker = `up-rel-hung-${process.pid}`;
    const kubeconfig = pluginKubeconfig(lab, 'hung', HUNG_PLUGIN(marker));
    const runbook = runbookWithSettings({ kubectlRequestTimeout: '2s', kubectlProcessTimeout: '3s', concurrency: 6 });
    const r = await runTool(['verify', '--params', await deployedTargetParams(lab), '--kubeconfig', kubeconfig, '--runbook', runbook], { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: The cluster could not be read at all: The cluster did not answer in time \(2s\) \(or its credential plugin \S+hung\S* did not return\) while trying to .+\./m);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.ms).toBeLessThan(3_000 + 3_000 + STARTUP_SLACK_MS);
    await waitFor('no plugin, helper or kubectl left', () => processesWith(marker).length === 0 && processesWith(kubeconfig).length === 0, 5_000);
  }, 60_000);

  it('a credential plugin that prints terminal escapes: nothing raw reaches stdout or stderr', async () => {
    const kubeconfig = pluginKubeconfig(lab, 'escaping', ESCAPING_PLUGIN);
    const r = await runTool(['verify', '--params', await deployedTargetParams(lab), '--kubeconfig', kubeconfig], { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/The credential plugin \S+escaping\.sh of the cluster access file \S+ failed \(exit code 1\) while trying to .+: plugin says no\./);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(RAW_CONTROL);
  }, 60_000);

  it('a lab clock that never answers: one bounded read (2 s), then the run goes on to its first gate', async () => {
    const p = await proxy();
    p.setRewrite((req) => (req.path === '/_lab/clock' ? 'hang' : undefined));
    const r = await runTool(['start', '--params', paramsVia(lab, p.url), '--non-interactive', '--state-dir', tempDir('clock-state')], { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(p.seen.filter((s) => s === 'GET /_lab/clock').length).toBeGreaterThan(0);
    // Without a bound on the clock, the first read alone waited 300 s.
    expect(r.ms).toBeLessThan(60_000);
  }, 120_000);

  it('an API answer that never ends: cut at the cap (exit 4); the peak memory stays bounded', async () => {
    const p = await proxy();
    p.setRewrite((req) => (req.method === 'GET' && req.path.startsWith('/v1/clusterprofiles/') ? 'stream' : undefined));
    const rss = join(tempDir('rss'), 'rss.ndjson');
    const normal = await runTool(['plan', '--params', lab.json.params], { env: keyEnv(lab), rssLog: rss });
    expect(normal.code, normal.stderr).toBe(0);
    const r = await runTool(['plan', '--params', paramsVia(lab, p.url)], { env: keyEnv(lab), rssLog: rss, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: The profile API's answer to GET \/v1\/clusterprofiles\/\S+ is larger than 64 MiB; it was not read\.$/m);
    const [plain, streamed] = peaks(rss);
    console.log(`memory: plan peak RSS ${Math.round(plain! / 1024)} MiB normally, ${Math.round(streamed! / 1024)} MiB against an answer that never ends (cap 64 MiB)`);
    // Two profile reads run at once, each may hold up to the cap: far from the 3 GB of before.
    expect(streamed!).toBeLessThan(plain! + 3 * 64 * 1024 + 64 * 1024);
  }, 120_000);

  it('a kubectl answer over the runbook\'s cap stops the call (exit 4), naming the cap', async () => {
    const runbook = runbookWithSettings({ kubectlRequestTimeout: '20s', kubectlProcessTimeout: '60s', concurrency: 6, kubectlMaxOutput: '16KiB' });
    const r = await runTool(['verify', '--params', await deployedTargetParams(lab), '--runbook', runbook], { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(`${r.stdout}${r.stderr}`).toMatch(/The cluster's answer while trying to .+ was larger than 16 KiB; the call was stopped\./);
  }, 60_000);

  it('`sessions` lists a damaged session as damaged, with why, and the others as they are', async () => {
    const stateDir = tempDir('damaged-list');
    const store = new SessionStore(stateDir, new Redactor());
    for (const id of ['20260101-000000-aaaaaa', '20260101-000000-bbbbbb']) {
      const s = store.create({ ...created([step('a')]), meta: { ...meta, id } });
      s.append({ type: 'step.started', at: at(1), id: 'a' });
      if (id.endsWith('b')) s.append({ type: 'step.started', at: at(2), id: 'ghost' } as never);
      s.close();
    }
    const r = await runTool(['sessions', '--state-dir', stateDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^20260101-000000-aaaaaa\s+test\s+cluster-1\s+live\s+a\s+running\s/m);
    expect(r.stdout).toMatch(/^20260101-000000-bbbbbb\s+-\s+-\s+-\s+-\s+damaged\s/m);
    expect(r.stdout).toMatch(/^20260101-000000-bbbbbb: The session journal \S+ is damaged at line 3: Illegal step\.started for ghost: no such step\.$/m);
    const json = await runTool(['sessions', '--state-dir', stateDir, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ status: 'running' }), expect.objectContaining({ status: 'damaged', problem: expect.stringMatching(/line 3/) })]);
  }, 60_000);

  it('a killed run\'s scratch folder is removed by the next run; a finished run leaves none', async () => {
    const tmp = tempDir('tmpdir');
    mkdirSync(tmp, { recursive: true });
    const scratch = () => readdirSync(tmp).filter((n) => n.startsWith('upgrade-pilot-kube-'));
    const report = join(tempDir('leftover-report'), 'stop.json');
    const tool = spawnTool(['start', '--params', lab.json.params, '--non-interactive', '--state-dir', tempDir('leftover-state')], {
      env: { ...keyEnv(lab), TMPDIR: tmp },
      crash: { targets: ['step.started|snapshot|'], mode: 'stop', report },
    });
    await waitFor('the run to stop in the snapshot', () => existsSync(report) && isStopped(tool.pid));
    tool.proc.kill('SIGKILL');
    await tool.done;
    expect(scratch()).toEqual([expect.stringMatching(new RegExp(`^upgrade-pilot-kube-${tool.pid}-`))]);
    const next = await runTool(['plan', '--params', lab.json.params], { env: { ...keyEnv(lab), TMPDIR: tmp } });
    expect(next.code, next.stderr).toBe(0);
    expect(scratch()).toEqual([]);
  }, 120_000);
});

describe('rate limits on mutations', () => {
  it('publishes answered 429 and 503 with Retry-After: read back, sent again, the run goes on; each applied once', async () => {
    const other = await serveLab({ scenario: 'healthy', speed: 600 });
    try {
      const { infra, addon } = other.json.profileUids;
      await other.faults([
        { route: `PATCH /v1/clusterprofiles/${infra}/publish`, faults: { rateLimit: { burst: 2, every: 100, retryAfterSeconds: 1 } } },
        { route: `PATCH /v1/clusterprofiles/${addon}/publish`, faults: { rateLimit: { burst: 2, every: 100, retryAfterSeconds: 1, status: 503 } } },
      ]);
      // Approvals up to the publishes only: the run stops at the next gate (a VM restart), exit 3.
      const r = await runTool(['start', '--params', other.json.params, '--non-interactive', '--approve', 'draft,publish,cancel-migrations', '--state-dir', tempDir('rate-state')], { env: keyEnv(other), timeoutMs: 180_000 });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toMatch(/publish \S+ \S+: not applied, the API answered 429 Too Many Requests; reading it back, then sending again in 1s \(send 2 of 5\)/);
      expect(r.stdout).toMatch(/publish \S+ \S+: not applied, the API answered 503 Service Unavailable; reading it back, then sending again in 1s \(send 3 of 5\)/);
      const audit = await other.audit();
      const publishes = audit.filter((e) => e.method === 'PATCH').map((e) => `${e.path.split('/')[3] === infra ? 'infra' : 'addon'} ${e.status} ${e.effect}`);
      expect(publishes).toEqual(['infra 429 rejected', 'infra 429 rejected', 'infra 204 applied', 'addon 503 rejected', 'addon 503 rejected', 'addon 204 applied']);
      expect(appliedMutations(audit).filter((m) => m.startsWith('PATCH '))).toHaveLength(2);
    } finally {
      await other.stop();
    }
  }, 240_000);
});
