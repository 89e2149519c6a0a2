/**
 * Servers that accept and never answer (in `npm test`). The Kubernetes API hung (`/_lab/kube-hung`):
 * `verify` ends within the runbook's `kubectlProcessTimeout` (plus the kill grace: the calls queued
 * behind the first time-out fail at once) with a clear message and exit 4. The profile API hung (a
 * `hang` fault): calls end within the params file's `palette.timeout` and the retry budget. Each
 * run's wall time has an upper bound, and no kubectl process is left behind. The same in the middle
 * of an upgrade (which then resumes to the end), and a hung exec credential plugin mid-run, are in
 * hung-server.faults.ts; a hung plugin in `verify` is in hardening.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runbookWithSettings } from './support/hostile.js';
import { deployedTargetParams, processesWith, runTool, serveLab, STACK_TRACE, tempDir, waitFor, type ServedLab } from './support/processes.js';
import { keyEnv } from './support/upgrade.js';

const REQUEST_TIMEOUT_S = 2;
const PROCESS_TIMEOUT_S = 5;
const PALETTE_TIMEOUT_S = 1;

/** The bundled runbook with short kubectl limits (the `settings:` block is the only change). */
const shortLimitsRunbook = () => runbookWithSettings({ kubectlRequestTimeout: `${REQUEST_TIMEOUT_S}s`, kubectlProcessTimeout: `${PROCESS_TIMEOUT_S}s`, concurrency: 6 });

/** The lab's params file with a short profile API timeout. */
function shortTimeoutParams(lab: ServedLab): string {
  const text = readFileSync(lab.json.params, 'utf8');
  const changed = text.replace(/^ {2}timeout: .*$/m, `  timeout: ${PALETTE_TIMEOUT_S}s`);
  if (changed === text) throw new Error('the lab params file has no palette timeout to change');
  const file = join(tempDir('hung-params'), 'params.yaml');
  writeFileSync(file, changed);
  return file;
}

let lab: ServedLab;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterEach(async () => {
  await lab.call('POST', '/_lab/kube-hung', { on: false });
  await lab.faults([]);
});
afterAll(async () => {
  await lab?.stop();
});

describe('a Kubernetes API that accepts and never answers', () => {
  it('verify: every call ends within the configured limits, each panel names the time-out; nothing hangs', async () => {
    const runbook = shortLimitsRunbook();
    await lab.call('POST', '/_lab/kube-hung', { on: true });
    const spawnLog = join(tempDir('hung-spawns'), 'spawns.ndjson');
    const r = await runTool(['verify', '--params', await deployedTargetParams(lab), '--runbook', runbook], { env: keyEnv(lab), spawnLog, timeoutMs: 120_000 });
    // A time-out makes the checks that needed the call unknown; no cluster read answered, so the environment is at fault: exit 4.
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: The cluster could not be read at all: The cluster did not answer in time/m);
    expect(r.stderr).toMatch(/^ {2}what to do: Check the cluster access file, the network or VPN to the cluster API/m);
    expect(r.stdout).toMatch(/^upgrade-pilot verify: \S+: 1 green, 0 red, 0 amber, 5 unknown/m);
    const unknown = r.stdout.split('\n').filter((l) => /^\s+Could not check: /.test(l));
    expect(unknown).toHaveLength(5);
    for (const l of unknown) expect(l).toMatch(new RegExp(`Could not check: The cluster did not answer in time \\(${REQUEST_TIMEOUT_S}s\\) while trying to .+\\.$`));
    expect(r.stderr).not.toMatch(STACK_TRACE);
    // Every read went through one kubectl process (the read proxy), and the tool ended it itself: no
    // read started a process of its own to wait out another time-out.
    const spawns = readFileSync(spawnLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file?: string; args?: string[]; pid?: number; exited?: number });
    const kubectl = spawns.filter((s) => s.file && s.args?.includes('kubectl'));
    expect(kubectl.map((s) => s.args!.find((a) => a === 'proxy' || a === 'get'))).toEqual(['proxy']);
    expect(spawns.some((s) => s.exited === kubectl[0]!.pid)).toBe(true);
    // A bound for a hang only (five reads each waiting out its own time-out would still be under it;
    // the panels above say each read ended at the request time-out).
    expect(r.ms).toBeLessThan(90_000);
    await waitFor('no kubectl left behind', () => processesWith(lab.json.kubeconfig).length === 0, 15_000);
  }, 150_000);

});

describe('a profile API that accepts and never answers', () => {
  it('plan ends within palette.timeout and the retry budget, with a clear message and exit 4', async () => {
    const params = shortTimeoutParams(lab);
    const before = (await lab.audit()).length;
    await lab.faults([{ route: 'GET /v1/**', faults: { hang: true } }]);
    const r = await runTool(['plan', '--params', params], { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(new RegExp(`^error: The profile API at ${lab.json.paletteUrl} did not answer GET /v1/\\S+ within ${PALETTE_TIMEOUT_S * 1000} ms \\(\\d attempts?\\)\\.$`, 'm'));
    expect(r.stderr).toMatch(/what to do: Check the network path to the API, or raise palette.timeout in the params file\./);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    // The attempts the message counts are the requests the lab saw, no more (each ended at the time-out).
    const attempts = Number(/\((\d) attempts?\)/.exec(r.stderr)![1]);
    expect(attempts).toBeGreaterThan(0);
    // A bound for a hang only.
    expect(r.ms).toBeLessThan(90_000);
    expect((await lab.audit()).slice(before)).toEqual([]);
  }, 150_000);
});
