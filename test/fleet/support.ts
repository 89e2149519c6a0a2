/** A served fleet lab (what `lab --serve --fleet N` serves), for the fleet's end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetLab, type FleetFaultKind } from '../../src/lab/fleet/index.js';
import { CLI } from '../e2e/support.js';

export interface FleetLabJson {
  paletteUrl: string;
  apiKey: string;
  projectUid: string;
  fleet: string;
  auditUrl: string;
  clusters: Array<{ name: string; uid: string; kubeconfig: string; fails?: string }>;
}

export interface AuditEntry {
  api: string;
  method: string;
  path: string;
  status: number;
  effect: string;
}

export interface ServedFleetLab {
  dir: string;
  json: FleetLabJson;
  audit(): Promise<AuditEntry[]>;
  control(path: string, body: unknown): Promise<Response>;
  get<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * `extra`: more `lab` options (`--fleet-variables`, `--fleet-template NAME`). The lab runs in the
 * test's process as `lab --serve --fleet` runs it (`startFleetLab`), so a file pays for no lab
 * process's start; the fleet commands under test run in processes of their own.
 */
export async function serveFleetLab(n: number, fails: string[], speed = 300, extra: string[] = []): Promise<ServedFleetLab> {
  const dir = mkdtempSync(join(tmpdir(), 'up-fleet-lab-'));
  const lab = await startFleetLab({
    clusters: n,
    stateDir: dir,
    speed,
    fails: Object.fromEntries(fails.map((f) => f.split(':') as [string, FleetFaultKind])),
    templateManaged: extra.flatMap((e, i) => (e === '--fleet-template' && extra[i + 1] ? [extra[i + 1]!] : [])),
    variables: extra.includes('--fleet-variables'),
  });
  return servedFleetHandle(dir, () => lab.close());
}

/** The fleet lab in `dir` as the tests reach it: its lab.json, its API with its credentials, its audit. */
function servedFleetHandle(dir: string, stop: () => Promise<void>): ServedFleetLab {
  const json = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as FleetLabJson;
  const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid, 'Content-Type': 'application/json' };
  return {
    dir,
    json,
    audit: async () => (await (await fetch(json.auditUrl, { headers })).json()) as AuditEntry[],
    get: async <T>(path: string) => (await (await fetch(`${json.paletteUrl}${path}`, { headers })).json()) as T,
    control: (path, body) => fetch(`${json.paletteUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
    stop,
  };
}

/** A fleet command running in its own process (plain mode), its output collected. */
export interface FleetProcess {
  proc: ChildProcess;
  out(): string;
  /** The exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
}

export function spawnFleet(args: string[], env: NodeJS.ProcessEnv): FleetProcess {
  const proc = spawn(process.execPath, [CLI, 'fleet', ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code, signal) => resolve(signal ? null : code)));
  return { proc, out: () => out, exited };
}

/** The fleet journal's events as they stand (read afresh). */
export function fleetEvents(stateDir: string, fleet = 'lab-fleet'): Array<Record<string, unknown> & { type: string }> {
  const file = join(stateDir, 'fleets', fleet, 'journal.ndjson');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [(JSON.parse(l) as { event: Record<string, unknown> & { type: string } }).event];
      } catch {
        return []; // a torn last line
      }
    });
}

/** A cluster's run log (its session's plain lines) as it stands. */
export function runLog(stateDir: string, cluster: string, fleet = 'lab-fleet'): string {
  const file = join(stateDir, 'fleets', fleet, 'clusters', cluster, 'run.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
