/**
 * The fleet at scale (issue 28): a served fleet lab of N clusters with small worlds, every cluster
 * in one stage at `maxConcurrency` C, `fleet start` in plain mode with every gate approved. Measured
 * from outside the coordinator: its peak resident memory and heap (heap-hook.ts), the kubectl
 * processes alive at once under it (/proc sampled every 50 ms), the Palette requests per second per
 * rate class as the lab saw them (`/_lab/request-rate`: the most within any one second, against the
 * documented limit), and each cluster's time next to a one-cluster fleet's, as ratios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { rssOf } from './lab-process.js';

export interface FleetBenchResult {
  clusters: number;
  concurrency: number;
  speed: number;
  labStartMs: number;
  labRssKb: number | undefined;
  wallMs: number;
  exitCode: number | null;
  /** Each cluster's session, start to end (ms), by the fleet's own record. */
  perClusterMs: number[];
  /** Clusters that did not end done, with what the fleet recorded for them. */
  notDone: Array<Record<string, unknown>>;
  /** The coordinator's last lines (its stage and cluster lines, and any error). */
  tail: string[];
  coordinatorMaxRssKb: number | undefined;
  coordinatorHeapPeakBytes: number | undefined;
  kubectlMax: number;
  /** Per rate class as the lab saw them arrive: requests in all, the most in any one second, the limit. */
  rate: Record<string, { requests: number; peakPerSecond: number; limit: number }>;
  /** The same as the coordinator sent them (heap-hook.ts): what its shared limiter governs. */
  sent: Record<string, { requests: number; peakPerSecond: number; limit: number }> | undefined;
}

interface FleetLabJson {
  paletteUrl: string;
  apiKey: string;
  projectUid: string;
  fleet: string;
  controlUrls: { requestRate: string };
}

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations,stage', '--approve-all-restarts'];


/** kubectl processes among `root`'s descendants now (/proc: each process's parent and name). */
export function kubectlUnder(root: number): number {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(')');
      name.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  let n = 0;
  for (const [pid, comm] of name) {
    if (comm !== 'kubectl') continue;
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        n++;
        break;
      }
    }
  }
  return n;
}

async function serveFleet(root: string, cli: string, clusters: number, speed: number): Promise<{ proc: ChildProcess; json: FleetLabJson; startMs: number }> {
  const dir = mkdtempSync(join(root, `fleet-lab-${clusters}-`));
  const started = performance.now();
  const proc = spawn(process.execPath, [cli, 'lab', '--serve', '--fleet', String(clusters), '--speed', String(speed), '--state-dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const labJson = join(dir, 'lab.json');
  while (!existsSync(labJson)) {
    if (proc.exitCode !== null) throw new Error(`the fleet lab exited with ${proc.exitCode}: ${err}`);
    if (performance.now() - started > 300_000) {
      proc.kill('SIGKILL');
      throw new Error('the fleet lab did not start in 300 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, json: JSON.parse(readFileSync(labJson, 'utf8')) as FleetLabJson, startMs: performance.now() - started };
}

export async function runFleetBenchmark(root: string, cli: string, opts: { clusters: number; concurrency: number; speed: number }): Promise<FleetBenchResult> {
  const lab = await serveFleet(root, cli, opts.clusters, opts.speed);
  const labRssKb = rssOf(lab.proc.pid!);
  try {
    // One stage of every cluster at the concurrency asked (the lab's file has a canary and two waves).
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as { clusters: Array<{ name: string }>; stages: unknown[] };
    doc.stages = [{ name: 'all', clusters: doc.clusters.map((c) => c.name), maxConcurrency: opts.concurrency, failureThreshold: 1 }];
    const fleetFile = join(root, `fleet-${opts.clusters}.yaml`);
    writeFileSync(fleetFile, stringify(doc));
    const stateDir = mkdtempSync(join(root, 'fleet-state-'));
    const heapFile = join(stateDir, 'heap');
    const env = { ...process.env, CI: '1', UPGRADE_PILOT_API_KEY: lab.json.apiKey, UP_BENCH_HEAP_FILE: heapFile, UP_BENCH_PALETTE_ORIGIN: new URL(lab.json.paletteUrl).origin };
    const hook = new URL('./heap-hook.js', import.meta.url).pathname;
    const started = performance.now();
    const coordinator = spawn(process.execPath, ['--import', hook, cli, 'fleet', 'start', '--fleet', fleetFile, '--state-dir', stateDir, ...approve], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    for (const stream of [coordinator.stdout!, coordinator.stderr!]) stream.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-20_000)));
    let kubectlMax = 0;
    const sampler = setInterval(() => (kubectlMax = Math.max(kubectlMax, kubectlUnder(coordinator.pid!))), 50);
    const exitCode = await new Promise<number | null>((resolve) => coordinator.on('close', (code) => resolve(code)));
    clearInterval(sampler);
    const wallMs = performance.now() - started;
    const hooked = existsSync(heapFile) ? (JSON.parse(readFileSync(heapFile, 'utf8')) as { maxRssKb: number; heapPeakBytes: number; sent: FleetBenchResult['sent'] }) : undefined;
    const headers = { ApiKey: lab.json.apiKey, ProjectUid: lab.json.projectUid };
    const rate = (await (await fetch(lab.json.controlUrls.requestRate, { headers })).json()) as FleetBenchResult['rate'];
    const status = spawn(process.execPath, [cli, 'fleet', 'status', '--json', '--fleet', fleetFile, '--state-dir', stateDir], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    status.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => status.on('close', resolve));
    const clusters = (JSON.parse(out) as { clusters: Array<{ startedAt?: string; endedAt?: string; status?: string; paramsFile?: string }> }).clusters;
    const notDone = clusters.filter((c) => c.status !== 'done').map(({ paramsFile: _p, ...rest }) => rest);
    const perClusterMs = clusters.filter((c) => c.startedAt && c.endedAt).map((c) => Date.parse(c.endedAt!) - Date.parse(c.startedAt!));
    return { ...opts, labStartMs: lab.startMs, labRssKb, wallMs, exitCode, perClusterMs, coordinatorMaxRssKb: hooked?.maxRssKb, coordinatorHeapPeakBytes: hooked?.heapPeakBytes, kubectlMax, rate, sent: hooked?.sent, notDone: notDone.filter((c) => c.status !== 'pending').slice(0, 20), tail: said.trim().split('\n').slice(-15) };
  } finally {
    lab.proc.kill('SIGTERM');
    await new Promise((resolve) => (lab.proc.exitCode !== null ? resolve(undefined) : lab.proc.once('exit', resolve)));
  }
}
