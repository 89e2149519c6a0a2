/**
 * What this upgrade did, told apart from the cluster's past. Real clusters keep finished
 * migrations (KubeVirt keeps five per VMI) and Failed pods (evictions, Jobs that gave up) for
 * days; a failure that ended before the session began is the cluster's history, listed with its
 * age (amber), never blamed on this upgrade (red). Without a start to compare with, every
 * recorded failure is history. Pure: the verdicts are tested with tables.
 */
import { formatDuration } from '../../text/duration.js';
import type { Pod, Vmim } from '../../kube/schemas.js';

export interface Timeline {
  /** When this upgrade began (cluster clock, ms); failures that ended before it are pre-existing. Absent: none is blamed on it. */
  since?: number;
  /** The cluster clock's now, for ages. */
  now: number;
}

const time = (ts: string | undefined): number | undefined => {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  return Number.isFinite(t) ? t : undefined;
};

const latest = (times: Array<number | undefined>): number | undefined => {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length ? Math.max(...known) : undefined;
};

/**
 * When a pod failed, as precisely as its status tells: the latest condition change or container
 * end (an eviction since Kubernetes 1.26 adds a `DisruptionTarget` condition; a failed Job's
 * container has `finishedAt`). Older kubelets leave only `startTime` on an evicted pod: it failed
 * after that, at a time nobody recorded, so its start stands in for it.
 */
export function podFailedAt(pod: Pod): number | undefined {
  const s = pod.status;
  const recorded = latest([...(s?.conditions ?? []).map((c) => time(c.lastTransitionTime)), ...(s?.containerStatuses ?? []).map((c) => time(c.state?.terminated?.finishedAt))]);
  return recorded ?? time(s?.startTime) ?? time(pod.metadata.creationTimestamp);
}

/** When a migration ended (its own end stamp), else when it was made. */
export const migrationEndedAt = (m: Vmim): number | undefined => time(m.status?.migrationState?.endTimestamp) ?? time(m.metadata.creationTimestamp);

export const createdAt = (o: { metadata: { creationTimestamp?: string | undefined } }): number | undefined => time(o.metadata.creationTimestamp);

/** A failure at `at` happened before this upgrade (or no start is known): history, not this upgrade's doing. */
export function preExisting(at: number | undefined, t: Timeline): boolean {
  if (t.since === undefined) return true;
  return at !== undefined && at < t.since;
}

/** `7d ago, before this session` / `3h12m ago`: how an entry of the cluster's past is shown. */
export function pastNote(at: number | undefined, t: Timeline): string {
  const age = at === undefined ? 'at an unknown time' : `${formatDuration(Math.max(0, t.now - at), 'rough')} ago`;
  return t.since === undefined ? age : `${age}, before this session`;
}

/** The timeline of a verification: its start, and the cluster clock's now (this machine's when not given). */
export const timelineOf = (e: { since?: number | undefined; now?: number | undefined }): Timeline => ({ ...(e.since !== undefined ? { since: e.since } : {}), now: e.now ?? Date.now() });

export const PRE_EXISTING_HINT = 'Pre-existing failures are the cluster’s past, not this upgrade’s doing: look at them when convenient, and delete the leftovers (kubectl delete pod / vmim) once they are understood.';
