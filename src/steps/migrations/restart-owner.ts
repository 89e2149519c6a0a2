/**
 * A restart judged against the VM owner's limits the plan read (annotations
 * upgrade-pilot.io/restart-window and max-downtime), at the moment the gate is drawn: outside the
 * window, the restart is approved only by the VM's name, and the gate says when the window opens.
 */
import type { VmImpact } from '../../domain/impact/vm-impact.js';
import { restartDowntimeSeconds } from '../../domain/window/estimate.js';
import { nextOpening, openingText, parseRestartWindow, restartWindowAnnotation } from '../../domain/impact/vm-limits.js';
import type { OwnerVerdict } from './restart-gate.js';
import { roughDuration } from '../../text/duration.js';

export function ownerVerdict(impact: VmImpact | undefined, nowMs: number): OwnerVerdict | undefined {
  if (!impact) return undefined;
  const verdict: OwnerVerdict = {};
  const unreadable = impact.limitsBroken?.find((b) => b.includes(restartWindowAnnotation) && b.startsWith('cannot read'));
  if (unreadable) verdict.outside = `its ${restartWindowAnnotation} cannot be read (fix the annotation)`;
  const text = impact.ownLimits?.restartWindow;
  if (text) {
    const w = parseRestartWindow(text);
    if (typeof w !== 'string') {
      const opens = nextOpening(w, nowMs);
      if (opens !== undefined) verdict.outside = `outside its restart window "${w.text}"; the window opens ${openingText(w, opens)}`;
    }
  }
  const max = impact.ownLimits?.maxDowntimeSeconds;
  if (max !== undefined && restartDowntimeSeconds > max) verdict.downtime = `Its owner allows at most ${roughDuration(max)} of downtime; a restart usually costs about ${roughDuration(restartDowntimeSeconds)}.`;
  return verdict.outside || verdict.downtime ? verdict : undefined;
}
