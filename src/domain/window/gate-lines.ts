/**
 * What the gate that sets a hop in motion (the spec's publish, Palette's apply) says about the
 * window: how long (median and pessimistic) against the window booked, which VMs go down (the
 * restarts at the gates, each named, and the evictions), and what the plan flagged (migrations that
 * may not converge, VMs whose own limits the hop breaks), so the operator approves knowing it.
 */
import type { PlannedHop } from '../plan/planned-hop.js';
import type { VmImpact } from '../impact/vm-impact.js';
import { roughDuration } from '../../text/duration.js';
import { windowVerdict } from './window-verdict.js';

/** VMs named on a gate line before the rest are counted (the plan lists them all). */
const NAMED = 5;

const names = (vms: readonly string[]) => `${vms.slice(0, NAMED).join(', ')}${vms.length > NAMED ? ` and ${vms.length - NAMED} more` : ''}`;

export function windowGateLines(hop: PlannedHop | undefined, impact: readonly VmImpact[] | undefined, bookedMs?: number): string[] {
  if (!hop?.eta) return [];
  const lines = [`This hop takes ${hop.eta.summary}.`];
  if (bookedMs !== undefined) lines.push(`Window: p50 ${roughDuration(hop.eta.p50Seconds)}, p90 ${roughDuration(hop.eta.p90Seconds)}; ${windowVerdict(hop.eta.p50Seconds, hop.eta.p90Seconds, bookedMs).text}.`);
  const restarts = (impact ?? []).filter((i) => i.fate === 'restart').map((i) => i.vm);
  if (restarts.length) lines.push(`Restarted after the moves, each at its own gate (downtime): ${names(restarts)}${restarts.length > NAMED ? ' (see the plan)' : ''}.`);
  const evicted = (impact ?? []).filter((i) => i.fate === 'evict').map((i) => i.vm);
  if (evicted.length) lines.push(`Evicted by KubeVirt's workload updater, not asked (downtime): ${names(evicted)}${evicted.length > NAMED ? ' (see the plan)' : ''}.`);
  const stall = (impact ?? []).filter((i) => i.mayNotConverge?.length).map((i) => i.vm);
  if (stall.length) lines.push(`May not converge (KubeVirt aborts and retries them): ${names(stall)}; see the plan for the remedies.`);
  const broken = (impact ?? []).filter((i) => i.limitsBroken?.length).map((i) => i.vm);
  const tight = hop.room?.nodes.filter((n) => n.unplaced.length) ?? [];
  if (tight.length) lines.push(`Nodes are rebuilt, and VMs on ${tight.length} node(s) fit nowhere else while it drains: ${tight.slice(0, 3).map((n) => `${n.node} (${n.unplaced.length} of ${n.leaving})`).join(', ')}${tight.length > 3 ? ` and ${tight.length - 3} more` : ''} (see the plan).`);
  if (broken.length) lines.push(`Breaks the limits their owners set: ${names(broken)} (see the plan).`);
  return lines;
}
