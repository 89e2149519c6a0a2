/**
 * Timing and peak memory of a child process. Peak resident memory comes from GNU time (`%M`: the
 * largest process of the tree, children included once they are waited for) when /usr/bin/time
 * exists; wall time is measured here. A node child can also report its own peak (`ownRss`), through
 * the exit hook in rss-hook.ts, so "the node process" is told apart from the kubectl it starts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RSS_FILE_ENV } from './rss-hook.js';

export interface Measured {
  wallMs: number;
  /** Peak RSS in KiB of the largest process of the tree, when GNU time is available. */
  peakKb?: number;
  /** Peak RSS in KiB of the node process itself (only with `ownRss` and the hook loaded). */
  ownPeakKb?: number;
  code: number;
  stdout: string;
  stderr: string;
}

export interface MeasureOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
  /** Ask a node child (started with `--import` of the hook) for its own peak RSS. */
  ownRss?: boolean;
  /** Kill the child after this long (a benchmark must never hang the run). */
  timeoutMs?: number;
  /** Start time matters more than memory: run the command itself, not under GNU time. */
  noPeak?: boolean;
}

const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
export const hasGnuTime = gnuTime !== undefined;

export function measure(cmd: string, args: string[], opts: MeasureOptions = {}): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'up-bench-'));
  const timeFile = join(dir, 'time');
  const rssFile = join(dir, 'rss');
  const timed = gnuTime && !opts.noPeak;
  const [file, argv] = timed ? [gnuTime, ['-f', '%M', '-o', timeFile, cmd, ...args]] : [cmd, args];
  const env = { ...process.env, ...opts.env, ...(opts.ownRss ? { [RSS_FILE_ENV]: rssFile } : {}) };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, argv, { env, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (timer) clearTimeout(timer);
      const readKb = (f: string) => {
        if (!existsSync(f)) return undefined;
        const n = Number(readFileSync(f, 'utf8').trim().split('\n').pop());
        return Number.isNaN(n) || n <= 0 ? undefined : n;
      };
      const peakKb = timed ? readKb(timeFile) : undefined;
      const ownPeakKb = opts.ownRss ? readKb(rssFile) : undefined;
      rmSync(dir, { recursive: true, force: true });
      resolve({
        wallMs,
        ...(peakKb !== undefined ? { peakKb } : {}),
        ...(ownPeakKb !== undefined ? { ownPeakKb } : {}),
        code: code ?? -1,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs `fn` `n` times (after `warmup` unmeasured runs), returning each result. */
export async function repeat<T>(n: number, fn: () => Promise<T>, warmup = 1): Promise<T[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}
