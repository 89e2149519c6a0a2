/**
 * End to end: `upgrade-pilot lab --serve` in its own process, the real CLI in another, the real
 * kubectl between them. The lab's audit log is the proof of what was sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

export interface ServedLab {
  dir: string;
  json: { paletteUrl: string; apiKey: string; projectUid: string; clusterUid: string; params: string; paramsWithReferences: string; kubeconfig: string; profileUids: { addon: string; infra: string } };
  api(path: string, init?: RequestInit): Promise<Response>;
  audit(): Promise<Array<{ api: string; method: string; path: string; status: number; effect: string; note?: string }>>;
  stop(): Promise<void>;
}

/** `serverPath`: the lab's Kubernetes API only under that path, as behind a gateway (`lab --server-path`). */
export async function serveLab(scenario: string, speed = 300, flavor: 'spec' | 'palette' = 'spec', serverPath?: string): Promise<ServedLab> {
  const dir = mkdtempSync(join(tmpdir(), `up-e2e-${scenario}-`));
  const args = [CLI, 'lab', '--serve', '--scenario', scenario, '--state-dir', dir, '--speed', String(speed), '--flavor', flavor, ...(serverPath ? ['--server-path', serverPath] : [])];
  const proc: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const labJson = join(dir, 'lab.json');
  const started = Date.now();
  while (!existsSync(labJson)) {
    if (proc.exitCode !== null) throw new Error(`the lab exited with ${proc.exitCode}`);
    if (Date.now() - started > 60_000) {
      proc.kill('SIGKILL'); // never leave a lab running behind a failed test
      throw new Error('the lab did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const json = JSON.parse(readFileSync(labJson, 'utf8')) as ServedLab['json'];
  const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid, 'Content-Type': 'application/json' };
  const api = (path: string, init: RequestInit = {}) => fetch(`${json.paletteUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  return {
    dir,
    json,
    api,
    audit: async () => (await (await api('/_lab/audit')).json()) as Awaited<ReturnType<ServedLab['audit']>>,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
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
