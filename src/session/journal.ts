/**
 * The append-only journal: one JSON record per line, fsync'ed before `append` returns. A crash can
 * only tear the last line, which reading ignores and the next writer truncates away.
 */
import { closeSync, fsyncSync, openSync, readFileSync, ftruncateSync, existsSync } from 'node:fs';
import { InputError } from '../errors.js';
import type { SessionEvent } from '../engine/state.js';
import { FILE_MODE, writeAll } from './durable-fs.js';

export interface JournalRecord {
  seq: number;
  event: SessionEvent;
}

export interface JournalRead {
  records: JournalRecord[];
  /** Bytes up to the end of the last complete record. */
  validBytes: number;
  /** True when a partial last record was found (and ignored). */
  torn: boolean;
}

export function readJournal(file: string): JournalRead {
  if (!existsSync(file)) return { records: [], validBytes: 0, torn: false };
  const buf = readFileSync(file);
  const records: JournalRecord[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) return { records, validBytes: start, torn: true };
    lineNo++;
    const line = buf.toString('utf8', start, nl);
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      // A garbled line can only be a torn write if nothing complete follows it.
      if (buf.indexOf(10, nl + 1) === -1 && nl + 1 >= buf.length) return { records, validBytes: start, torn: true };
      throw new InputError('session.corrupt', `The session journal ${file} is damaged at line ${lineNo}.`, {
        hint: 'Keep the folder for inspection and start a new session; the report of the old one can still be read from its snapshot.',
        where: `${file}:${lineNo}`,
      });
    }
    records.push(record);
    start = nl + 1;
  }
  return { records, validBytes: start, torn: false };
}

export class JournalWriter {
  private readonly fd: number;

  /** Opens for append, cutting off a torn tail so new records start on a clean line. */
  constructor(file: string, validBytes: number) {
    this.fd = openSync(file, 'a+', FILE_MODE);
    ftruncateSync(this.fd, validBytes);
  }

  append(record: JournalRecord): void {
    writeAll(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
