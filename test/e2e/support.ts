/**
 * End to end: the lab serving on its ports, the real CLI in its own process, the real kubectl
 * between them. The lab's audit log is the proof of what was sent. The lab runs in the test's own
 * process (it serves over real sockets as `lab --serve` does, from the same code, and writes the same
 * files) unless a test asks for `lab --serve` in a process of its own: a lab's start is mostly
 * building its packs' values, which a test worker does once for all its labs and a new process does
 * every time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLab } from '../../src/lab/index.js';
import type { ScenarioName } from '../../src/lab/world/scenarios/index.js';
import { labInOwnProcess } from '../support/lab-process.js';

export const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

export interface ServedLab {
  dir: string;
  json: { paletteUrl: string; apiKey: string; projectUid: string; clusterUid: string; params: string; paramsWithReferences: string; kubeconfig: string; profileUids: { addon: string; infra: string } };
  api(path: string, init?: RequestInit): Promise<Response>;
  audit(): Promise<Array<{ api: string; method: string; path: string; status: number; effect: string; note?: string }>>;
  stop(): Promise<void>;
}

/**
 * `serverPath`: the lab's Kubernetes API only under that path, as behind a gateway (`lab --server-path`).
 * `ownProcess`: `upgrade-pilot lab --serve` in a process of its own (the bundled command itself).
 */
export async function serveLab(scenario: string, speed = 300, flavor: 'spec' | 'palette' = 'spec', serverPath?: string, ownProcess = false): Promise<ServedLab> {
  const dir = mkdtempSync(join(tmpdir(), `up-e2e-${scenario}-`));
  if (!ownProcess) {
    const lab = await startLab({ scenario: scenario as ScenarioName, stateDir: dir, speed, flavor, ...(serverPath ? { serverPath } : {}) });
    return servedHandle(dir, () => lab.close());
  }
  const args = [CLI, 'lab', '--serve', '--scenario', scenario, '--state-dir', dir, '--speed', String(speed), '--flavor', flavor, ...(serverPath ? ['--server-path', serverPath] : [])];
  return servedHandle(dir, await labInOwnProcess(args, dir, 'the lab', 60_000));
}

/** The lab in `dir` as the tests reach it: its lab.json, its API with its credentials, its audit. */
function servedHandle(dir: string, stop: () => Promise<void>): ServedLab {
  const json = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as ServedLab['json'];
  const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid, 'Content-Type': 'application/json' };
  const api = (path: string, init: RequestInit = {}) => fetch(`${json.paletteUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  return { dir, json, api, audit: async () => (await (await api('/_lab/audit')).json()) as Awaited<ReturnType<ServedLab['audit']>>, stop };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`upgrade-pilot ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** The session folder of the latest session in a state dir. */
export function latestSession(stateDir: string): string {
  const sessions = join(stateDir, 'sessions');
  const { readdirSync } = require('node:fs') as typeof import('node:fs');
  const ids = readdirSync(sessions).sort();
  return join(sessions, ids[ids.length - 1]!);
}

export const approveAll = ['--approve', 'draft,publish,apply,cancel-migrations', '--approve-all-restarts'];
