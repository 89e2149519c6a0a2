/**
 * Which gates the command line already answered. Pure, and tested with tables: nothing disruptive
 * is ever approved implicitly; VM restarts only per VM or with the explicit all-restarts switch.
 */
import type { Choice, GateRequest } from './gate.js';

export interface Approvals {
  /** Gate names from --approve. */
  gates: string[];
  /** `namespace/name` from --approve-restart. */
  restarts: string[];
  allRestarts: boolean;
  /** `namespace/name` from --skip-restart. */
  skipRestarts: string[];
}

export const noApprovals: Approvals = { gates: [], restarts: [], allRestarts: false, skipRestarts: [] };

export type PolicyAnswer = { choice: Choice; by: 'flag' | 'rehearsal' } | { choice: 'ask' };

/** Plain mode: a gate that approves nothing takes its safe choice instead of stopping the run. */
export function unattendedAnswer(request: GateRequest): PolicyAnswer | undefined {
  return request.informational ? { choice: request.safeChoice, by: 'flag' } : undefined;
}

export function decideByPolicy(request: GateRequest, approvals: Approvals, rehearsal: boolean): PolicyAnswer {
  // A rehearsal sends nothing, so its gates need no approval; they are still shown or listed.
  if (rehearsal) return { choice: 'approve', by: 'rehearsal' };
  if (request.gate === 'restart') {
    const vm = request.subject ? `${request.subject.namespace}/${request.subject.name}` : undefined;
    if (!vm) return { choice: 'ask' };
    if (approvals.skipRestarts.includes(vm)) return { choice: 'skip', by: 'flag' };
    if (approvals.allRestarts || approvals.restarts.includes(vm)) return { choice: 'approve', by: 'flag' };
    return { choice: 'ask' };
  }
  return approvals.gates.includes(request.gate) ? { choice: 'approve', by: 'flag' } : { choice: 'ask' };
}
