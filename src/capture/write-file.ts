/**
 * The capture file is written whole or not at all: checked before anything is read (a file already
 * there is never replaced; the folder must exist), then written to a private temporary file beside
 * it (0600: it describes production), synced, and linked into place (which fails rather than
 * replace a file that appeared meanwhile). A failure removes the temporary file: no partial capture.
 */
import { closeSync, fchmodSync, fsyncSync, linkSync, lstatSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EnvironmentError, InputError } from '../errors.js';
import { assertCanHoldFiles } from '../session/durable-fs.js';

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Refuses, before any read, an --out that cannot be written or would replace a file. */
export function checkCaptureTarget(path: string): void {
  const dir = dirname(path);
  assertCanHoldFiles(dir, 'the capture');
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new InputError('capture.out-folder', `Cannot write the capture ${path}: the folder ${dir} does not exist.`, { hint: 'Create the folder first, or pass --out in an existing one.', where: path });
  }
  if (!st.isDirectory()) throw new InputError('capture.out-folder', `Cannot write the capture ${path}: ${dir} is not a folder.`, { hint: 'Pass --out FILE in an existing folder.', where: path });
  if (exists(path)) {
    throw new InputError('capture.out-exists', `${path} already exists; a capture never replaces a file.`, { hint: 'Pass another --out name, or remove the old file first.', where: path });
  }
}

export function writeCaptureFile(path: string, bytes: Buffer): void {
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    fchmodSync(fd, 0o600);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    linkSync(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && exists(path)) throw new InputError('capture.out-exists', `${path} appeared while the capture was read; it was not replaced.`, { hint: 'Pass another --out name.', where: path });
    const why = code === 'ENOSPC' ? 'the disk is full' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EDQUOT' ? 'the disk quota is exhausted' : (err as Error).message;
    throw new EnvironmentError('capture.unwritable', `Cannot write the capture ${path}: ${why}. Nothing was written.`, { hint: 'Pass --out in a folder you can write to, with room for the file.', where: path });
  } finally {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // not there: nothing to clean
    }
  }
}
