/**
 * The `health` gate: a cluster that is not fit to be upgraded (a NotReady node, degraded storage,
 * crash-looping pods, a leaked address, KubeVirt not Available) stops the run before its first
 * write, as kubeadm's failed preflight checks and Harvester's pre-check do, unless the operator
 * goes on knowingly: every problem is listed, and approving takes typing the cluster's name in the
 * TUI (`--approve health` in plain mode). A rehearsal shows it and goes on.
 */
import { InterruptedError } from '../../errors.js';
import type { StepContext } from '../../engine/context.js';
import { approveOrDecline } from '../../engine/gate.js';
import type { PreflightItem } from './types.js';

export const HEALTH_GATE_KEY = 'preflight/health';

/** Asks to go on despite the red health panels; throws when the operator does not. */
export async function askHealthGate(ctx: StepContext<unknown>, reds: PreflightItem[]): Promise<void> {
  const site = ctx.site!;
  const name = site.cluster.name ?? site.cluster.uid;
  const facts = reds.flatMap((i) => (i.lines.length ? i.lines : [i.summary]).map((l) => `${i.title}: ${l}`));
  const decision = await ctx.confirm({
    gate: 'health',
    key: HEALTH_GATE_KEY,
    title: `${name} is not healthy: upgrade it anyway?`,
    lines: [
      `Preflight found ${facts.length} problem(s) on ${name}; nothing has been changed yet.`,
      'An upgrade rolls every KubeVirt component and moves every running VM: on an unwell cluster migrations fail, VMs land on the old launcher and the rollout may never settle.',
      'Fix them and start again, or go on knowingly: the apply and node-rebuild gates will say again which of them still hold.',
    ],
    items: facts,
    options: approveOrDecline('Upgrade anyway (the problems are known)'),
    safeChoice: 'abort',
    ifStopped: `nothing has been changed: ${name} stays as it is, with these problems; fix them and start again, or resume and approve knowingly.`,
    confirmText: name,
  });
  if (decision.choice !== 'approve') {
    throw new InterruptedError(`Stopped before any change: ${name} is not healthy (${reds.map((r) => r.title).join(', ')}).`, `Fix what the red panels say and start again, or resume and go on knowingly (type ${name} at the gate; plain mode: --approve health).`);
  }
}
