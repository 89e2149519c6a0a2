/**
 * Credentials that expire mid-run (`npm run test:faults`; in `npm test` a refused token is in the
 * bad-input sample): the run is frozen (SIGSTOP, by the crash preload) right after it
 * journals the start of the migration monitor, the lab's Kubernetes token expires, the run goes on.
 * It must stop with the fresh-access-file advice and exit 4, the session saved; with a new token
 * (the lab rewrites the kubeconfig), `resume` finishes, nothing applied twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isStopped, serveLab, spawnTool, STACK_TRACE, tempDir, waitFor, type ServedLab, type ToolProcess } from './support/processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, keyEnv, loadSession, resumeArgs, startArgs } from './support/upgrade.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let lab: ServedLab;
let tool: ToolProcess | undefined;
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterEach(() => {
  tool?.proc.kill('SIGKILL');
  tool = undefined;
});
afterAll(async () => {
  await lab?.stop();
});

describe('credentials expire in the middle of the migration monitor', () => {
  it('stops with the fresh-access-file message and exit 4, session saved; after a new token, resume finishes', async () => {
    const stateDir = tempDir('cred');
    const report = join(tempDir('cred-report'), 'stop.json');
    tool = spawnTool(startArgs(lab, stateDir), { env: keyEnv(lab), crash: { targets: ['step.started|hop1.migrations|'], mode: 'stop', report } });
    await waitFor('the run to reach the migration monitor', () => existsSync(report) && isStopped(tool!.pid));
    await lab.call('POST', '/_lab/token', { action: 'expire' });
    tool.proc.kill('SIGCONT');
    const r = await tool.done;

    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(new RegExp(`^error: The cluster refused the credentials while trying to .+: the cluster access file ${esc(lab.json.kubeconfig)} has expired or is not valid\\.$`, 'm'));
    expect(r.stderr).toMatch(/what to do: Obtain a fresh cluster access file \(kubeconfig\) from Palette, pass it with --kubeconfig \(or update the params file\), then resume: the session is saved\./);
    expect(r.stderr).toMatch(/the session is saved: upgrade-pilot resume \S+/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ signature: 'step.started|hop1.migrations|', mode: 'stop' });
    const id = /resume (\S+)/.exec(r.stderr)![1]!;
    const saved = loadSession(stateDir, id);
    expect(saved.run.status).toBe('failed');
    expect(saved.run.error?.code).toBe('kube.credentials');
    // It stopped in the monitor, after hop 1's publishes and before anything of hop 2.
    expect(appliedMutations(await lab.audit())).toEqual(expectedHealthyMutations(lab).slice(0, 4));

    await lab.call('POST', '/_lab/token', { action: 'renew' });
    tool = spawnTool(resumeArgs(stateDir, id), { env: keyEnv(lab) });
    const resumed = await tool.done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(loadSession(stateDir, id).run.status).toBe('done');
    const applied = appliedMutations(await lab.audit());
    expect(duplicates(applied)).toEqual([]);
    expect(applied).toEqual(expectedHealthyMutations(lab));
  }, 180_000);
});
