/**
 * One run per session. The lock file names the holder (pid, host, start time); a lock whose process
 * is gone on this host is stale and taken over, anything else is refused with who holds it.
 */
import { openSync, closeSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { InputError } from '../errors.js';
import { FILE_MODE, writeAll } from './durable-fs.js';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

/** Whether a process with this pid runs on this host (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readBoundedText(file, { what: 'session lock', maxBytes: LIMITS.lockFile })) as Partial<LockInfo> | null;
    // Anything but a lock this tool wrote (a hand edit, a torn write) counts as no holder.
    if (!info || !Number.isInteger(info.pid) || (info.pid as number) <= 0 || typeof info.host !== 'string' || typeof info.startedAt !== 'string') return undefined;
    return { pid: info.pid as number, host: info.host.slice(0, 200), startedAt: info.startedAt.slice(0, 40) };
  } catch {
    return undefined;
  }
}

export class SessionLock {
  private constructor(
    private readonly file: string,
    private readonly info: LockInfo,
  ) {}

  static acquire(file: string, sessionId: string): SessionLock {
    const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx', FILE_MODE);
        try {
          writeAll(fd, JSON.stringify(info));
        } finally {
          closeSync(fd);
        }
        return new SessionLock(file, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readLock(file);
      // An empty or unreadable lock is a crash mid-write of the lock itself: stale.
      const stale = !holder || (holder.host === info.host && (holder.pid === process.pid || !processAlive(holder.pid)));
      if (!stale) {
        throw new InputError('session.locked', `Session ${sessionId} is already running (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}).`, {
          hint: holder.host === info.host
            ? `Wait for it to finish or stop it (kill ${holder.pid}); two runs of one session could repeat an action.`
            : `It runs on another host. If that run is gone for sure, delete ${file}.`,
          where: file,
        });
      }
      try {
        unlinkSync(file);
      } catch {
        // Another process took it over first; the next attempt sees its lock.
      }
    }
    throw new InputError('session.locked', `Could not lock session ${sessionId}.`, { hint: 'Another run is starting it; try again.', where: file });
  }

  release(): void {
    const holder = readLock(this.file);
    if (holder && holder.pid === this.info.pid && holder.host === this.info.host) {
      try {
        unlinkSync(this.file);
      } catch {
        // already gone
      }
    }
  }
}
