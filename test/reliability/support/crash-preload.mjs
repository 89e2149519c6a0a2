// Loaded with `node --import` into the real CLI by the crash matrix. It watches the session journal
// (the file the tool writes one record at a time, each before the next action) and kills the process
// with SIGKILL at a chosen record, so a kill lands exactly between two journal points instead of wherever a timer happens to
// fall. Nothing in the tool knows about it: it patches `node:fs` and re-syncs the ES module exports.
//
// UP_CRASH (JSON): { targets: ["type|subject|key", ...], mode: "after" | "torn" | "stop", modes?: {signature: mode}, report: FILE }
//   after: SIGKILL right after the write of the first record whose signature is in `targets` (the
//          record is in the kernel's page cache: a killed process keeps it, as it keeps every record
//          the journal wrote; whether the disk itself has it is the journal's flush, not a crash's).
//   torn:  write only the first half of that record's bytes, then SIGKILL (a torn final line).
//   stop:  SIGSTOP right after that record (once): the test acts on the frozen run, then SIGCONTs it.
// Before dying (or stopping) it writes { signature, seq, mode, pid } to `report`, so the test knows
// where it happened. A signature is `type|step id (or group)|key`, e.g.
// `mutation.intent|hop1.publish-addon|hop1.publish-addon/publish`.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const spec = JSON.parse(process.env.UP_CRASH ?? 'null');
if (spec) {
  const targets = new Set(spec.targets);
  const journalFds = new Set();
  let armed; // { fd, signature, seq } once the target record has been written (mode "after")
  const { openSync, writeSync, fsyncSync, closeSync, writeFileSync } = fs;

  const modeOf = (signature) => spec.modes?.[signature] ?? spec.mode;
  let fired = false;
  const die = (hit) => {
    fired = true;
    armed = undefined;
    const mode = modeOf(hit.signature);
    writeFileSync(spec.report, JSON.stringify({ ...hit, mode, pid: process.pid }));
    process.kill(process.pid, mode === 'stop' ? 'SIGSTOP' : 'SIGKILL');
  };

  fs.openSync = function (path, ...rest) {
    const fd = openSync.call(this, path, ...rest);
    if (typeof path === 'string' && path.endsWith('/journal.ndjson')) journalFds.add(fd);
    return fd;
  };
  fs.closeSync = function (fd) {
    journalFds.delete(fd);
    return closeSync.call(this, fd);
  };
  // The journal writes a record's text as a string (writeAll), or, after a short write, the rest as a
  // Buffer with its offset and length: both are read here as the bytes they put in the file.
  const bytesOf = (buf, rest) => {
    if (typeof buf === 'string') return { bytes: Buffer.from(buf, 'utf8'), offset: 0, length: Buffer.byteLength(buf, 'utf8') };
    if (!Buffer.isBuffer(buf)) return undefined;
    const offset = typeof rest[0] === 'number' ? rest[0] : 0;
    const length = typeof rest[1] === 'number' ? rest[1] : buf.length - offset;
    return { bytes: buf, offset, length };
  };
  fs.writeSync = function (fd, buf, ...rest) {
    const w = journalFds.has(fd) ? bytesOf(buf, rest) : undefined;
    if (w) {
      const text = w.bytes.toString('utf8', w.offset, w.offset + w.length);
      let record;
      try {
        record = JSON.parse(text);
      } catch {
        record = undefined; // a continuation of a partial write: not a record start
      }
      if (record?.event && !fired) {
        const e = record.event;
        // A key that numbers the step's attempt (`verify/review/2.1`) is the same point in any attempt.
        const signature = [e.type, e.id ?? e.stepId ?? e.group ?? '', (e.key ?? '').replace(/\/review\/\d+\./, '/review/*.')].join('|');
        if (targets.has(signature)) {
          if (modeOf(signature) === 'torn') {
            writeSync.call(this, fd, w.bytes, w.offset, Math.max(1, Math.floor(w.length / 2)));
            fsyncSync(fd);
            die({ signature, seq: record.seq });
          }
          armed = { fd, signature, seq: record.seq };
        }
      }
    }
    const written = writeSync.call(this, fd, buf, ...rest);
    // The whole record is written once the bytes written end its line (a short write goes on in the next call).
    if (armed && armed.fd === fd && w && w.bytes[w.offset + written - 1] === 0x0a) die({ signature: armed.signature, seq: armed.seq });
    return written;
  };
  syncBuiltinESMExports();
}
