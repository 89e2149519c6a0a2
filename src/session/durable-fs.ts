/**
 * File writes that survive a crash at any instant: atomic replace (temp, fsync, rename, fsync the
 * folder) and fsync'ed appends. Files are 0600 and folders 0700: sessions describe production.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, statfsSync, writeSync, chmodSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EnvironmentError, InputError } from '../errors.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/**
 * File systems that only look like folders (Linux statfs magic numbers): the kernel's views of
 * processes, devices and settings. They cannot hold a session, and Node's recursive mkdir spins
 * forever on some of them (/proc answers ENOENT for every level it tries to create).
 */
const PSEUDO_FILE_SYSTEMS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x73636673: 'securityfs',
  0xcafe4a11: 'bpf',
  0x6165676c: 'pstore',
  0x62656570: 'configfs',
  0xde5e81e4: 'efivarfs',
  0x1cd1: 'devpts',
  0x19800202: 'mqueue',
  0x65735543: 'fusectl',
  0x42494e4d: 'binfmt_misc',
  0x6e736673: 'nsfs',
  0xf97cff8c: 'selinuxfs',
};

/** The deepest part of `dir` that exists (the folder itself when it does). */
function existingAncestor(dir: string): string {
  let cur = resolve(dir);
  for (;;) {
    try {
      statSync(cur);
      return cur;
    } catch {
      const up = dirname(cur);
      if (up === cur) return cur;
      cur = up;
    }
  }
}

/**
 * Refuses at once (exit 2) a state folder on a file system that cannot hold files (/proc, /sys, ...),
 * before anything tries to create folders there.
 */
export function assertCanHoldFiles(dir: string, what = 'sessions'): void {
  const path = resolve(dir);
  const at = existingAncestor(path);
  let kind: string | undefined;
  if (process.platform === 'linux') {
    try {
      kind = PSEUDO_FILE_SYSTEMS[statfsSync(at).type];
    } catch {
      // statfs unavailable: the path check below still catches the usual cases
    }
    kind ??= /^\/(proc|sys)(\/|$)/.exec(path)?.[1];
  }
  if (kind) {
    throw new InputError('state.pseudo-fs', `Cannot keep ${what} in ${path}: it is on ${kind}, a kernel file system that cannot hold files.`, {
      hint: `Pass a folder on a real disk with --state-dir${what === 'sessions' ? ' (the default is ~/.local/state/upgrade-pilot)' : ''}.`,
      where: path,
    });
  }
}

/** mkdir -p, one level at a time: a level that cannot be created fails at once instead of looping. */
function makeDirs(dir: string): void {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let cur = path; ; cur = dirname(cur)) {
    try {
      statSync(cur);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (dirname(cur) === cur) break;
      missing.unshift(cur);
    }
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: DIR_MODE });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export function ensurePrivateDir(dir: string): void {
  assertCanHoldFiles(dir);
  try {
    makeDirs(dir);
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

/**
 * `durable: false` for a file that is only a cache of another (a session's snapshot of its journal):
 * still atomic (a reader sees the old file or the new, whole), but not flushed to disk, so a write
 * costs no fsync; after a power loss it may be missing or empty, and its reader rebuilds it.
 */
export function writeFileAtomic(file: string, data: string, opts: { durable?: boolean } = {}): void {
  const durable = opts.durable ?? true;
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w', FILE_MODE);
    try {
      writeAll(fd, data);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    if (durable) fsyncDir(dirname(file));
  } catch (err) {
    throw stateDirError(file, err);
  }
}

/**
 * Writes the whole text. The string goes to the write as it is: Node encodes it in memory it frees at
 * once, where a Buffer of it would stay on the garbage-collected heap's books until the next full
 * collection (a fleet of twenty sessions writing their snapshots, journals and reports made tens of
 * megabytes of such Buffers between two collections). A short write (a full disk) goes on from the
 * byte it reached.
 */
export function writeAll(fd: number, data: string): void {
  const written = writeSync(fd, data);
  const total = Buffer.byteLength(data, 'utf8');
  if (written >= total) return;
  const buf = Buffer.from(data, 'utf8');
  let off = written;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
