/** The two answers to `confirm`: a policy from the flags (plain mode), or the flags then the operator (TUI). */
import { decideByPolicy, fixesByFlag, unattendedAnswer, type Approvals, type PolicyAnswer } from '../engine/approval-policy.js';
import type { ConfirmFn, Decision } from '../engine/gate.js';
import type { ConfirmQueue } from '../screens/confirm-queue.js';

const stamp = () => new Date().toISOString();

/** The decision a policy answer stands for, naming its source exactly (the flag, or the rule). */
function decisionOf(answer: Exclude<PolicyAnswer, { choice: 'ask' }>): Decision {
  if (answer.by === 'flag') return { choice: answer.choice, by: 'flag', flag: answer.flag, at: stamp() };
  return { choice: answer.choice, by: answer.by, policy: answer.policy, at: stamp() };
}

/** `--accept-fix` answers a review that offers the fixes it names: apply them and review again. */
function byFixFlags(request: Parameters<ConfirmFn>[0], approvals: Approvals): Decision | undefined {
  const fixes = fixesByFlag(request, approvals);
  return fixes ? { choice: 'skip', by: 'flag', flag: fixes.flag, at: stamp(), data: { acceptFixes: fixes.ids } } : undefined;
}

/** Plain mode: what the flags do not approve is `pending` (the run stops at exit 3, naming the flag). */
export function plainConfirm(approvals: Approvals, rehearsal: boolean): ConfirmFn {
  return async (request) => {
    const fixes = byFixFlags(request, approvals);
    if (fixes) return fixes;
    const answer = unattendedAnswer(request) ?? decideByPolicy(request, approvals, rehearsal);
    if (answer.choice === 'ask') return { choice: 'pending', by: 'policy', policy: 'no flag approves this gate', at: stamp() };
    return decisionOf(answer);
  };
}

/**
 * TUI: explicit flags still count; everything else is asked on screen. In a rehearsal the gate is
 * shown for information and continues on Enter, recorded as a rehearsal decision.
 */
export function tuiConfirm(queue: ConfirmQueue, approvals: Approvals, rehearsal: boolean): ConfirmFn {
  return async (request, signal) => {
    const fixes = byFixFlags(request, approvals);
    if (fixes) return fixes;
    if (rehearsal && request.informational) return queue.confirm(request, signal).then((d) => ({ ...d, by: 'rehearsal' as const, policy: 'a rehearsal sends nothing' }));
    if (rehearsal) {
      const shown = { ...request, options: [{ choice: 'approve' as const, label: 'Continue (rehearsal: nothing is sent)', key: 'c' }], safeChoice: 'approve' as const };
      const { confirmText: _c, ...withoutTyping } = shown;
      await queue.confirm(withoutTyping, signal);
      return { choice: 'approve', by: 'rehearsal', policy: 'a rehearsal sends nothing, so it needs no approval', at: stamp() };
    }
    const answer = decideByPolicy(request, approvals, false);
    if (answer.choice !== 'ask') return decisionOf(answer);
    return queue.confirm(request, signal);
  };
}

/**
 * A fleet's cluster shown on the fleet screen: the flags answer first; a gate that approves nothing
 * (a review) takes its safe choice as in plain mode, so a fleet of 200 does not stop at 200 reviews
 * its plain run would pass; every other gate waits on the screen for a key, as in the TUI.
 */
export function attachedConfirm(queue: ConfirmQueue, approvals: Approvals, rehearsal: boolean): ConfirmFn {
  const asked = tuiConfirm(queue, approvals, rehearsal);
  return async (request, signal) => {
    const unattended = byFixFlags(request, approvals) ? undefined : unattendedAnswer(request);
    return unattended && unattended.choice !== 'ask' ? decisionOf(unattended) : asked(request, signal);
  };
}
