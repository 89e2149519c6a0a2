/**
 * The exit-code table (README) end to end: the bundled CLI against labs served in their own
 * processes, through the real kubectl. Plain mode (no TTY): 0 a rehearsal done, 1 verification
 * red, 2 a kubeconfig named that is not there, 3 the health gate without its approval, 4 a key the
 * API refuses, 130 SIGINT while the run waits on the cluster. In a real terminal (tmux): "Not now"
 * at the health gate and "Stop here" at the customizations review are stops the operator chose
 * (exit 3, status stopped, the report saying what was declined), a served lab wears the LAB badge,
 * and quitting on the in-process lab never offers the resume that could not work.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveAll, CLI, cli, latestSession, serveLab, type ServedLab } from './support.js';
import { flat, openTerminal, type Terminal } from './terminal.js';

interface ReportJson {
  outcome: { status: string; reason?: string; hint?: string };
  decisions: Array<{ gate: string; choice: string; by: string; key?: string; stopped?: string }>;
  stops: Array<{ status: string; gate?: string }>;
}
const report = (state: string) => JSON.parse(readFileSync(join(latestSession(state), 'report.json'), 'utf8')) as ReportJson;
const journalStatus = (state: string) => {
  const lines = readFileSync(join(latestSession(state), 'journal.ndjson'), 'utf8').trim().split('\n');
  const stop = lines.map((l) => (JSON.parse(l) as { event: { type: string; status?: string } }).event).filter((e) => e.type === 'session.stopped' || e.type === 'session.done').at(-1);
  return stop?.type === 'session.done' ? 'done' : stop?.status;
};
const newState = () => mkdtempSync(join(tmpdir(), 'up-e2e-exit-'));

let healthy: ServedLab;
let degraded: ServedLab;
beforeAll(async () => {
  [healthy, degraded] = await Promise.all([serveLab('healthy', 300, 'spec'), serveLab('degraded', 300, 'palette')]);
}, 120_000);
afterAll(async () => {
  await Promise.all([healthy?.stop(), degraded?.stop()]);
});

describe('exit codes in plain mode (the bundled CLI, no TTY)', () => {
  it('0: a rehearsal runs to the end', async () => {
    const state = newState();
    const r = await cli(['rehearse', '--params', healthy.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: healthy.json.apiKey });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(journalStatus(state)).toBe('done');
  }, 180_000);

  it('1: verification is red (the unhealthy cluster)', async () => {
    const r = await cli(['verify', '--params', degraded.json.params], { UPGRADE_PILOT_API_KEY: degraded.json.apiKey });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
  }, 120_000);

  it('2: a kubeconfig named that is not there is bad input: said, and no session is made', async () => {
    const state = newState();
    const r = await cli(['start', '--params', healthy.json.params, '--kubeconfig', join(state, 'nope.kubeconfig'), '--state-dir', state], { UPGRADE_PILOT_API_KEY: healthy.json.apiKey });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: The kubeconfig \S+nope\.kubeconfig named by --kubeconfig does not exist\.$/m);
    expect(existsSync(join(state, 'sessions'))).toBe(false);
  }, 60_000);

  it('3: the health gate without its approval: what to fix first, then how to go on knowingly', async () => {
    const state = newState();
    const r = await cli(['start', '--params', degraded.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: degraded.json.apiKey });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(journalStatus(state)).toBe('awaitingApproval');
    const hint = r.stderr.slice(r.stderr.indexOf('what to do:'));
    expect(hint).toMatch(/^what to do: Fix what the red checks say \(Nodes, Storage cluster, Pods where the upgrade works, Load-balancer addresses\), then start again\./);
    expect(hint.indexOf('Fix what the red checks say')).toBeLessThan(hint.indexOf('--approve health'));
    expect(hint).toMatch(/Having read them, to go on knowingly, run: upgrade-pilot resume \S+ --state-dir \S+ --approve health/);
    // The gate's own text: its numbers agree (five problems in four red checks), no `?.`.
    expect(r.stdout).toMatch(/Preflight found 5 problem\(s\) in 4 red check\(s\) on vmo-prod-east/);
    expect(r.stdout + r.stderr).not.toMatch(/\?\./);
  }, 120_000);

  it('4: a key the API refuses', async () => {
    const state = newState();
    const r = await cli(['start', '--params', healthy.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: 'not-the-key' });
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stderr).toMatch(/401/);
  }, 120_000);

  it('130: SIGINT while the run waits on the cluster, the session saved as interrupted', async () => {
    const state = newState();
    const proc = spawn(process.execPath, [CLI, 'start', '--params', healthy.json.params, '--state-dir', state, ...approveAll], { env: { ...process.env, CI: '1', UPGRADE_PILOT_API_KEY: healthy.json.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const waiting = new Promise<void>((resolve) =>
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        // The reconcile wait: the cluster is taking the hop, nothing is being sent.
        if (/▶ Hop 1\/2 · Wait for the cluster/.test(out) || /▶ Hop 1\/2 · Watch live migrations/.test(out)) resolve();
      }),
    );
    await waiting;
    proc.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
    expect(code, out + err).toBe(130);
    expect(journalStatus(state)).toBe('interrupted');
    expect(err).toMatch(/the session is saved: upgrade-pilot resume/);
  }, 180_000);
});

describe('exit codes in a real terminal (tmux)', () => {
  let term: Terminal | undefined;
  afterAll(() => term?.close());

  it.each([
    [80, 24],
    [120, 40],
  ])('3: "Not now" at the health gate, on a served lab (the LAB badge) at %ix%i: status stopped, the report says what was declined', async (columns, rows) => {
    const state = newState();
    term = openTerminal(['start', '--params', degraded.json.params, '--state-dir', state], { columns, rows }, { UPGRADE_PILOT_API_KEY: degraded.json.apiKey });
    const gate = await term.waitFor('upgrade it anyway?');
    expect(gate.split('\n')[0]).toMatch(/ LAB +session /); // a served lab: changes reach the lab only
    expect(gate).not.toMatch(/\bLIVE\b/);
    await term.waitFor(/\[n\] Not now/);
    // Once the gate takes keys: a key inside its guard time would be dropped, by design.
    await term.armed();
    term.send('n');
    const stopped = await term.waitFor('STOPPED');
    expect(flat(stopped)).toMatch(/the upgrade of vmo-prod-east while it is not healthy was declined/);
    term.send('q');
    expect(await term.exitCode()).toBe(3);
    term.close();
    expect(journalStatus(state)).toBe('stopped');
    const r = report(state);
    expect(r.outcome.status).toBe('stopped');
    expect(r.stops.at(-1)).toMatchObject({ status: 'stopped', gate: 'health' });
    expect(r.decisions).toEqual([expect.objectContaining({ gate: 'health', choice: 'decline', by: 'key', key: 'n', stopped: expect.stringMatching(/not healthy was declined/) })]);
    const md = readFileSync(join(latestSession(state), 'report.md'), 'utf8');
    expect(md).toMatch(/decline at the health gate \(vmo-prod-east is not healthy: upgrade it anyway\?\) stopped the run: Stopped before any change/);
    expect(md).not.toMatch(/\?\./);
  }, 180_000);

  it('3: "Stop here" at the customizations review: status stopped, nothing written', async () => {
    const state = newState();
    const sentBefore = (await healthy.audit()).filter((e) => e.method !== 'GET').length;
    term = openTerminal(['start', '--params', healthy.json.params, '--state-dir', state], { columns: 120, rows: 40 }, { UPGRADE_PILOT_API_KEY: healthy.json.apiKey });
    await term.waitFor('s stop here', 120_000);
    await term.armed();
    term.send('s');
    await term.waitFor('STOPPED');
    term.send('q');
    expect(await term.exitCode()).toBe(3);
    term.close();
    expect(journalStatus(state)).toBe('stopped');
    expect(report(state).decisions.at(-1)).toMatchObject({ gate: 'customize', choice: 'abort', stopped: expect.stringMatching(/customization review/) });
    expect((await healthy.audit()).filter((e) => e.method !== 'GET')).toHaveLength(sentBefore);
  }, 180_000);

  it('3: quitting at a gate on the in-process lab: the report says the lab ended and offers no resume', async () => {
    const state = newState();
    term = openTerminal(['lab', '--scenario', 'degraded', '--speed', '300', '--state-dir', state], { columns: 120, rows: 40 });
    await term.waitFor('Enter: close this guide and go on');
    term.send('Enter');
    await term.waitFor('upgrade it anyway?', 120_000);
    await term.armed();
    term.send('q');
    await term.waitFor('Quit upgrade-pilot?');
    term.send('y');
    expect(await term.exitCode()).toBe(3);
    const after = term.screen();
    term.close();
    expect(after).not.toMatch(/continue with:|upgrade-pilot resume/);
    const r = report(state);
    expect(r.outcome.status).toBe('awaitingApproval');
    expect(r.outcome.hint).toMatch(/^Fix what the red checks say .*then start again\.\nThis lab runs inside this process and ends with it, so this session cannot be resumed/);
    expect(r.outcome.hint).not.toMatch(/upgrade-pilot resume|--approve health/);
  }, 180_000);
});
