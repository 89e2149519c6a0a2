/**
 * The append-only journal: one JSON record per line, written before `append` returns, so the next
 * action always comes after its record (a process that dies keeps every record: they are in the
 * kernel's page cache). A crash can only tear the last line, which reading ignores and the next
 * writer truncates away.
 *
 * When the records reach the disk itself (against a power loss): `sync`, before `append` returns;
 * `barrier`, as soon as a flush on the thread pool gets to them, and before anything a record
 * announces goes out: a session awaits `durable()` before it sends a change (runner.ts), so no
 * change is ever sent whose intent could be lost. Twenty sessions of a fleet in one process do not
 * each stop it on a disk flush per record.
 */
import { closeSync, fsync, fsyncSync, openSync, ftruncateSync, existsSync, readSync } from 'node:fs';
import { InputError } from '../errors.js';
import type { SessionEvent } from '../engine/state.js';
import { readBoundedFile } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { FILE_MODE, writeAll } from './durable-fs.js';

export interface JournalRecord {
  seq: number;
  event: SessionEvent;
}

export interface JournalRead {
  records: JournalRecord[];
  /** The line of the file each record came from (1-based), for messages about a bad record. */
  lines: number[];
  /** Bytes up to the end of the last complete record. */
  validBytes: number;
  /** True when a partial last record was found (and ignored). */
  torn: boolean;
}

/** What to do about a journal that was edited or damaged (it is the record of what was done). */
export const DAMAGED_JOURNAL_HINT =
  'The journal is the record of what this session did and must not be edited. Restore journal.ndjson from a backup if there is one; otherwise start a new session (it reads what is deployed now, so finished changes are not repeated) and keep this folder for the change record.';

/** A journal line that cannot be a record, or a record that cannot follow the ones before it. */
export function damagedJournal(file: string, line: number, what: string): InputError {
  return new InputError('session.corrupt', `The session journal ${file} is damaged at line ${line}: ${what}.`, { hint: DAMAGED_JOURNAL_HINT, where: `${file}:${line}` });
}

const isRecord = (v: unknown): v is JournalRecord => {
  const r = v as Partial<JournalRecord> | null;
  return typeof r === 'object' && r !== null && !Array.isArray(r) && Number.isInteger(r.seq) && typeof r.event === 'object' && r.event !== null && typeof (r.event as { type?: unknown }).type === 'string';
};

export function readJournal(file: string): JournalRead {
  if (!existsSync(file)) return { records: [], lines: [], validBytes: 0, torn: false };
  const buf = readBoundedFile(file, { what: 'session journal', maxBytes: LIMITS.journal, tooLargeHint: 'This is not a journal upgrade-pilot wrote; check the state folder (--state-dir).' });
  const records: JournalRecord[] = [];
  const lines: number[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) return { records, lines, validBytes: start, torn: true };
    lineNo++;
    const line = buf.toString('utf8', start, nl);
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      // A garbled line can only be a torn write if nothing complete follows it.
      if (buf.indexOf(10, nl + 1) === -1 && nl + 1 >= buf.length) return { records, lines, validBytes: start, torn: true };
      throw damagedJournal(file, lineNo, 'the line is not JSON');
    }
    if (!isRecord(record)) throw damagedJournal(file, lineNo, 'the line is not a journal record (an object with a sequence number and an event)');
    records.push(record);
    lines.push(lineNo);
    start = nl + 1;
  }
  return { records, lines, validBytes: start, torn: false };
}

/**
 * The journal's first record alone (its session.created: the session's meta), read up to its line's
 * end and no further: a search for the sessions of one cluster looks at each session's first line
 * and replays only the one it keeps. Undefined when there is no complete first line that is a record.
 */
export function readFirstRecord(file: string, maxBytes = LIMITS.journal): JournalRecord | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    while (size < maxBytes) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes - size));
      const n = readSync(fd, chunk, 0, chunk.length, size);
      if (n === 0) return undefined;
      const nl = chunk.subarray(0, n).indexOf(10);
      chunks.push(chunk.subarray(0, nl === -1 ? n : nl));
      size += n;
      if (nl === -1) continue;
      let record: unknown;
      try {
        record = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return undefined;
      }
      return isRecord(record) ? record : undefined;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export class JournalWriter {
  private readonly fd: number;
  /** Records written, and of those the ones known to be on disk (barrier mode). */
  private written = 0;
  private synced = 0;
  private flushing: Promise<void> | undefined;
  private failed: unknown;
  private closed = false;

  /** Opens for append, cutting off a torn tail so new records start on a clean line. */
  constructor(
    private readonly file: string,
    validBytes: number,
    private readonly mode: 'sync' | 'barrier' = 'sync',
  ) {
    this.fd = openSync(file, 'a+', FILE_MODE);
    ftruncateSync(this.fd, validBytes);
  }

  append(record: JournalRecord): void {
    writeAll(this.fd, `${JSON.stringify(record)}\n`);
    this.written += 1;
    if (this.mode === 'sync') {
      fsyncSync(this.fd);
      this.synced = this.written;
    } else this.flush();
  }

  /** Resolves once every record appended so far is on disk; rejects when a flush failed. */
  async durable(): Promise<void> {
    const target = this.written;
    while (this.synced < target) {
      if (this.failed) throw this.failed;
      await (this.flushing ?? this.flush());
    }
    if (this.failed) throw this.failed;
  }

  /** One flush on the thread pool at a time; the records written meanwhile go with the next. */
  private flush(): Promise<void> {
    if (this.flushing || this.closed) return this.flushing ?? Promise.resolve();
    const target = this.written;
    this.flushing = new Promise<void>((resolve) => {
      fsync(this.fd, (err) => {
        this.flushing = undefined;
        if (err) this.failed ??= Object.assign(new Error(`cannot flush ${this.file} to disk: ${err.message}`), { code: err.code });
        else this.synced = Math.max(this.synced, target);
        if (this.closed) closeSync(this.fd);
        else if (!err && this.synced < this.written) void this.flush();
        resolve();
      });
    });
    return this.flushing;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.synced < this.written) fsyncSync(this.fd);
    this.synced = this.written;
    // A flush still on the thread pool holds the descriptor: it is closed when that flush returns.
    if (!this.flushing) closeSync(this.fd);
  }
}
