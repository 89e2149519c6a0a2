/**
 * What the gate that sets a hop in motion (the spec's publish, Palette's apply) says about the
 * window: how long, how many move and how many go down, and what the plan flagged (migrations that
 * may not converge, VMs whose own limits the hop breaks), so the operator approves knowing it.
 */
import type { PlannedHop, VmImpact } from '../../contracts.js';

export function windowGateLines(hop: PlannedHop | undefined, impact: readonly VmImpact[] | undefined): string[] {
  if (!hop?.eta) return [];
  const lines = [`This hop takes ${hop.eta.summary}.`];
  const stall = (impact ?? []).filter((i) => i.mayNotConverge?.length).map((i) => i.vm);
  if (stall.length) lines.push(`May not converge (KubeVirt aborts and retries them): ${stall.slice(0, 5).join(', ')}${stall.length > 5 ? ` and ${stall.length - 5} more` : ''}; see the plan for the remedies.`);
  const broken = (impact ?? []).filter((i) => i.limitsBroken?.length).map((i) => i.vm);
  const tight = hop.room?.nodes.filter((n) => n.unplaced.length) ?? [];
  if (tight.length) lines.push(`Nodes are rebuilt, and VMs on ${tight.length} node(s) fit nowhere else while it drains: ${tight.slice(0, 3).map((n) => `${n.node} (${n.unplaced.length} of ${n.leaving})`).join(', ')}${tight.length > 3 ? ` and ${tight.length - 3} more` : ''} (see the plan).`);
  if (broken.length) lines.push(`Breaks the limits their owners set: ${broken.slice(0, 5).join(', ')}${broken.length > 5 ? ` and ${broken.length - 5} more` : ''} (see the plan).`);
  return lines;
}
