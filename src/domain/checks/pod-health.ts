import type { Pod } from '../../kube/schemas.js';
import { pastNote, podFailedAt, preExisting, type Timeline } from './history.js';

/** Why a pod is not healthy (Running with every container ready, or Succeeded), or undefined. */
export function podProblem(pod: Pod): string | undefined {
  const phase = pod.status?.phase ?? 'Unknown';
  if (phase === 'Succeeded') return undefined;
  const waiting = pod.status?.containerStatuses?.find((c) => c.state?.waiting?.reason);
  const restarts = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount));
  if (waiting?.state?.waiting?.reason) return `${waiting.state.waiting.reason}${restarts ? ` (restarts ${restarts})` : ''}`;
  if (phase !== 'Running') return `${phase}${pod.status?.reason ? ` (${pod.status.reason})` : ''}`;
  const notReady = (pod.status?.containerStatuses ?? []).filter((c) => !c.ready).map((c) => c.name);
  if (notReady.length) return `Running, not Ready (${notReady.join(', ')})`;
  return undefined;
}

export type PodVerdict = { kind: 'ok' } | { kind: 'problem'; text: string } | { kind: 'pre-existing'; text: string };

/**
 * A pod judged for this upgrade: a Failed pod (evicted, a Job's that gave up) that failed before
 * the session is the cluster's past, listed with its age; anything wrong now is a problem.
 */
export function judgePod(pod: Pod, t: Timeline): PodVerdict {
  const problem = podProblem(pod);
  if (!problem) return { kind: 'ok' };
  if (pod.status?.phase === 'Failed') {
    const at = podFailedAt(pod);
    if (preExisting(at, t)) return { kind: 'pre-existing', text: `${problem} ${pastNote(at, t)} (pre-existing)` };
  }
  return { kind: 'problem', text: problem };
}
