/**
 * The fleet journal: the session journal's file format (one record per line, fsync'ed before the
 * next action, a torn last line ignored), holding fleet events. It records the frozen plan, each
 * stage and cluster start and end, and every operator decision; clusters keep their own journals.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEvent } from '../engine/state.js';
import { ensurePrivateDir } from '../session/durable-fs.js';
import { JournalWriter, readJournal } from '../session/journal.js';
import { SessionLock } from '../session/lock.js';
import { applyFleetEvents, foldFleet } from './state.js';
import type { FleetEvent, FleetState } from './types.js';

export interface FleetPaths {
  dir: string;
  journal: string;
  lock: string;
  clusterDir(name: string): string;
}

export function fleetPaths(stateDir: string, fleet: string): FleetPaths {
  const dir = join(stateDir, 'fleets', fleet);
  return { dir, journal: join(dir, 'journal.ndjson'), lock: join(dir, 'lock'), clusterDir: (name) => join(dir, 'clusters', name) };
}

export function readFleetEvents(paths: FleetPaths): FleetEvent[] {
  // The same records as a session's; the event is a fleet event (its `type` says which).
  return readJournal(paths.journal).records.map((r) => r.event as unknown as FleetEvent);
}

export function readFleetState(paths: FleetPaths): FleetState | undefined {
  return existsSync(paths.journal) ? foldFleet(readFleetEvents(paths)) : undefined;
}

/** The fleet's journal open for writing, under its lock (one coordinator per fleet). */
export class FleetJournal {
  private readonly writer: JournalWriter;
  private readonly lock: SessionLock;
  private seq: number;
  private events: FleetEvent[];
  /** The fold of `events` once asked for, then kept up to date record by record (the coordinator asks for it many times per record). */
  private folded: { state: FleetState | undefined } | undefined;

  constructor(readonly paths: FleetPaths) {
    ensurePrivateDir(join(paths.dir, '..'));
    ensurePrivateDir(paths.dir);
    mkdirSync(join(paths.dir, 'clusters'), { recursive: true, mode: 0o700 });
    this.lock = SessionLock.acquire(paths.lock, `fleet ${paths.dir}`);
    const read = readJournal(paths.journal);
    this.events = read.records.map((r) => r.event as unknown as FleetEvent);
    this.seq = read.records.at(-1)?.seq ?? 0;
    this.writer = new JournalWriter(paths.journal, read.validBytes);
  }

  append(event: FleetEvent): void {
    this.seq += 1;
    this.writer.append({ seq: this.seq, event: event as unknown as SessionEvent });
    this.events.push(event);
    // Only the record's cluster or stage is new; a state handed out before stays as it was.
    this.folded = this.folded?.state ? { state: applyFleetEvents(this.folded.state, [event]) } : undefined;
  }

  /** The fleet as its journal stands; the same object until the next append (read it, never change it). */
  state(): FleetState | undefined {
    this.folded ??= { state: foldFleet(this.events) };
    return this.folded.state;
  }

  close(): void {
    this.writer.close();
    this.lock.release();
  }
}
