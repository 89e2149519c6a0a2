/**
 * The one way upgrade-pilot reads a file it did not write itself (params, runbooks, keys,
 * kubeconfigs, values) and its own session files: opened without blocking (a FIFO does not hang
 * the open), checked on the opened descriptor to be a regular file (a FIFO, a device such as
 * /dev/zero, a socket or a folder is refused, links included: fstat sees what the link led to),
 * and read up to a size limit (a bigger file is refused, never read whole). Errors name the file,
 * what it was for and the limit; they never quote its content.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { InputError } from '../errors.js';
import { formatBytes, LIMITS } from './limits.js';

export type FileProblem = 'missing' | 'denied' | 'not-a-file' | 'too-large' | 'unreadable';

/** A file that cannot be used; `reason` is the short why (`it does not exist`), for callers that word their own message. */
export class FileReadError extends InputError {
  constructor(
    readonly problem: FileProblem,
    readonly reason: string,
    message: string,
    opts: { hint: string; where: string },
  ) {
    super(problem === 'too-large' ? 'input.too-large' : problem === 'not-a-file' ? 'input.not-a-file' : 'input.unreadable', message, opts);
  }
}

export interface BoundedReadOptions {
  /** What the file is for, as the message names it: `params file`, `API key file`. */
  what: string;
  maxBytes: number;
  /** What to do about a file over the limit (default: pass a smaller one). */
  tooLargeHint?: string;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function errnoReason(err: unknown): { problem: FileProblem; reason: string } {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: 'missing', reason: 'it does not exist' };
  if (code === 'EACCES' || code === 'EPERM') return { problem: 'denied', reason: 'permission denied' };
  if (code === 'ELOOP') return { problem: 'unreadable', reason: 'it is a loop of symbolic links' };
  if (code === 'EISDIR') return { problem: 'not-a-file', reason: 'it is a folder' };
  if (code === 'ENXIO') return { problem: 'not-a-file', reason: 'it is a socket or a device without a reader' };
  return { problem: 'unreadable', reason: code ?? (err instanceof Error ? err.message : String(err)) };
}

const article = (what: string) => (/^[aeiou]/i.test(what) ? 'an' : 'a');

/** Reads a regular file of at most `maxBytes`; throws FileReadError (exit 2) otherwise. */
export function readBoundedFile(path: string, opts: BoundedReadOptions): Buffer {
  // "runbook" reads better as "runbook file" in the hints.
  const noun = /\bfile$/.test(opts.what) ? opts.what : `${opts.what} file`;
  const fail = (problem: FileProblem, reason: string): FileReadError => {
    const hint =
      problem === 'too-large'
        ? (opts.tooLargeHint ?? `Pass the right file: ${article(noun)} ${noun} is far smaller than that.`)
        : problem === 'not-a-file'
          ? `Pass ${article(noun)} ${noun} that is a regular file (not a pipe, a device or a folder).`
          : `Pass an existing, readable ${noun}.`;
    return new FileReadError(problem, reason, `Cannot read the ${opts.what} ${path}: ${reason}.`, { hint, where: path });
  };
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const { problem, reason } = errnoReason(err);
    throw fail(problem, reason);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw fail('not-a-file', `it is ${kindOf(st)}, not a regular file`);
    const tooLarge = (size: string) => fail('too-large', `it is ${size}, over the ${formatBytes(opts.maxBytes)} limit for ${article(opts.what)} ${opts.what}`);
    if (st.size > opts.maxBytes) throw tooLarge(formatBytes(st.size));
    // Files under /proc report size 0 and a file can grow while it is read: read until the end, bounded.
    let buf = Buffer.allocUnsafe(Math.min(opts.maxBytes + 1, Math.max(st.size + 1, 64 * 1024)));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(opts.maxBytes + 1, buf.length * 2));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, buf, total, buf.length - total, null);
      } catch (err) {
        const { problem, reason } = errnoReason(err);
        throw fail(problem, reason);
      }
      if (n === 0) break;
      total += n;
      if (total > opts.maxBytes) throw tooLarge(`more than ${formatBytes(opts.maxBytes)}`);
    }
    return buf.subarray(0, total);
  } finally {
    closeSync(fd);
  }
}

/** `readBoundedFile` as UTF-8 text. */
export function readBoundedText(path: string, opts: BoundedReadOptions): string {
  return readBoundedFile(path, opts).toString('utf8');
}

/** A pack's default values file from `valuesDir`. */
export function readValuesFile(path: string): string {
  return readBoundedText(path, { what: 'values file', maxBytes: LIMITS.valuesFile, tooLargeHint: `Pack values are well under ${formatBytes(LIMITS.valuesFile)}; check valuesDir in the params file holds the pack's values.yaml files.` });
}
