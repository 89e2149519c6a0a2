import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { findStep } from '../../src/engine/state.js';
import { Redactor, REDACTED } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { readJournal } from '../../src/session/journal.js';
import { bundleChild } from '../support/bundle-child.js';
import { seeded, withSeed } from '../support/seed.js';
import { at, created, meta, step } from '../support/state-fixtures.js';

const KEY = 'pk_live_4f9c2a7e1b3d8c6a5e0f';
const child = bundleChild(new URL('../support/journal-child.ts', import.meta.url));

function startChild(stateDir: string, ...extra: string[]): { proc: ChildProcess; lines: string[]; waitFor: (re: RegExp) => Promise<string> } {
  const proc = spawn(process.execPath, [child, stateDir, KEY, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) (w.re.test(line) ? w.resolve(line) : waiters.push(w));
    }
  });
  const waitFor = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const hit = lines.find((l) => re.test(l));
      if (hit) return resolve(hit);
      waiters.push({ re, resolve });
      proc.once('exit', () => reject(new Error(`child exited before ${re}`)));
    });
  return { proc, lines, waitFor };
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...files(join(dir, e.name))] : [join(dir, e.name)]));

describe('session store: crashes while journaling', () => {
  // 50 kills in `npm test`; `npm run test:faults` runs this file with UP_STORE_KILLS=200.
  const runs = Number(process.env.UP_STORE_KILLS ?? 50);
  it(`${runs} SIGKILLs at random points: every session loads to its last complete record, nothing acknowledged is lost, no key on disk`, () =>
    withSeed('test/session/store.test.ts', async (seed) => {
      // The delays before each kill are seeded; when the child is scheduled is up to the machine.
      const random = seeded(seed);
      const stateDir = mkdtempSync(join(tmpdir(), 'up-crash-'));
      const parallel = 4;
      let torn = 0;
      const one = async () => {
        const { proc, lines, waitFor } = startChild(stateDir);
        const ready = await waitFor(/^ready /);
        const id = ready.split(' ')[1]!;
        await new Promise((r) => setTimeout(r, random() * 25));
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGKILL');
        await exited;
        const acked = Math.max(0, ...lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.split(' ')[1])));
        const journalFile = join(stateDir, 'sessions', id, 'journal.ndjson');
        const journal = readJournal(journalFile);
        if (journal.torn) torn++;
        const store = new SessionStore(stateDir, new Redactor().add(KEY));
        const state = store.load(id);
        // Loads to the last complete record, which includes everything the child was told is durable.
        expect(state.seq).toBe(journal.records.length);
        expect(state.seq).toBeGreaterThanOrEqual(acked);
        const notes = findStep(state, 'a')!.notes;
        expect(Object.keys(notes)).toHaveLength(state.seq - 2);
        // And it can be reopened (the dead child's lock is stale) and appended to cleanly.
        const reopened = store.open(id);
        reopened.append({ type: 'step.note', at: at(9), id: 'a', key: 'after', value: 1 });
        reopened.close();
        expect(findStep(store.load(id), 'a')!.notes.after).toBe(1);
      };
      for (let i = 0; i < runs; i += parallel) await Promise.all(Array.from({ length: Math.min(parallel, runs - i) }, one));
      for (const f of files(stateDir)) {
        if (statSync(f).isFile()) expect(readFileSync(f, 'utf8')).not.toContain(KEY);
      }
      // The test would prove little if no kill ever tore a record; say how many did.
      console.log(`crash test: ${runs} kills, ${torn} torn final records recovered (seed ${seed})`);
    }),
    runs * 2_000,
  );
});

describe('session store: torn writes (power loss)', () => {
  it('a journal cut at any byte loads to its last complete record and takes new records cleanly', () =>
    withSeed('test/session/store.test.ts', (seed) => {
      const stateDir = mkdtempSync(join(tmpdir(), 'up-torn-'));
      const store = new SessionStore(stateDir, new Redactor());
      const s = store.create(created([step('a')]));
      s.append({ type: 'step.started', at: at(1), id: 'a' });
      for (let i = 0; i < 20; i++) s.append({ type: 'step.note', at: at(2), id: 'a', key: `k${i}`, value: 'v'.repeat(i * 13) });
      s.close();
      const journal = join(s.dir, 'journal.ndjson');
      const full = readFileSync(journal);
      const ends = [...full.entries()].filter(([, b]) => b === 10).map(([i]) => i + 1);
      // The snapshot is only a cache; remove it so every load replays the cut journal.
      writeFileSync(join(s.dir, 'state.json'), 'not json');
      // Cuts at every record's end and one byte before it (the edges), and random ones.
      const random = seeded(seed);
      const cuts = [0, ...ends.flatMap((e) => [e - 1, e]), ...Array.from({ length: 30 }, () => Math.floor(random() * full.length))].filter((c) => c >= 0 && c <= full.length);
      let torn = 0;
      for (const cut of cuts) {
        writeFileSync(journal, full.subarray(0, cut));
        const complete = ends.filter((e) => e <= cut).length;
        // A cut inside a record leaves a torn tail, which reading reports and sets aside.
        const read = readJournal(journal);
        expect(read.torn, `cut at ${cut}`).toBe(!ends.includes(cut) && cut > 0);
        expect(read.records).toHaveLength(complete);
        expect(read.validBytes).toBe(complete ? ends[complete - 1] : 0);
        if (read.torn) torn++;
        if (complete === 0) {
          expect(() => store.load(meta.id)).toThrow(/no complete record/);
          continue;
        }
        expect(store.load(meta.id).seq).toBe(complete);
        const reopened = store.open(meta.id);
        reopened.append({ type: 'session.stopped', at: at(3), status: 'interrupted', reason: 'test' });
        reopened.close();
        // The torn tail was cut off before the new record: the file is whole again.
        expect(readJournal(journal)).toMatchObject({ torn: false, validBytes: statSync(journal).size });
        expect(store.load(meta.id)).toMatchObject({ seq: complete + 1, run: { status: 'interrupted' } });
      }
      // Every record was torn at least once (the byte before its end), so the test tore dozens, not none.
      expect(torn).toBeGreaterThanOrEqual(ends.length);
    }));
});

describe('session store: locking, modes, secrets', () => {
  it('refuses a second run of a session that is running, naming who holds it', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-lock-'));
    const store = new SessionStore(stateDir, new Redactor());
    const s = store.create(created([step('a')]));
    s.close();
    const { proc, waitFor } = startChild(stateDir, 'hold', meta.id);
    try {
      await waitFor(/^holding /);
      let err: unknown;
      try {
        store.open(meta.id);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(new RegExp(`Session ${meta.id} is already running \\(pid ${proc.pid} on `));
      expect((err as InputError).hint).toMatch(/two runs of one session could repeat an action/);
    } finally {
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    }
    // Once the holder is gone its lock is stale and the session opens.
    store.open(meta.id).close();
  });

  it('keeps folders 0700 and files 0600', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-modes-'));
    const store = new SessionStore(join(stateDir, 'nested'), new Redactor());
    const s = store.create(created([step('a')]));
    s.writeFile('report.md', '# report');
    for (const f of [join(stateDir, 'nested'), ...files(join(stateDir, 'nested'))]) {
      const mode = statSync(f).mode & 0o777;
      expect([f, mode.toString(8)]).toEqual([f, statSync(f).isDirectory() ? '700' : '600']);
    }
    s.close();
    expect(existsSync(join(s.dir, 'lock'))).toBe(false);
  });

  it('never writes a registered key, in any record, snapshot or file', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-secret-'));
    const store = new SessionStore(stateDir, new Redactor().add(KEY));
    const s = store.create(created([step('a')]));
    s.append({ type: 'step.started', at: at(1), id: 'a' });
    s.append({ type: 'step.failed', at: at(2), id: 'a', error: { kind: 'environment', code: 'x', message: `401 with key ${KEY}`, hint: `ApiKey: ${KEY}` } });
    s.snapshot({ ...store.load(meta.id), log: [] });
    s.writeFile('report.md', `key=${KEY}`);
    s.close();
    for (const f of files(stateDir)) if (statSync(f).isFile()) expect(readFileSync(f, 'utf8')).not.toContain(KEY);
    expect(store.load(meta.id).entries[0]).toMatchObject({ error: { message: `401 with key ${REDACTED}` } });
  });

  it('reports a damaged journal line clearly, and an unknown or missing session', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-damaged-'));
    const store = new SessionStore(stateDir, new Redactor());
    const s = store.create(created([step('a')]));
    s.append({ type: 'step.started', at: at(1), id: 'a' });
    s.close();
    const journal = join(s.dir, 'journal.ndjson');
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, [lines[0], '{garbage', lines[1], ''].join('\n'));
    expect(() => store.load(meta.id)).toThrow(/damaged at line 2/);
    expect(() => store.load('nope')).toThrow(/No session nope/);
    expect(() => new SessionStore(mkdtempSync(join(tmpdir(), 'up-empty-')), new Redactor()).load(undefined)).toThrow(/no saved sessions/);
  });

  it('lists sessions with their runbook, cluster, mode, current step and status', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-list-'));
    const store = new SessionStore(stateDir, new Redactor());
    const s = store.create(created([step('a'), step('b')]));
    s.append({ type: 'step.started', at: at(1), id: 'a' });
    s.close();
    expect(store.list()).toEqual([
      { id: meta.id, runbook: 'test', cluster: 'cluster-1', mode: 'live', currentStep: 'a', currentTitle: 'a', status: 'running', updatedAt: at(1), createdAt: at(0) },
    ]);
  });
});
