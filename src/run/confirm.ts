/** The two answers to `confirm`: a policy from the flags (plain mode), or the flags then the operator (TUI). */
import { decideByPolicy, unattendedAnswer, type Approvals } from '../engine/approval-policy.js';
import type { ConfirmFn } from '../engine/gate.js';
import type { ConfirmQueue } from './confirm-queue.js';

const stamp = () => new Date().toISOString();

/** Plain mode: what the flags do not approve is `pending` (the run stops at exit 3, naming the flag). */
export function plainConfirm(approvals: Approvals, rehearsal: boolean): ConfirmFn {
  return async (request) => {
    const answer = unattendedAnswer(request) ?? decideByPolicy(request, approvals, rehearsal);
    if (answer.choice === 'ask') return { choice: 'pending', by: 'flag', at: stamp() };
    return { choice: answer.choice, by: answer.by, at: stamp() };
  };
}

/**
 * TUI: explicit flags still count; everything else is asked on screen. In a rehearsal the gate is
 * shown for information and continues on Enter, recorded as a rehearsal decision.
 */
export function tuiConfirm(queue: ConfirmQueue, approvals: Approvals, rehearsal: boolean): ConfirmFn {
  return async (request, signal) => {
    if (rehearsal && request.informational) return queue.confirm(request, signal).then((d) => ({ ...d, by: 'rehearsal' as const }));
    if (rehearsal) {
      const shown = { ...request, options: [{ choice: 'approve' as const, label: 'Continue (rehearsal: nothing is sent)', key: 'c' }], safeChoice: 'approve' as const };
      const { confirmText: _c, ...withoutTyping } = shown;
      await queue.confirm(withoutTyping, signal);
      return { choice: 'approve', by: 'rehearsal', at: stamp() };
    }
    const answer = decideByPolicy(request, approvals, false);
    if (answer.choice !== 'ask') return { choice: answer.choice, by: answer.by, at: stamp() };
    return queue.confirm(request, signal);
  };
}
