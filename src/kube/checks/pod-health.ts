import type { Pod } from '../schemas.js';

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
