/**
 * Which VMs the plan's predicted fate would hold against their owners' limits (pure): a restart
 * or an eviction longer than `max-downtime`, or coming outside `restart-window` (a restart at the
 * gates after the hop, an eviction by the workload updater during it), and annotations that cannot
 * be read (a restart of such a VM is approved only by its name, as one outside its window).
 */
import type { VmImpact } from './vm-impact.js';
import { inWindow, nextOpening, openingText, type OwnLimits } from './vm-limits.js';
import { roughDuration } from '../../text/duration.js';

const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/**
 * The fields a VM's impact gains from its owner's limits, for a hop published at `nowMs`: its
 * migrations start after the rollout, its restarts come at the gates once the hop is done.
 */
export function ownLimitFields(i: VmImpact, limits: OwnLimits, nowMs: number, hop: { rolloutSeconds: number; totalSeconds: number }): Pick<VmImpact, 'ownLimits' | 'limitsBroken'> {
  const own = { ...(limits.maxDowntimeSeconds !== undefined ? { maxDowntimeSeconds: limits.maxDowntimeSeconds } : {}), ...(limits.restartWindow ? { restartWindow: limits.restartWindow.text } : {}) };
  const broken = [...limits.problems.map((p) => `cannot read ${p}; until it is fixed, its restart is approved only by its name`)];
  const down = i.predicted?.downtimeSeconds;
  if (down !== undefined && limits.maxDowntimeSeconds !== undefined && down > limits.maxDowntimeSeconds) {
    broken.push(`its ${i.fate === 'evict' ? 'eviction' : 'restart'} costs about ${roughDuration(down)} of downtime, more than its max-downtime of ${roughDuration(limits.maxDowntimeSeconds)}`);
  }
  const w = limits.restartWindow;
  if (w && (i.fate === 'restart' || i.fate === 'evict')) {
    const when = nowMs + (i.fate === 'restart' ? hop.totalSeconds : hop.rolloutSeconds + (i.predicted?.startSeconds ?? 0)) * 1000;
    if (!inWindow(w, when)) {
      const opens = nextOpening(w, when);
      broken.push(
        i.fate === 'restart'
          ? `its restart would come at about ${clock(when)}, outside its restart window "${w.text}"${opens ? ` (it opens ${openingText(w, opens)})` : ''}: the restart gate says so, and plain mode restarts it only with --approve-restart ${i.vm}`
          : `KubeVirt would evict it at about ${clock(when)}, outside its restart window "${w.text}": run the hop inside the window, or keep it from eviction (evictionStrategy) and restart it at the gate`,
      );
    }
  }
  return { ...(Object.keys(own).length ? { ownLimits: own } : {}), ...(broken.length ? { limitsBroken: broken } : {}) };
}
