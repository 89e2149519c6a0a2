/**
 * A child process that cannot outlive its limit. It runs in its own process group, so whatever it
 * starts (kubectl's exec credential plugin, a browser-login helper) is in that group too; at the
 * limit, on cancel or when its output passes the cap, the whole group gets SIGTERM, then SIGKILL
 * after a grace period. The result does not wait for pipes: once the process has exited its group
 * is ended, and a pipe still held open by something that escaped the group is let go after a short
 * drain. So every call ends within `timeoutMs + killGraceMs + drainMs`, whatever the child does.
 */
import { spawn } from 'node:child_process';
import { allowSharing } from '../net/shared-signal.js';

export interface GroupRunOptions {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  stdin?: string;
  timeoutMs: number;
  /** Most stdout bytes kept; more ends the group (`tooLarge`). */
  maxStdout: number;
  /** Most stderr bytes kept (the end of it: that is where the error is). */
  maxStderr: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** How long to wait, after the process exited, for its pipes to close. */
  drainMs?: number;
}

export interface GroupRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  canceled: boolean;
  tooLarge: boolean;
  /** The program was not found. */
  enoent: boolean;
  /** A start failure other than ENOENT (EACCES, ...). */
  spawnError?: string;
}

export const KILL_GRACE_MS = 2_000;
export const DRAIN_MS = 1_000;

/** Process groups still running, ended if this process exits first (normally or by an error). */
const live = new Set<number>();
let exitHookInstalled = false;
export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const id of live) signalGroup(id, 'SIGKILL');
  });
}

/** No longer ends the group at exit (it ended). */
export function untrackGroup(pgid: number): void {
  live.delete(pgid);
}

/** Signals a whole group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** How many process groups started here are still being watched (tests). */
export const liveGroups = (): number => live.size;

export function runInGroup(opts: GroupRunOptions): Promise<GroupRunResult> {
  const grace = opts.killGraceMs ?? KILL_GRACE_MS;
  const drain = opts.drainMs ?? DRAIN_MS;
  return new Promise((resolve) => {
    const result: GroupRunResult = { exitCode: null, signal: null, stdout: Buffer.alloc(0), stderr: '', timedOut: false, canceled: false, tooLarge: false, enoent: false };
    const child = spawn(opts.file, opts.args, {
      detached: true,
      env: opts.env,
      stdio: [opts.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) trackGroup(pgid);

    const out: Buffer[] = [];
    let outBytes = 0;
    const err: Buffer[] = [];
    let errBytes = 0;
    let ending = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exited = false;
    let done = false;
    let openPipes = 2;

    /** SIGTERM to the group now, SIGKILL after the grace period if anything of it is still there. */
    const endGroup = () => {
      if (pgid === undefined || ending) return;
      ending = true;
      if (!signalGroup(pgid, 'SIGTERM')) return;
      killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), grace);
      killTimer.unref();
    };

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(limitTimer);
      clearTimeout(drainTimer);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (pgid !== undefined) {
        // Anything the process left behind in its group goes with it (SIGKILL cannot be refused).
        signalGroup(pgid, 'SIGKILL');
        live.delete(pgid);
      }
      result.stdout = Buffer.concat(out, outBytes);
      result.stderr = Buffer.concat(err, errBytes).toString('utf8');
      resolve(result);
    };

    const limitTimer = setTimeout(() => {
      result.timedOut = true;
      endGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      result.canceled = true;
      endGroup();
    };
    allowSharing(opts.signal);
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      if (result.tooLarge) return;
      outBytes += chunk.length;
      if (outBytes > opts.maxStdout) {
        result.tooLarge = true;
        out.length = 0;
        outBytes = 0;
        endGroup();
        return;
      }
      out.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err.push(chunk);
      errBytes += chunk.length;
      // Keep the end: drop whole chunks from the front while more than the cap is held.
      while (errBytes - err[0]!.length >= opts.maxStderr) errBytes -= err.shift()!.length;
    });
    const pipeClosed = () => {
      openPipes--;
      if (openPipes === 0 && exited) finish();
    };
    child.stdout!.on('close', pipeClosed);
    child.stderr!.on('close', pipeClosed);
    if (opts.stdin !== undefined) {
      child.stdin!.on('error', () => undefined); // a child that exits without reading its input
      child.stdin!.end(opts.stdin);
    }

    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') result.enoent = true;
      else result.spawnError = e.code ?? e.message;
      exited = true;
      finish();
    });
    child.on('exit', (code, signal) => {
      result.exitCode = code;
      result.signal = signal;
      exited = true;
      if (pgid !== undefined) {
        // The process is gone; its group may not be (a plugin it started). End it, and do not wait
        // long for pipes that something outside the group may still hold.
        signalGroup(pgid, 'SIGKILL');
      }
      if (openPipes === 0) return finish();
      drainTimer = setTimeout(finish, drain);
    });
  });
}
