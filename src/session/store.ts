/**
 * Sessions on disk: `<state dir>/sessions/<id>/` holding `journal.ndjson` (the truth), `state.json`
 * (a snapshot, to load fast), `lock`, and the reports. Loading = snapshot + the journal records
 * after it, replayed through the reducer.
 */
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InputError } from '../errors.js';
import { initialState, reduce, replaying } from '../engine/reducer.js';
import type { JournalSink } from '../engine/runner.js';
import { currentStep, SCHEMA_VERSION, type SessionEvent, type SessionMeta, type SessionState } from '../engine/state.js';
import { assertCanHoldFiles, ensurePrivateDir, stateDirError, writeFileAtomic } from './durable-fs.js';
import { damagedJournal, JournalWriter, readFirstRecord, readJournal } from './journal.js';
import { FileReadError, readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { sanitizeText } from '../text/sanitize.js';
import { SessionLock } from './lock.js';
import type { Redactor } from './redact.js';

interface Snapshot {
  schema: number;
  seq: number;
  state: SessionState;
}

export interface SessionSummary {
  id: string;
  runbook: string;
  cluster: string;
  mode: string;
  currentStep: string;
  /** The current step as the operator knows it: its title, and its hop. */
  currentTitle?: string;
  status: string;
  updatedAt: string;
  createdAt: string;
  /** Why a session that cannot be loaded is listed as `damaged` (or `incomplete`). */
  problem?: string;
  /** Ran on the embedded lab, which lived in its process and ended with it: it cannot go on. */
  lab?: boolean;
}

/** A snapshot worth trusting as a cache: the parts every reader relies on are there. */
const plausibleSnapshot = (snap: unknown): snap is Snapshot => {
  const s = snap as Partial<Snapshot> | null;
  const st = s?.state as Partial<SessionState> | undefined;
  return (
    typeof s === 'object' && s !== null && Number.isInteger(s.seq) && typeof s.schema === 'number' &&
    typeof st === 'object' && st !== null && typeof st.meta === 'object' && st.meta !== null && Array.isArray(st.entries) &&
    typeof st.mutations === 'object' && st.mutations !== null && typeof st.run === 'object' && st.run !== null
  );
};

/**
 * Whether `resume` can continue a listed session: not finished, readable whole, and not one of the
 * embedded lab, whose Palette and cluster ended with the process that ran them.
 */
export function canResume(s: Pick<SessionSummary, 'status' | 'lab'>): boolean {
  return s.status !== 'done' && s.status !== 'incomplete' && s.status !== 'damaged' && !s.lab;
}

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

const JOURNAL = 'journal.ndjson';
const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
const SNAPSHOT = 'state.json';
const LOCK = 'lock';

/** How often a session's snapshot is rewritten at most (a cache: see OpenSession.snapshot). */
const SNAPSHOT_EVERY_MS = 10_000;

export class OpenSession implements JournalSink {
  private seq: number;
  private closed = false;
  private pendingSnapshot: { state: SessionState; seq: number } | undefined;
  private snapshotAt = 0;

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly state: SessionState,
    private readonly journal: JournalWriter,
    private readonly lock: SessionLock,
    private readonly redactor: Redactor,
  ) {
    this.seq = state.seq;
  }

  append(event: SessionEvent): number {
    this.seq += 1;
    try {
      this.journal.append({ seq: this.seq, event: this.redactor.value(event) });
    } catch (err) {
      throw stateDirError(join(this.dir, JOURNAL), err);
    }
    return this.seq;
  }

  /** Every record appended so far on disk (see JournalWriter): awaited before a change is sent. */
  async durable(): Promise<void> {
    try {
      await this.journal.durable();
    } catch (err) {
      throw stateDirError(join(this.dir, JOURNAL), err);
    }
  }

  /**
   * The snapshot is a cache of the journal (loading replays the records after it), so it is written
   * without fsync and at most once every SNAPSHOT_EVERY_MS: a session's steps in a fast lab, or
   * twenty sessions of a fleet in one process, do not each block the process on a disk flush and a
   * rewrite of the whole state. The latest one is written when the session closes.
   */
  snapshot(state: SessionState): void {
    this.pendingSnapshot = { state, seq: this.seq };
    if (Date.now() - this.snapshotAt >= SNAPSHOT_EVERY_MS) this.writeSnapshot();
  }

  private writeSnapshot(): void {
    const pending = this.pendingSnapshot;
    if (!pending) return;
    this.pendingSnapshot = undefined;
    this.snapshotAt = Date.now();
    const { log: _log, ...durable } = pending.state;
    const clean = { ...durable, log: [], entries: durable.entries.map((e) => ('live' in e ? { ...e, live: undefined } : e)) };
    const snap: Snapshot = { schema: SCHEMA_VERSION, seq: pending.seq, state: this.redactor.value(clean) };
    writeFileAtomic(join(this.dir, SNAPSHOT), JSON.stringify(snap), { durable: false });
  }

  /** Writes a file in the session folder (reports): redacted, atomic, 0600. */
  writeFile(name: string, text: string): string {
    const file = join(this.dir, name);
    writeFileAtomic(file, this.redactor.text(text));
    return file;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.writeSnapshot();
    } catch {
      // Only a cache: the next load replays the journal instead.
    }
    this.journal.close();
    this.lock.release();
  }
}

export class SessionStore {
  readonly sessionsDir: string;

  constructor(
    readonly stateDir: string,
    private readonly redactor: Redactor,
  ) {
    // A folder that cannot hold files (/proc) is refused now, not after a spin or a confusing error.
    assertCanHoldFiles(stateDir);
    this.sessionsDir = join(stateDir, 'sessions');
  }

  /** Creates a session folder, takes its lock and journals its first record. */
  create(created: Extract<SessionEvent, { type: 'session.created' }>): OpenSession {
    ensurePrivateDir(this.stateDir);
    ensurePrivateDir(this.sessionsDir);
    const id = created.meta.id;
    const dir = join(this.sessionsDir, id);
    ensurePrivateDir(dir);
    const lock = SessionLock.acquire(join(dir, LOCK), id);
    const state = initialState(created);
    const session = new OpenSession(id, dir, state, new JournalWriter(join(dir, JOURNAL), 0, 'barrier'), lock, this.redactor);
    state.seq = session.append(created);
    session.snapshot(state);
    return session;
  }

  /** Opens a session to continue it: takes the lock first, then loads. */
  open(id: string | undefined): OpenSession {
    const resolved = id ?? this.latestId();
    const dir = this.dirOf(resolved);
    const lock = SessionLock.acquire(join(dir, LOCK), resolved);
    try {
      const { state, validBytes } = this.loadFrom(dir, resolved);
      const journal = new JournalWriter(join(dir, JOURNAL), validBytes, 'barrier');
      return new OpenSession(resolved, dir, state, journal, lock, this.redactor);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** Writes a file into a session's folder without taking its lock (reports: not part of the journal). */
  writeFile(id: string, name: string, text: string): string {
    const file = join(this.dirOf(id), name);
    writeFileAtomic(file, this.redactor.text(text));
    return file;
  }

  /** Reads a session without locking it (reports, listings). */
  load(id: string | undefined): SessionState {
    const resolved = id ?? this.latestId();
    return this.loadFrom(this.dirOf(resolved), resolved).state;
  }

  /**
   * What a session was created as (its first record's meta: the cluster, the mode, when), without
   * replaying it; undefined when its first record cannot be read as a session's creation.
   */
  createdMeta(id: string): SessionMeta | undefined {
    const first = readFirstRecord(join(this.dirOf(id), JOURNAL));
    return first?.event.type === 'session.created' ? first.event.meta : undefined;
  }

  dirOf(id: string): string {
    if (!/^[\w.-]+$/.test(id)) throw new InputError('session.bad-id', `"${id}" is not a session id.`, { hint: 'List sessions with: upgrade-pilot sessions' });
    const dir = join(this.sessionsDir, id);
    try {
      statSync(join(dir, JOURNAL));
    } catch (err) {
      // Only a missing session is "not found"; a folder we may not read is the environment's problem.
      if (!missing(err)) throw stateDirError(dir, err);
      throw new InputError('session.not-found', `No session ${id} in ${this.sessionsDir}.`, { hint: 'List sessions with: upgrade-pilot sessions (and check --state-dir).' });
    }
    return dir;
  }

  ids(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.sessionsDir);
    } catch (err) {
      // existsSync would say "no sessions" for a folder we may not read: only a missing one has none.
      if (missing(err)) return [];
      throw stateDirError(this.sessionsDir, err);
    }
    return names.filter((name) => existsSync(join(this.sessionsDir, name, JOURNAL))).sort();
  }

  latestId(): string {
    const ids = this.ids();
    // Ids start with their creation time, so the last one sorted is the newest; ties broken by mtime.
    const latest = ids
      .map((id) => ({ id, mtime: statSync(join(this.sessionsDir, id, JOURNAL)).mtimeMs }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.mtime - b.mtime))
      .pop();
    if (!latest) throw new InputError('session.none', `There are no saved sessions in ${this.stateDir}.`, { hint: 'Start one with: upgrade-pilot start (or check --state-dir).' });
    return latest.id;
  }

  /** The sessions `resume` can continue, the latest change first. */
  resumable(): SessionSummary[] {
    return this.list()
      .filter(canResume)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /** Every session, newest last; one that cannot be loaded is listed as damaged, never hides the others. */
  list(): SessionSummary[] {
    return this.ids().map((id) => {
      let state: SessionState;
      try {
        state = this.load(id);
      } catch (err) {
        // A run killed while creating its session leaves no complete record; a hand-edited or
        // damaged journal cannot be replayed. List them, do not hide the others.
        let at = '';
        try {
          at = statSync(join(this.sessionsDir, id, JOURNAL)).mtime.toISOString();
        } catch {
          // listed without a time
        }
        const incomplete = err instanceof InputError && err.code === 'session.empty';
        const problem = sanitizeText(err instanceof Error ? err.message : String(err), { max: 300 });
        return { id, runbook: '-', cluster: '-', mode: '-', currentStep: '-', status: incomplete ? 'incomplete' : 'damaged', updatedAt: at, createdAt: at, problem };
      }
      const step = currentStep(state);
      return {
        id,
        runbook: state.meta.runbook.name,
        cluster: state.meta.cluster.name ?? state.meta.cluster.uid ?? '-',
        mode: state.meta.mode === 'rehearsal' ? 'rehearsal' : state.meta.lab || state.meta.servedLab ? 'lab' : 'live',
        currentStep: state.run.status === 'done' ? '-' : (step?.id ?? '-'),
        ...(step && state.run.status !== 'done' ? { currentTitle: step.hop ? `Hop ${step.hop.index}/${step.hop.count} · ${step.title}` : step.title } : {}),
        status: state.run.status,
        updatedAt: state.run.updatedAt,
        createdAt: state.meta.createdAt,
        ...(state.meta.lab ? { lab: true } : {}),
      };
    });
  }

  private loadFrom(dir: string, id: string): { state: SessionState; validBytes: number } {
    let journal;
    try {
      journal = readJournal(join(dir, JOURNAL));
    } catch (err) {
      // A journal we may not read is the environment's problem (exit 4); one that is not a journal is bad input.
      if (err instanceof FileReadError && (err.problem === 'denied' || err.problem === 'unreadable')) throw stateDirError(dir, { code: err.problem === 'denied' ? 'EACCES' : undefined, message: err.reason });
      if (err instanceof InputError) throw err;
      throw stateDirError(dir, err);
    }
    let state: SessionState | undefined;
    const snapFile = join(dir, SNAPSHOT);
    const journalFile = join(dir, JOURNAL);
    if (existsSync(snapFile)) {
      let snap: unknown;
      try {
        snap = JSON.parse(readBoundedText(snapFile, { what: 'session snapshot', maxBytes: LIMITS.snapshot }));
      } catch {
        // A damaged, oversized or unreadable snapshot is only a cache: the journal rebuilds it.
      }
      if (plausibleSnapshot(snap)) {
        if (snap.schema > SCHEMA_VERSION) {
          throw new InputError('session.schema', `Session ${id} was written by a newer upgrade-pilot (schema ${snap.schema}; this one reads ${SCHEMA_VERSION}).`, {
            hint: 'Upgrade upgrade-pilot to continue this session.',
          });
        }
        if (snap.seq <= journal.records.length) state = { ...snap.state, seq: snap.seq, log: [] };
      }
    }
    state = replaying(() => {
      let s = state;
      for (let i = 0; i < journal.records.length; i++) {
        const { seq, event } = journal.records[i]!;
        if (s && seq <= s.seq) continue;
        if (!s && event.type !== 'session.created') break;
        try {
          if (event.type === 'session.created') {
            if (s) throw new Error('a second session.created record');
            s = initialState(event);
          } else {
            s = reduce(s!, event);
          }
        } catch (err) {
          // A record that cannot follow the ones before it: a hand edit (a result without its
          // intent, an unknown event type) or damage. Say which line; never guess past it.
          throw damagedJournal(journalFile, journal.lines[i] ?? i + 1, sanitizeText(err instanceof Error ? err.message : String(err), { max: 200 }));
        }
        s.seq = seq;
      }
      return s;
    });
    if (!state) {
      throw new InputError('session.empty', `Session ${id} has no complete record (it was interrupted while being created).`, {
        hint: `Start a new session; remove ${dir} when convenient.`,
      });
    }
    return { state, validBytes: journal.validBytes };
  }
}
