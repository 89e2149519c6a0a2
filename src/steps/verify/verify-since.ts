/**
 * The start of the upgrade that standalone `verify` judges: `--since` when given, else the start of
 * the latest session that upgraded this cluster (its snapshot, the point in-session verification
 * judges from), else none, and then every recorded failure is the cluster's past. The result says
 * in words which it was, for the output.
 */
import { clockTimeOf, type Clock } from '../../engine/clock.js';
import { steps, type SessionMeta, type SessionState } from '../../engine/state.js';
import type { SinceArg } from './since.js';

export interface ResolvedSince {
  /** Cluster-clock ms; undefined: no start known. */
  at?: number;
  /** Where it came from, one line for the output. */
  source: string;
}

export interface SessionSource {
  /** Session ids, oldest first. */
  ids(): string[];
  /** What a session was created as, read without replaying it (undefined: not readable so). */
  createdMeta(id: string): Pick<SessionMeta, 'cluster' | 'mode'> | undefined;
  load(id: string): SessionState;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The latest session that ran against this cluster for real (a rehearsal changed nothing), newest
 * first. Each session's first record says its cluster and mode: a state dir of many sessions on
 * other clusters costs a line each, and only the one kept is replayed.
 */
function latestSessionOn(store: SessionSource, clusterUid: string): SessionState | undefined {
  for (const id of [...store.ids()].reverse()) {
    let created: Pick<SessionMeta, 'cluster' | 'mode'> | undefined;
    try {
      created = store.createdMeta(id);
    } catch {
      continue; // a session we may not read says nothing about this cluster
    }
    if (created && (created.cluster.uid !== clusterUid || created.mode === 'rehearsal')) continue;
    let state: SessionState;
    try {
      state = store.load(id);
    } catch {
      continue; // a damaged session says nothing about this cluster
    }
    if (state.meta.cluster.uid === clusterUid && state.meta.mode !== 'rehearsal') return state;
  }
  return undefined;
}

export function resolveSince(input: { arg?: SinceArg | undefined; store?: SessionSource | undefined; clusterUid: string; clock: Clock }): ResolvedSince {
  const { arg, clock } = input;
  if (arg?.kind === 'time') return { at: clockTimeOf(clock, arg.at), source: `--since ${arg.text}` };
  if (arg?.kind === 'ago') {
    const at = clock.now() - arg.ms;
    return { at, source: `--since ${arg.text} (${iso(at)}${clock.simulated ? `, ${clock.simulated.label}` : ''})` };
  }
  const session = input.store ? latestSessionOn(input.store, input.clusterUid) : undefined;
  if (!session) return { source: 'no session on this cluster in the state dir: every recorded failure is listed with its age (pass --since TIME to judge from a time)' };
  const snapshot = steps(session).find((s) => s.kind === 'snapshot' && s.status === 'succeeded')?.output as { takenAt?: string } | undefined;
  const taken = snapshot?.takenAt ? Date.parse(snapshot.takenAt) : NaN;
  const at = Number.isFinite(taken) ? taken : clockTimeOf(clock, Date.parse(session.meta.createdAt));
  return { at, source: `the start of session ${session.meta.id}, the latest on this cluster (${iso(at)})` };
}
