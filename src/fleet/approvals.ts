/**
 * The run's approvals: what the fleet was started with (the command line's `--approve*` flags,
 * beside the fleet file's stage policies frozen in the plan), journaled at the start and used again
 * by `fleet resume` and `fleet retry` without repeating them. A flag given to a resume adds to them;
 * `--revoke` takes one away, from the flags and the stage policies alike. Pure.
 */
import { basename } from 'node:path';
import { approvalFlagsText, type Approvals, type WrittenPolicy } from '../engine/approval-policy.js';
import type { PlannedStage, RunApprovals } from './types.js';
export type { RunApprovals } from './types.js';

export const noRunApprovals: RunApprovals = { gates: [], restarts: [], allRestarts: false, skipRestarts: [], acceptFixes: [], revoked: [] };

/** The approvals the command line gives (its settings' own), as a run's. */
export function flagApprovals(a: Approvals): RunApprovals {
  return { gates: [...a.gates], restarts: [...a.restarts], allRestarts: a.allRestarts, skipRestarts: [...a.skipRestarts], acceptFixes: [...(a.acceptFixes ?? [])], revoked: [] };
}

/** The approvals as the flags that give them: `--approve draft,publish --approve-all-restarts` (`none` when nothing). */
export function approvalsText(a: RunApprovals): string {
  const flags = approvalFlagsText({ gates: a.gates, restarts: a.restarts, allRestarts: a.allRestarts, skipRestarts: a.skipRestarts, acceptFixes: a.acceptFixes });
  return flags || 'none';
}

export interface Amended {
  approvals: RunApprovals;
  /** What the flags added, as the flags (`--approve-restart vms/db-1`). */
  added: string[];
  /** What --revoke took away, in words (`apply`, `restarts`, `vms/db-1`). */
  revoked: string[];
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/**
 * A resume's or retry's flags over the run's approvals: what they name is added, what `--revoke`
 * names is taken away (from the flags, and from every stage policy that approves it). A revoke of
 * something nothing approves, or of something the same command approves, is a mistake: thrown as
 * a sentence for the command to report (nothing is changed).
 */
export function amendApprovals(run: RunApprovals, flags: RunApprovals, revoke: readonly string[], stages: readonly PlannedStage[]): Amended {
  const added = [
    ...flags.gates.filter((g) => !run.gates.includes(g)).map((g) => `--approve ${g}`),
    ...flags.restarts.filter((v) => !run.restarts.includes(v)).map((v) => `--approve-restart ${v}`),
    ...(flags.allRestarts && !run.allRestarts ? ['--approve-all-restarts'] : []),
    ...flags.skipRestarts.filter((v) => !run.skipRestarts.includes(v)).map((v) => `--skip-restart ${v}`),
    ...flags.acceptFixes.filter((id) => !run.acceptFixes.includes(id)).map((id) => `--accept-fix ${id}`),
  ];
  const next: RunApprovals = {
    gates: unique([...run.gates, ...flags.gates]),
    restarts: unique([...run.restarts, ...flags.restarts]),
    allRestarts: run.allRestarts || flags.allRestarts,
    skipRestarts: unique([...run.skipRestarts, ...flags.skipRestarts]),
    acceptFixes: unique([...run.acceptFixes, ...flags.acceptFixes]),
    // A gate approved again by a flag is the flag's now; the stage policy's revoke stays recorded.
    revoked: [...run.revoked],
  };
  const revoked: string[] = [];
  for (const r of unique(revoke)) {
    if (r === 'restarts') {
      if (flags.allRestarts || flags.restarts.length) throw new Error('--revoke restarts and a restart approval on the same command contradict each other');
      const byPolicy = stages.some((s) => s.restarts === 'approve') && !next.revoked.includes('restarts');
      if (!next.allRestarts && next.restarts.length === 0 && !byPolicy) throw new Error('--revoke restarts: the run approves no VM restart');
      next.allRestarts = false;
      next.restarts = [];
      if (byPolicy) next.revoked.push('restarts');
    } else if (r.includes('/')) {
      if (flags.restarts.includes(r) || flags.skipRestarts.includes(r)) throw new Error(`--revoke ${r} and a flag naming ${r} on the same command contradict each other`);
      if (!next.restarts.includes(r) && !next.skipRestarts.includes(r)) throw new Error(`--revoke ${r}: the run neither approves nor skips the restart of ${r}`);
      next.restarts = next.restarts.filter((v) => v !== r);
      next.skipRestarts = next.skipRestarts.filter((v) => v !== r);
    } else {
      if (flags.gates.includes(r)) throw new Error(`--revoke ${r} and --approve ${r} on the same command contradict each other`);
      const byPolicy = stages.some((s) => (s.approve ?? []).includes(r)) && !next.revoked.includes(r);
      if (!next.gates.includes(r) && !byPolicy) throw new Error(`--revoke ${r}: the run does not approve ${r} (${approvalsText(next)})`);
      next.gates = next.gates.filter((g) => g !== r);
      if (byPolicy) next.revoked.push(r);
    }
    revoked.push(r);
  }
  return { approvals: next, added, revoked };
}

/** Where a stage is written, for the record: `fleet.yaml:42`. */
export const stageWhere = (s: Pick<PlannedStage, 'at'>) => (s.at ? `${basename(s.at.file)}:${s.at.line}` : undefined);

/** A stage's written policy as the run holds it now (less what was revoked); undefined when it approves nothing. */
export function stagePolicy(fleet: string, stage: Pick<PlannedStage, 'name' | 'approve' | 'restarts' | 'at'>, revoked: readonly string[] = []): WrittenPolicy | undefined {
  const gates = (stage.approve ?? []).filter((g) => !revoked.includes(g));
  const allRestarts = stage.restarts === 'approve' && !revoked.includes('restarts');
  const where = stageWhere(stage);
  return gates.length || allRestarts ? { name: `fleet ${fleet}, stage ${stage.name}${where ? ` (${where})` : ''}`, gates, allRestarts } : undefined;
}

/** A stage policy in words for status and the report: `approves draft, publish; restarts approved (fleet.yaml:42)`. */
export function stagePolicyText(stage: Pick<PlannedStage, 'name' | 'approve' | 'restarts' | 'at'>, revoked: readonly string[] = []): string {
  const p = stagePolicy('', stage, revoked);
  const took = [...(stage.approve ?? []).filter((g) => revoked.includes(g)), ...(stage.restarts === 'approve' && revoked.includes('restarts') ? ['restarts'] : [])];
  const where = stageWhere(stage);
  const parts = p ? [...(p.gates.length ? [`approves ${p.gates.join(', ')}`] : []), ...(p.allRestarts ? ['restarts approved'] : [])] : ['approves nothing'];
  return `${parts.join('; ')}${took.length ? ` (revoked: ${took.join(', ')})` : ''}${where ? ` [${where}]` : ''}`;
}
