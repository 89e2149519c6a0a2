/**
 * End to end, as an operator runs it: `capture` of a served lab, `lab --replay FILE --serve` in its
 * own process, then `rehearse` on the replay (it runs to the end, and nothing reaches the replay),
 * the real kubectl on the replay's kubeconfig (reads answered, a delete refused and audited), and
 * bad uses refused with exit 2; `start` on it stops at its first change, saying first that this
 * is a replay, read-only, and offering a rehearsal (never a resume that would be refused too).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveAll, CLI, cli, serveLab, type ServedLab } from './support.js';

interface Replay {
  dir: string;
  json: { paletteUrl: string; apiKey: string; params: string; kubeconfig: string; auditUrl: string; replay: { readOnly: boolean } };
  proc: ChildProcess;
}

async function serveReplay(file: string): Promise<Replay> {
  const dir = mkdtempSync(join(tmpdir(), 'up-e2e-replay-'));
  const proc = spawn(process.execPath, [CLI, 'lab', '--replay', file, '--serve', '--state-dir', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const started = Date.now();
  while (!existsSync(join(dir, 'lab.json'))) {
    if (proc.exitCode !== null) throw new Error(`the replay exited with ${proc.exitCode}`);
    if (Date.now() - started > 60_000) {
      proc.kill('SIGKILL');
      throw new Error('the replay did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { dir, json: JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as Replay['json'], proc };
}

let lab: ServedLab;
let replay: Replay;
let file: string;
beforeAll(async () => {
  lab = await serveLab('healthy', 60, 'spec');
  file = join(mkdtempSync(join(tmpdir(), 'up-e2e-capture-')), 'site.capture.json.gz');
  const r = await cli(['capture', '--params', lab.json.params, '--out', file], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^upgrade-pilot capture: vmo-prod-east → .*site\.capture\.json\.gz: [\d.]+ KiB \([\d.]+ MiB uncompressed\), read in \S+$/m);
  expect(r.stdout).toMatch(/Replay it offline: upgrade-pilot lab --replay .* --serve --state-dir DIR/);
  replay = await serveReplay(file);
}, 120_000);
afterAll(async () => {
  replay?.proc.kill('SIGTERM');
  await lab?.stop();
});

const audit = async () => (await (await fetch(replay.json.auditUrl, { headers: { ApiKey: replay.json.apiKey } })).json()) as Array<{ api: string; method: string; effect: string }>;

describe('a replay served by the CLI', () => {
  it('rehearse runs to the end on it and nothing reaches it; kubectl reads it and cannot change it', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-replay-state-'));
    const r = await cli(['rehearse', '--params', replay.json.params, '--state-dir', state, ...approveAll], { UPGRADE_PILOT_API_KEY: replay.json.apiKey });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/done \(rehearsal: nothing was sent\)/);
    expect(await audit()).toEqual([]);

    const kubectl = (...args: string[]) => execFileSync('kubectl', ['--kubeconfig', replay.json.kubeconfig, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(kubectl('get', 'vmi', '-A', '--no-headers').trim().split('\n').length).toBeGreaterThan(3);
    let refused = '';
    try {
      kubectl('delete', 'vm', '-n', 'ns-packs', 'build-cache-01');
    } catch (err) {
      refused = String((err as { stderr?: string }).stderr);
    }
    expect(refused).toMatch(/Error from server \(Forbidden\).*upgrade-pilot-replay \(a frozen capture: read-only\)/);
    expect(kubectl('get', 'vm', '-n', 'ns-packs', 'build-cache-01', '-o', 'name').trim()).toBe('virtualmachine.kubevirt.io/build-cache-01');
    expect((await audit()).map((a) => `${a.api} ${a.method} ${a.effect}`)).toEqual(['kube DELETE rejected']);
  }, 180_000);

  it('start on it stops at its first change (exit 4, nothing changed), saying first that this is a replay, read-only, and offering a rehearsal, never a resume', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-replay-start-'));
    const before = (await audit()).length;
    const r = await cli(['start', '--params', replay.json.params, '--state-dir', state, ...approveAll, '--approve', 'health'], { UPGRADE_PILOT_API_KEY: replay.json.apiKey });
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: This is a replay of a capture: read-only\. \S+ \S+ was refused/m);
    expect(r.stderr).toMatch(/what to do: A replay takes no changes, so a resume would be refused the same way\. .*upgrade-pilot rehearse --params/);
    expect(r.stderr).not.toMatch(/palette\.baseUrl/);
    expect(r.stderr).not.toMatch(/upgrade-pilot resume/);
    // Refused and audited; nothing applied.
    const refused = (await audit()).slice(before);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => a.effect === 'rejected')).toBe(true);
  }, 180_000);

  it.each([
    ['a scenario with a replay', (f: string) => ['lab', '--replay', f, '--scenario', 'healthy', '--serve'], /--scenario does not apply to --replay/],
    ['a damaged capture', (f: string) => ['lab', '--replay', `${f}.damaged`, '--serve'], /cannot be replayed: its gzip data is damaged or cut short/],
  ])('%s: exit 2', async (_what, argv, message) => {
    writeFileSync(`${file}.damaged`, readFileSync(file).subarray(0, 100));
    const r = await cli(argv(file));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
