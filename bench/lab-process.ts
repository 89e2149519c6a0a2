/**
 * A `large` lab in its own process (`upgrade-pilot lab --serve`), as an operator would start it:
 * the benchmark's own process stays small and the lab's server runs beside the measured commands,
 * as a cluster's API server would. The start time is the wall time from spawn to "serving".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LabJson } from '../src/lab/lab-files.js';

export interface LabSizes {
  vms: number;
  nodes: number;
  pods: number;
}

export interface LabProcess {
  sizes: LabSizes;
  json: LabJson;
  stateDir: string;
  /** Spawn to "serving", ms. */
  startMs: number;
  /** The lab server's resident memory once started, KiB (from /proc). */
  rssKb: number | undefined;
  pid: number;
  stop(): Promise<void>;
}

/** Default proportions of the issue: 10 nodes and 4 pods per VM (5,000 VMs: 500 nodes, 20,000 pods). */
export const sizesFor = (vms: number): LabSizes => ({ vms, nodes: Math.max(4, Math.round(vms / 10)), pods: vms * 4 });

/** A process's resident memory in kB (/proc), undefined once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const live = new Set<number>();

/** Pids of the lab servers running now (for the load figure: their CPU time is the benchmark's). */
export const liveLabPids = (): number[] => [...live];

export async function startLabProcess(root: string, cli: string, sizes: LabSizes, timeoutMs = 120_000): Promise<LabProcess> {
  const stateDir = mkdtempSync(join(root, `lab-${sizes.vms}-`));
  const args = [cli, 'lab', '--serve', '--scenario', 'large', '--vms', String(sizes.vms), '--nodes', String(sizes.nodes), '--pods', String(sizes.pods), '--speed', '1', '--state-dir', stateDir];
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: root } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const startMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${sizes.vms}-VM lab did not start within ${timeoutMs / 1000} s:\n${stderr}`));
    }, timeoutMs);
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes(' serving ')) {
        clearTimeout(timer);
        resolve(performance.now() - started);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${sizes.vms}-VM lab exited (${code}) before serving:\n${stderr}`));
    });
  });
  const json = JSON.parse(stdout) as LabJson;
  const pid = child.pid!;
  live.add(pid);
  child.once('exit', () => live.delete(pid));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    sizes,
    json,
    stateDir,
    startMs,
    rssKb: rssOf(pid),
    pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
