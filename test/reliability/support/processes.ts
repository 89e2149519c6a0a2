/**
 * The real CLI (`node dist/cli.js`) and the real lab (`lab --serve`) as separate processes, the way
 * an operator runs them: nothing shared but the files and the network. Waits are on conditions
 * (a file appears, a process stops, a process exits), each with a generous bound.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLab } from '../../../src/lab/index.js';
import type { ScenarioName } from '../../../src/lab/world/scenarios/index.js';

export const ROOT = new URL('../../..', import.meta.url).pathname;
export const CLI = join(ROOT, 'dist/cli.js');
export const CRASH_PRELOAD = new URL('./crash-preload.mjs', import.meta.url).pathname;
export const SPAWN_LOG_PRELOAD = new URL('./spawn-log.mjs', import.meta.url).pathname;
export const RSS_LOG_PRELOAD = new URL('./rss-log.mjs', import.meta.url).pathname;

/** `--approve` flags that answer every gate of the bundled runbook in plain mode. */
export const APPROVE_ALL = ['--approve', 'draft,publish,apply,repave,cancel-migrations', '--approve-all-restarts'];

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `up-rel-${prefix}-`));

/**
 * The lab's params file with what the cluster runs now as the target: `verify` then expects what
 * runs (it checks the params' target). Read from the lab, as an earlier test may have upgraded it.
 */
export async function deployedTargetParams(lab: ServedLab): Promise<string> {
  const state = await lab.call<{ deployedProfiles: Array<{ packs: Record<string, string> }> }>('GET', '/_lab/state');
  const running = state.deployedProfiles.map((p) => p.packs['virtual-machine-orchestrator']).find((t) => t !== undefined);
  if (!running) throw new Error('the lab runs no virtual-machine-orchestrator pack');
  const text = readFileSync(lab.json.params, 'utf8');
  const changed = text.replace(/^target: .*$/m, `target: ${running}`);
  if (!/^target: /m.test(text)) throw new Error('the lab params file has no target to change');
  const file = join(tempDir('deployed-target'), 'params.yaml');
  writeFileSync(file, changed);
  return file;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000, everyMs = 20): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  pid: number;
}

export interface ToolProcess {
  proc: ChildProcess;
  pid: number;
  done: Promise<ToolResult>;
  output(): { stdout: string; stderr: string };
}

export interface ToolOptions {
  env?: NodeJS.ProcessEnv;
  /** `UP_CRASH` for the crash preload (see crash-preload.mjs). */
  crash?: { targets: string[]; mode: 'after' | 'torn' | 'stop'; report: string };
  /** A file where spawn-log.mjs records every child process (program, arguments, environment). */
  spawnLog?: string;
  /** A file where rss-log.mjs appends the run's peak resident set size when it exits. */
  rssLog?: string;
  /** SIGKILL after this long and say so (a test of "nothing hangs" asserts well below it). */
  timeoutMs?: number;
  cwd?: string;
  /** Run as another user (root only; the unreadable-state-folder case runs as nobody). */
  uid?: number;
  gid?: number;
}

/** Environment of a tool run: the caller's, minus anything of ours that could leak in from outside. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UPGRADE_PILOT') && !k.startsWith('UP_') && k !== 'KUBECONFIG') env[k] = v;
  return { ...env, NO_COLOR: '1', CI: '', FORCE_COLOR: '0' };
}

export function spawnTool(args: string[], opts: ToolOptions = {}): ToolProcess {
  const started = Date.now();
  const nodeArgs = [...(opts.crash ? ['--import', CRASH_PRELOAD] : []), ...(opts.spawnLog ? ['--import', SPAWN_LOG_PRELOAD] : []), ...(opts.rssLog ? ['--import', RSS_LOG_PRELOAD] : [])];
  const env = {
    ...baseEnv(),
    ...opts.env,
    ...(opts.crash ? { UP_CRASH: JSON.stringify(opts.crash) } : {}),
    ...(opts.spawnLog ? { UP_SPAWN_LOG: opts.spawnLog } : {}),
    ...(opts.rssLog ? { UP_RSS_LOG: opts.rssLog } : {}),
  };
  const ids = opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid ?? opts.uid } : {};
  const proc = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env, cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...ids });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const done = new Promise<ToolResult>((resolve) => {
    const timer = setTimeout(() => {
      stderr += `\n[test harness: killed after ${timeoutMs} ms]`;
      proc.kill('SIGKILL');
    }, timeoutMs);
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, pid: proc.pid ?? -1 });
    });
  });
  return { proc, pid: proc.pid ?? -1, done, output: () => ({ stdout, stderr }) };
}

export const runTool = (args: string[], opts: ToolOptions = {}): Promise<ToolResult> => spawnTool(args, opts).done;

/** True once the process is in the stopped state (SIGSTOP), from /proc. */
export function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    return false;
  }
}

export interface AuditEntry {
  seq: number;
  api: 'palette' | 'kube';
  method: string;
  path: string;
  status: number;
  effect: 'applied' | 'ignored' | 'rejected' | 'dropped';
  note?: string;
}

export interface LabJson {
  paletteUrl: string;
  kubeUrl: string;
  apiKey: string;
  projectUid: string;
  clusterUid: string;
  clusterName: string;
  profileUids: { addon: string; infra: string };
  kubeconfig: string;
  params: string;
  /** The same site with reference profiles instead of the pack registry. */
  paramsWithReferences: string;
  auditUrl: string;
  target: string;
  references: Array<{ version: string; addon: string; infra: string }>;
  stateDir: string;
  /** `spec`: the spec's service; `palette`: a real Palette. */
  flavor: 'spec' | 'palette';
}

export interface ServedLab {
  dir: string;
  json: LabJson;
  /** The lab's process, when it has one of its own (`ownProcess`). */
  proc?: ChildProcess;
  /** A control or API call with the lab's credentials; throws on a non-2xx answer. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  audit(): Promise<AuditEntry[]>;
  /** Palette fault rules (`/_lab/faults`) or Kubernetes ones (`/_lab/kube-faults`). */
  faults(rules: unknown[], seed?: number, api?: 'palette' | 'kube'): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The lab serving on its ports; resolves once lab.json is written. It runs in the test's process
 * (the same code and files as `lab --serve`, without a new process building the packs' values
 * again) unless `ownProcess` asks for `upgrade-pilot lab --serve` in a process of its own.
 */
export async function serveLab(opts: { scenario?: string; speed?: number; flavor?: 'spec' | 'palette'; ownProcess?: boolean } = {}): Promise<ServedLab> {
  const dir = tempDir(`lab-${opts.scenario ?? 'healthy'}`);
  if (!opts.ownProcess) {
    const lab = await startLab({ scenario: (opts.scenario ?? 'healthy') as ScenarioName, stateDir: dir, speed: opts.speed ?? 600, flavor: opts.flavor ?? 'spec' });
    return servedHandle(dir, undefined, () => lab.close());
  }
  const args = [CLI, 'lab', '--serve', '--scenario', opts.scenario ?? 'healthy', '--state-dir', dir, '--speed', String(opts.speed ?? 600), ...(opts.flavor ? ['--flavor', opts.flavor] : [])];
  const proc = spawn(process.execPath, args, { env: baseEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const file = join(dir, 'lab.json');
  await waitFor(`the lab in ${dir} to write lab.json`, () => {
    if (proc.exitCode !== null) throw new Error(`the lab exited with ${proc.exitCode}: ${stderr}`);
    return existsSync(file) && /serving/.test(stderr);
  });
  return servedHandle(dir, proc, () =>
    new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    }),
  );
}

function servedHandle(dir: string, proc: ChildProcess | undefined, stop: () => Promise<void>): ServedLab {
  const json = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as LabJson;
  const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid, 'Content-Type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${json.paletteUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await r.text();
    if (!r.ok) throw new Error(`lab ${method} ${path} answered ${r.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    dir,
    json,
    ...(proc ? { proc } : {}),
    call,
    audit: () => call<AuditEntry[]>('GET', '/_lab/audit'),
    faults: async (rules, seed, api = 'palette') => {
      await call('POST', api === 'palette' ? '/_lab/faults' : '/_lab/kube-faults', seed === undefined ? rules : { rules, seed });
    },
    stop,
  };
}

/** The ids of the sessions in a state folder, oldest first. */
export function sessionIds(stateDir: string): string[] {
  const dir = join(stateDir, 'sessions');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Every file and folder under a folder (not following links). */
export function walk(dir: string): Array<{ path: string; dir: boolean }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? [{ path, dir: true }, ...walk(path)] : [{ path, dir: false }];
  });
}

/** Raw control characters a terminal would act on (newline and tab are text). */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Processes (not zombies) whose command line contains `marker`, from the process table. */
export function processesWith(marker: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l) && !/\bps -eo\b/.test(l));
}

/** No stack trace: no `    at fn (file:line)` frames, no Node internals. */
export const STACK_TRACE = /^\s+at .+(\(|:\d+:\d+)|node:internal|\.(ts|js):\d+:\d+\)?$/m;
