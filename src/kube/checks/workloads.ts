/** 9.3.3: all VM instances Running, none on an outdated launcher, every migration Succeeded. */
import { OUTDATED_LABEL } from '../schemas.js';
import type { VerifyData, VerifyExpectations } from './types.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

export function checkWorkloads(data: VerifyData, exp: VerifyExpectations): Verdict {
  const blocked = unreadable(data.vmis, data.migrations);
  if (blocked) return blocked;
  const vmis = value(data.vmis);
  const migrations = value(data.migrations);
  const byName = new Map(vmis.map((v) => [nsName(v.metadata), v]));
  const outstanding = new Set(exp.outstandingVms ?? []);
  const problems: string[] = [];

  const shouldRun = exp.baseline ? exp.baseline.runningVmis : vmis.map((v) => nsName(v.metadata));
  for (const name of shouldRun) {
    const vmi = byName.get(name);
    const phase = vmi?.status?.phase;
    if (phase !== 'Running') problems.push(`${name}: ${vmi ? `phase ${phase ?? 'unknown'}` : 'no VM instance'}${exp.baseline ? ' (was Running before the upgrade)' : ''}`);
  }
  const outdated = vmis.filter((v) => v.metadata.labels && OUTDATED_LABEL in v.metadata.labels).map((v) => nsName(v.metadata));
  for (const name of outdated) problems.push(`${name}: on an outdated launcher${outstanding.has(name) ? ' (restart skipped by the operator: outstanding)' : ''}`);
  // A failed migration whose VMI was created after it belongs to an incarnation a restart replaced
  // (recovery after a skipped minor): resolved, reported as such, not a failure of the cluster now.
  const resolved = (m: (typeof migrations)[number]) => {
    if (m.status?.phase !== 'Failed') return false;
    const vmi = byName.get(`${m.metadata.namespace ?? ''}/${m.spec.vmiName}`);
    const born = vmi?.metadata.creationTimestamp;
    const at = m.metadata.creationTimestamp;
    return Boolean(born && at && Date.parse(born) > Date.parse(at));
  };
  const unfinished = migrations.filter((m) => m.status?.phase !== 'Succeeded' && !resolved(m));
  const resolvedCount = migrations.filter(resolved).length;
  for (const m of unfinished) {
    const reason = m.status?.migrationState?.failureReason;
    problems.push(`migration ${nsName(m.metadata)} of ${m.spec.vmiName}: ${m.status?.phase || 'Pending'}${reason ? `: ${reason}` : ''}`);
  }
  const succeeded = migrations.length - unfinished.length - resolvedCount;
  const counts = `${vmis.length} VM instance(s), ${outdated.length} outdated, ${migrations.length} migration(s) (${succeeded} succeeded${resolvedCount ? `, ${resolvedCount} failed earlier and resolved by a restart` : ''})`;
  return problems.length
    ? verdict('fail', counts, problems, outdated.length ? 'Run the migration monitor and recovery: cancel stuck migrations, restart each outdated VM (each behind its own gate).' : 'Wait for migrations in flight; look at failed ones with kubectl describe vmim.')
    : verdict('pass', counts);
}
