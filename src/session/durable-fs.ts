/**
 * File writes that survive a crash at any instant: atomic replace (temp, fsync, rename, fsync the
 * folder) and fsync'ed appends. Files are 0600 and folders 0700: sessions describe production.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, writeSync, chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { EnvironmentError } from '../errors.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    const st = statSync(dir);
    if (!st.isDirectory()) throw new Error('not a folder');
    if ((st.mode & 0o777) !== DIR_MODE) chmodSync(dir, DIR_MODE);
  } catch (err) {
    throw stateDirError(dir, err);
  }
}

export function stateDirError(path: string, err: unknown): EnvironmentError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' || (err as Error).message === 'not a folder' ? 'a file is in the way' : code === 'ENOSPC' ? 'the disk is full' : (err as Error).message;
  return new EnvironmentError('state.unwritable', `Cannot use the state folder ${path}: ${why}.`, {
    hint: 'Pass a writable folder with --state-dir, or fix the permissions of this one.',
    where: path,
  });
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on folders; the rename is still atomic there.
  }
}

export function writeFileAtomic(file: string, data: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w', FILE_MODE);
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    fsyncDir(dirname(file));
  } catch (err) {
    throw stateDirError(file, err);
  }
}

export function writeAll(fd: number, data: string): void {
  const buf = Buffer.from(data, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
