/**
 * How a running fleet is told to stop, and by whom. Two ways: *halt* (no new cluster starts, every
 * applied one is watched to a safe point: the operator's `q`, `fleet stop`) and *now* (every session
 * stops at its next safe point, applied clusters are left unwatched and said so: Ctrl+C, SIGTERM,
 * `fleet stop --now`, a second `q`). The process's signals have one owner, the fleet: its first
 * signal stops now, cleanly (journaled, reported); only a second exits at once.
 *
 * `fleet stop` from another terminal writes a request file into the fleet folder; the running
 * coordinator (the holder of the fleet's lock) picks it up within a second and removes it.
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { writeFileAtomic } from '../session/durable-fs.js';
import { processAlive, readLock } from '../session/lock.js';
import type { FleetPaths } from './journal.js';
import type { StopRequest } from './types.js';

export class FleetStop {
  private readonly halting = new AbortController();
  private readonly stopping = new AbortController();
  private request: StopRequest | undefined;

  /** Stop starting: aborted by the first halt. */
  get halt(): AbortSignal {
    return this.halting.signal;
  }

  /** Stop now: aborted by a stop now (the sessions' own stop signal). */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  requested(): StopRequest | undefined {
    return this.request;
  }

  /** A halt; a second halt (a second `q`) is a stop now. Returns what it did. */
  ask(req: StopRequest): 'halt' | 'now' | 'already' {
    if (this.stopping.signal.aborted) return 'already';
    if (req.mode === 'now' || this.halting.signal.aborted) {
      // The first reason stays the record's unless this one is a signal (its exit code is 130).
      this.request = { ...(req.how === 'signal' || !this.request ? req : this.request), mode: 'now' };
      this.stopping.abort();
      return 'now';
    }
    this.request = req;
    this.halting.abort();
    return 'halt';
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The process's signals, owned by the fleet: the first stops every cluster now, cleanly; a second
 * exits at once (every journal is consistent at any moment; `fleet resume` goes on). Returns the undo.
 */
export function ownSignals(stop: FleetStop, by: string, say: (line: string) => void, proc: Pick<NodeJS.Process, 'on' | 'off' | 'exit'> = process): () => void {
  let seen = 0;
  const handlers = SIGNALS.map((name) => {
    const handler = () => {
      seen += 1;
      if (seen > 1) {
        say(`${name} again: exiting at once; every journal is consistent and \`fleet resume\` goes on from it`);
        proc.exit(130);
        return;
      }
      stop.ask({ mode: 'now', how: 'signal', reason: name, by });
      say(`${name}: stopping every cluster at its next safe point (applied ones are left unwatched, said so); a second signal exits at once`);
    };
    proc.on(name, handler);
    return [name, handler] as const;
  });
  return () => {
    for (const [name, handler] of handlers) proc.off(name, handler);
  };
}

const requestFile = (paths: FleetPaths) => join(paths.dir, 'stop-request.json');

/** How often the coordinator looks for a `fleet stop` request. */
export const STOP_POLL_MS = 500;

/** The coordinator's side: a request left from an earlier run is dropped; each new one is applied and removed. */
export function watchStopRequests(paths: FleetPaths, stop: FleetStop, onRequest: (req: StopRequest, did: ReturnType<FleetStop['ask']>) => void): () => void {
  const file = requestFile(paths);
  const drop = () => {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  };
  drop();
  const timer = setInterval(() => {
    if (!existsSync(file)) return;
    let req: StopRequest | undefined;
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<StopRequest>;
      if ((raw.mode === 'halt' || raw.mode === 'now') && typeof raw.by === 'string') req = { mode: raw.mode, how: 'operator', reason: raw.mode === 'now' ? 'fleet stop --now' : 'fleet stop', by: raw.by.slice(0, 200) };
    } catch {
      return; // half-written: the next look reads it whole (it is written atomically, so this is rare)
    }
    drop();
    if (req) onRequest(req, stop.ask(req));
  }, STOP_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The coordinator running the fleet now (the live holder of its lock), if any; one on another host counts as running. */
export function runningCoordinator(paths: FleetPaths): { pid: number; host: string; since: string } | undefined {
  const holder = existsSync(paths.lock) ? readLock(paths.lock) : undefined;
  if (!holder || (holder.host === hostname() && !processAlive(holder.pid))) return undefined;
  return { pid: holder.pid, host: holder.host, since: holder.startedAt };
}

/** The `fleet stop` command's side: the request written for the fleet's running coordinator, and picked up (or why not). */
export async function requestStop(paths: FleetPaths, mode: StopRequest['mode'], by: string, waitMs = 10_000): Promise<{ pid: number }> {
  const holder = runningCoordinator(paths);
  if (!holder) {
    throw new InputError('fleet.not-running', `No coordinator runs fleet ${paths.dir}: there is nothing to stop.`, { hint: '`upgrade-pilot fleet status --fleet FILE` shows where it stands; `fleet resume` continues it.' });
  }
  if (holder.host !== hostname()) {
    throw new InputError('fleet.other-host', `Fleet ${paths.dir} runs on ${holder.host} (pid ${holder.pid}), not here.`, { hint: `Run \`fleet stop\` on ${holder.host}.` });
  }
  const file = requestFile(paths);
  writeFileAtomic(file, JSON.stringify({ mode, by, at: new Date().toISOString() }));
  for (const started = Date.now(); existsSync(file); ) {
    if (Date.now() - started > waitMs) {
      try {
        unlinkSync(file);
      } catch {
        // taken just now
      }
      throw new InputError('fleet.stop-unanswered', `The coordinator of ${paths.dir} (pid ${holder.pid}) did not pick up the stop in ${Math.round(waitMs / 1000)} s.`, { hint: `Send it a signal instead: kill -TERM ${holder.pid} (stops at once, as --now).` });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pid: holder.pid };
}
