/**
 * Hung servers and plugins in the middle of an upgrade (`npm run test:faults`):
 *
 * - the Kubernetes API accepts and never answers, during the migration monitor: the run stops within
 *   the limits (exit 4), leaves no kubectl behind, and resumes to the end once the API answers again;
 * - the exec credential plugin starts to hang during the migration monitor (as a browser login that
 *   waits for a person): the same, and no plugin or helper process is left in the process table;
 * - a hung plugin in each command (plan, diff, verify, start): each ends within the process limit
 *   plus the kill grace, exit 4, nothing left behind.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HUNG_PLUGIN, pluginKubeconfig, runbookWithSettings } from './support/hostile.js';
import { deployedTargetParams, isStopped, processesWith, runTool, serveLab, spawnTool, STACK_TRACE, tempDir, waitFor, type ServedLab, type ToolProcess } from './support/processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, keyEnv, loadSession, resumeArgs } from './support/upgrade.js';

const REQUEST_TIMEOUT_S = 2;
const PROCESS_TIMEOUT_S = 5;
const STARTUP_SLACK_MS = 15_000;

const shortLimitsRunbook = () => runbookWithSettings({ kubectlRequestTimeout: `${REQUEST_TIMEOUT_S}s`, kubectlProcessTimeout: `${PROCESS_TIMEOUT_S}s`, concurrency: 6 });

let lab: ServedLab;
let tool: ToolProcess | undefined;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterEach(async () => {
  tool?.proc.kill('SIGKILL');
  tool = undefined;
  await lab.call('POST', '/_lab/kube-hung', { on: false });
});
afterAll(async () => {
  await lab?.stop();
});

describe('a Kubernetes API that stops answering mid-upgrade', () => {
  it('hung in the middle of the migration monitor: the run stops within the limits (exit 4), then resumes to the end', async () => {
    const runbook = shortLimitsRunbook();
    const stateDir = tempDir('hung-state');
    const report = join(tempDir('hung-report'), 'stop.json');
    const args = ['start', '--params', lab.json.params, '--runbook', runbook, '--non-interactive', '--approve', 'draft,publish,cancel-migrations', '--approve-all-restarts', '--state-dir', stateDir];
    tool = spawnTool(args, { env: keyEnv(lab), crash: { targets: ['step.started|hop1.migrations|'], mode: 'stop', report }, timeoutMs: 150_000 });
    await waitFor('the run to reach the migration monitor', () => existsSync(report) && isStopped(tool!.pid));
    await lab.call('POST', '/_lab/kube-hung', { on: true });
    const continued = Date.now();
    tool.proc.kill('SIGCONT');
    const r = await tool.done;
    const afterHang = Date.now() - continued;

    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(new RegExp(`^error: The cluster did not answer in time \\(${REQUEST_TIMEOUT_S}s\\) while trying to .+\\.$`, 'm'));
    expect(r.stderr).toMatch(/the session is saved: upgrade-pilot resume \S+/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(afterHang).toBeLessThan(6 * PROCESS_TIMEOUT_S * 1000);
    await waitFor('no kubectl left behind', () => processesWith(lab.json.kubeconfig).length === 0, 15_000);
    const id = /upgrade-pilot resume (\S+)/.exec(r.stderr)![1]!;
    expect(loadSession(stateDir, id).run).toMatchObject({ status: 'failed', error: { code: 'kube.timeout' } });

    await lab.call('POST', '/_lab/kube-hung', { on: false });
    tool = spawnTool(resumeArgs(stateDir, id), { env: keyEnv(lab), timeoutMs: 150_000 });
    const resumed = await tool.done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const applied = appliedMutations(await lab.audit());
    expect(duplicates(applied)).toEqual([]);
    expect(applied).toEqual(expectedHealthyMutations(lab));
  }, 200_000);});

describe('an exec credential plugin that starts to hang mid-upgrade', () => {
  it('the run stops within the limits (exit 4), nothing left behind; resumed once the plugin answers, it finishes', async () => {
    const other = await serveLab({ scenario: 'healthy', speed: 600 });
    try {
      const marker = `up-rel-midrun-${process.pid}`;
      const flag = join(tempDir('plugin-flag'), 'hang');
      const token = (parse(readFileSync(other.json.kubeconfig, 'utf8')) as { users: Array<{ user: { token: string } }> }).users[0]!.user.token;
      const credential = JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token } });
      // Answers with the lab's token until the flag file exists, then hangs like a browser login.
      const kubeconfig = pluginKubeconfig(other, 'midrun', `if [ -f '${flag}' ]; then\n${HUNG_PLUGIN(marker)}\nfi\nprintf '%s' '${credential}'`);
      const runbook = shortLimitsRunbook();
      const params = join(tempDir('midrun-params'), 'params.yaml');
      writeFileSync(params, readFileSync(other.json.params, 'utf8').replace(/^( {2}kubeconfig: ).*$/m, `$1${kubeconfig}`));
      const stateDir = tempDir('midrun-state');
      const report = join(tempDir('midrun-report'), 'stop.json');
      const args = ['start', '--params', params, '--runbook', runbook, '--non-interactive', '--approve', 'draft,publish,cancel-migrations', '--approve-all-restarts', '--state-dir', stateDir];
      tool = spawnTool(args, { env: keyEnv(other), crash: { targets: ['step.started|hop1.migrations|'], mode: 'stop', report }, timeoutMs: 150_000 });
      await waitFor('the run to reach the migration monitor', () => existsSync(report) && isStopped(tool!.pid));
      writeFileSync(flag, '');
      const continued = Date.now();
      tool.proc.kill('SIGCONT');
      const r = await tool.done;
      expect(r.code, r.stderr).toBe(4);
      // The kubeconfig's credential plugin is what hangs: the message names it beside the cluster.
      expect(r.stderr).toMatch(new RegExp(`^error: The cluster did not answer in time \\(${REQUEST_TIMEOUT_S}s\\) \\(or its credential plugin \\S+midrun\\.sh did not return\\) while trying to .+\\.$`, 'm'));
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(Date.now() - continued).toBeLessThan(PROCESS_TIMEOUT_S * 1000 + 3_000 + STARTUP_SLACK_MS);
      await waitFor('no plugin, helper or kubectl left', () => processesWith(marker).length === 0 && processesWith(kubeconfig).length === 0, 15_000);
      const id = /upgrade-pilot resume (\S+)/.exec(r.stderr)![1]!;
      rmSync(flag);
      tool = spawnTool(resumeArgs(stateDir, id), { env: keyEnv(other), timeoutMs: 150_000 });
      const resumed = await tool.done;
      expect(resumed.code, resumed.stderr).toBe(0);
      const applied = appliedMutations(await other.audit());
      expect(duplicates(applied)).toEqual([]);
      expect(applied).toEqual(expectedHealthyMutations(other));
    } finally {
      await other.stop();
    }
  }, 300_000);
});

describe('a hung exec credential plugin in each command', () => {
  it.each([
    ['plan', (p: string, k: string, rb: string) => ['plan', '--params', p, '--kubeconfig', k, '--runbook', rb]],
    ['diff', (p: string, k: string, rb: string) => ['diff', '--params', p, '--kubeconfig', k, '--runbook', rb]],
    ['verify', (p: string, k: string, rb: string) => ['verify', '--params', p, '--kubeconfig', k, '--runbook', rb]],
    ['start', (p: string, k: string, rb: string) => ['start', '--params', p, '--kubeconfig', k, '--runbook', rb, '--non-interactive', '--state-dir', tempDir('hung-start')]],
  ])('%s: ends within the process limit + 3 s, exit 4, nothing left behind', async (name, argv) => {
    const marker = `up-rel-cmd-${name}-${process.pid}`;
    const kubeconfig = pluginKubeconfig(lab, `cmd-${name}`, HUNG_PLUGIN(marker));
    const r = await runTool(argv(name === 'verify' ? await deployedTargetParams(lab) : lab.json.params, kubeconfig, shortLimitsRunbook()), { env: keyEnv(lab), timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/did not answer in time/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.ms).toBeLessThan(PROCESS_TIMEOUT_S * 1000 + 3_000 + STARTUP_SLACK_MS);
    await waitFor('no plugin, helper or kubectl left', () => processesWith(marker).length === 0 && processesWith(kubeconfig).length === 0, 15_000);
    console.log(`hung plugin: ${name} ended in ${r.ms} ms (limit ${PROCESS_TIMEOUT_S} s)`);
  }, 150_000);
});
