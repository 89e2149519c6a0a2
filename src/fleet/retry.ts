/**
 * `fleet retry CLUSTER` and `fleet skip CLUSTER`: one cluster of the plan run again (its session
 * continued as a new attempt, with the run's approvals, named), or left out with a reason. The stage
 * itself is the next `fleet resume`'s.
 */
import { ExitCode, InputError } from '../errors.js';
import { approvalsText, stagePolicyText } from './approvals.js';
import { whoAmI, type CoordinatorOptions } from './run-options.js';
import type { FleetJournal } from './journal.js';
import type { Say } from './fleet-run.js';
import { StageRun } from './stage-run.js';
import type { ClusterState, FleetState } from './types.js';

const codeOf: Record<string, ExitCode> = { done: ExitCode.ok, failed: ExitCode.failed, gate: ExitCode.gate, stopped: ExitCode.gate, unwatched: ExitCode.gate };

/** The cluster a `retry` or `skip` names, or why it cannot be. */
export function namedCluster(state: FleetState, action: 'retry' | 'skip', name: string | undefined): ClusterState {
  const c = state.clusters.find((x) => x.name === name);
  if (!name || !c) throw new InputError('fleet.cluster', `fleet ${action} needs a cluster of the plan${name ? `; ${name} is not one` : ''}.`, { hint: `Clusters: ${state.clusters.map((x) => x.name).join(', ')}.` });
  return c;
}

export function skipCluster(journal: FleetJournal, name: string | undefined, reason: string | undefined, say: Say): void {
  const c = namedCluster(journal.state()!, 'skip', name);
  if (!reason) throw new InputError('usage.reason', 'fleet skip needs --reason TEXT (it goes into the report).', { hint: 'e.g. --reason "store closed for renovation"' });
  if (c.status === 'done') throw new InputError('fleet.skip-done', `${c.name} is upgraded already: nothing to skip.`, { hint: 'See `fleet status`.' });
  if (c.status === 'unwatched') throw new InputError('fleet.skip-unwatched', `${c.name} was applied and its rollout continues unwatched: skipping it would leave it so.`, { hint: '`fleet resume` watches it to a safe point first; skip it after, if it fails.' });
  journal.append({ type: 'cluster.skipped', at: new Date().toISOString(), cluster: c.name, reason, by: whoAmI() });
  say({ type: 'cluster.skipped', cluster: c.name, reason }, `${c.name}: skipped (${reason})`);
}

/** Checked before anything is journaled: a cluster that cannot be retried says why. */
export function checkRetry(state: FleetState, name: string | undefined): ClusterState {
  const c = namedCluster(state, 'retry', name);
  if (c.status === 'done' || c.status === 'skipped' || c.status === 'pending' || c.status === 'vanished') {
    throw new InputError('fleet.retry', `${c.name} is ${c.status}: only a failed or stopped cluster is retried.`, { hint: c.status === 'pending' ? 'It has not run yet: `fleet resume` runs it in its stage.' : 'See `fleet status`.' });
  }
  return c;
}

export async function retryCluster(o: CoordinatorOptions, name: string): Promise<ExitCode> {
  const state = o.journal.state()!;
  const c = checkRetry(state, name);
  const stage = state.stages.find((s) => s.name === c.stage)!;
  o.say(
    { type: 'retry', cluster: c.name, session: c.session ?? null, attempt: c.attempts + 1, approvals: o.approvals, policy: stagePolicyText(stage, o.approvals.revoked) },
    `${c.name}: retry ${c.attempts + 1} of session ${c.session ?? '(new)'}, reusing the run's approvals (${approvalsText(o.approvals)}) and stage ${stage.name}'s policy (${stagePolicyText(stage, o.approvals.revoked)})`,
  );
  const ended = await new StageRun(o, stage).retry(c);
  if (o.stopRequest()?.how === 'signal') return ExitCode.interrupted;
  return codeOf[ended.status] ?? ExitCode.failed;
}
