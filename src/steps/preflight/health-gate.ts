/**
 * The `health` gate: a cluster that is not fit to be upgraded (a NotReady node, degraded storage,
 * crash-looping pods, a leaked address, KubeVirt not Available) stops the run before its first
 * write, as kubeadm's failed preflight checks and Harvester's pre-check do, unless the operator
 * goes on knowingly: every problem is listed, and approving takes typing the cluster's name in the
 * TUI (`--approve health` in plain mode). A rehearsal shows it and goes on.
 */
import { StoppedError } from '../../errors.js';
import type { StepContext } from '../../engine/context.js';
import { approveOrDecline } from '../../engine/gate.js';
import type { PreflightItem } from './types.js';

export const HEALTH_GATE_KEY = 'preflight/health';

/** Asks to go on despite the red health panels; throws when the operator does not. */
export async function askHealthGate(ctx: StepContext<unknown>, reds: PreflightItem[]): Promise<void> {
  const site = ctx.site!;
  const name = site.cluster.name ?? site.cluster.uid;
  const facts = reds.flatMap((i) => (i.lines.length ? i.lines : [i.summary]).map((l) => `${i.title}: ${l}`));
  const checks = reds.map((r) => r.title).join(', ');
  const fix = `Fix what the red checks say (${checks}), then start again.`;
  const decision = await ctx.confirm({
    gate: 'health',
    key: HEALTH_GATE_KEY,
    title: `${name} is not healthy: upgrade it anyway?`,
    lines: [
      `Preflight found ${facts.length} problem(s) in ${reds.length} red check(s) on ${name}; nothing has been changed yet.`,
      'An upgrade rolls every KubeVirt component and moves every running VM: on an unwell cluster migrations fail, VMs land on the old launcher and the rollout may never settle.',
      'Fix them and start again, or go on knowingly: the apply and node-rebuild gates will say again which of them still hold.',
    ],
    items: facts,
    options: approveOrDecline('Upgrade anyway (the problems are known)'),
    safeChoice: 'abort',
    ifStopped: `nothing has been changed: ${name} stays as it is, with these problems; fix them and start again, or resume and approve knowingly.`,
    confirmText: name,
    fix,
  });
  if (decision.choice !== 'approve') {
    throw new StoppedError(`Stopped before any change: the upgrade of ${name} while it is not healthy was declined (${checks}).`, { fix, next: `Or, having read them, go on knowingly: resume and type ${name} at the health gate (plain mode: --approve health).` }, 'stopped.health');
  }
}
