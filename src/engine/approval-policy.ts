/**
 * Which gates the command line already answered. Pure, and tested with tables: nothing disruptive
 * is ever approved implicitly; VM restarts only per VM or with the explicit all-restarts switch
 * (which does not cover a VM outside its owner's restart window: that one only by its name).
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
  /** Rule ids from --accept-fix: a rule's fix offered at the customizations review goes into the drafts. */
  acceptFixes?: string[];
  /** A written policy beside the flags: a fleet stage's (`stages[].approve`, `stages[].restarts` of the fleet file). */
  policy?: WrittenPolicy;
}

/** Gates a written policy approves, and whether it approves every VM restart (never one outside its owner's window). */
export interface WrittenPolicy {
  /** Who wrote it, for the record: `fleet vmo-edge, stage wave-2`. */
  name: string;
  gates: string[];
  allRestarts: boolean;
}

export const noApprovals: Approvals = { gates: [], restarts: [], allRestarts: false, skipRestarts: [] };

/** An answer the tool can give without the operator: by a flag (which one, exactly), a rehearsal or a policy. */
export type PolicyAnswer =
  | { choice: Choice; by: 'flag'; flag: string }
  | { choice: Choice; by: 'rehearsal' | 'policy'; policy: string }
  | { choice: 'ask' };

/** Plain mode: a gate that approves nothing takes its safe choice instead of stopping the run. */
export function unattendedAnswer(request: GateRequest): PolicyAnswer | undefined {
  return request.informational ? { choice: request.safeChoice, by: 'policy', policy: 'unattended: an informational gate takes its safe choice' } : undefined;
}

export function decideByPolicy(request: GateRequest, approvals: Approvals, rehearsal: boolean): PolicyAnswer {
  // A rehearsal sends nothing, so its gates need no approval; they are still shown or listed.
  if (rehearsal) return { choice: 'approve', by: 'rehearsal', policy: 'a rehearsal sends nothing, so it needs no approval' };
  const byFlags = decideByFlags(request, approvals);
  return byFlags.choice === 'ask' && approvals.policy ? decideByWritten(request, approvals.policy) : byFlags;
}

/** A written policy answers what no flag did: the gates it names, and restarts only as the all-restarts switch would. */
function decideByWritten(request: GateRequest, p: WrittenPolicy): PolicyAnswer {
  if (request.gate === 'restart') {
    return p.allRestarts && request.subject && !request.byNameOnly ? { choice: 'approve', by: 'policy', policy: `${p.name}: restarts: approve` } : { choice: 'ask' };
  }
  return p.gates.includes(request.gate) ? { choice: 'approve', by: 'policy', policy: `${p.name}: approve ${request.gate}` } : { choice: 'ask' };
}

function decideByFlags(request: GateRequest, approvals: Approvals): PolicyAnswer {
  if (request.gate === 'restart') {
    const vm = request.subject ? `${request.subject.namespace}/${request.subject.name}` : undefined;
    if (!vm) return { choice: 'ask' };
    if (approvals.skipRestarts.includes(vm)) return { choice: 'skip', by: 'flag', flag: `--skip-restart ${vm}` };
    if (approvals.restarts.includes(vm)) return { choice: 'approve', by: 'flag', flag: `--approve-restart ${vm}` };
    // A VM outside its owner's restart window is restarted only when approved by its name.
    if (approvals.allRestarts && !request.byNameOnly) return { choice: 'approve', by: 'flag', flag: '--approve-all-restarts' };
    return { choice: 'ask' };
  }
  return approvals.gates.includes(request.gate) ? { choice: 'approve', by: 'flag', flag: `--approve ${request.gate}` } : { choice: 'ask' };
}

/**
 * The fixes a review offers that `--accept-fix` chooses and that are not chosen yet (the review is
 * then answered "apply and review again", by these flags). Undefined when the flags choose nothing new.
 */
export function fixesByFlag(request: Pick<GateRequest, 'offers'>, approvals: Approvals): { ids: string[]; flag: string } | undefined {
  const open = new Set((request.offers ?? []).filter((o) => !o.accepted).map((o) => o.id));
  const ids = [...new Set((approvals.acceptFixes ?? []).filter((id) => open.has(id)))];
  return ids.length ? { ids, flag: ids.map((id) => `--accept-fix ${id}`).join(' ') } : undefined;
}

/** A written policy in words: `(fleet vmo-edge, stage wave-2: approve draft,publish; restarts: approve)`. */
export function writtenPolicyText(p: WrittenPolicy): string {
  const parts = [...(p.gates.length ? [`approve ${p.gates.join(',')}`] : []), ...(p.allRestarts ? ['restarts: approve'] : [])];
  return `(${p.name}: ${parts.length ? parts.join('; ') : 'approves nothing'})`;
}

/** The approvals as the flags that gave them (`--approve draft,publish --skip-restart vms/db-1`), for the record. */
export function approvalFlagsText(a: Approvals): string {
  return [
    ...(a.gates.length ? [`--approve ${a.gates.join(',')}`] : []),
    ...a.restarts.map((vm) => `--approve-restart ${vm}`),
    ...(a.allRestarts ? ['--approve-all-restarts'] : []),
    ...a.skipRestarts.map((vm) => `--skip-restart ${vm}`),
    ...(a.acceptFixes ?? []).map((id) => `--accept-fix ${id}`),
    ...(a.policy ? [writtenPolicyText(a.policy)] : []),
  ].join(' ');
}
