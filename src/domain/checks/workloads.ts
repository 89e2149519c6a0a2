/**
 * 9.3.3: all VM instances Running, none on an outdated launcher, and no migration that this
 * upgrade left failed or unfinished. A VMI is judged by its latest migration: KubeVirt keeps up to
 * five finished ones per VMI, so a Failed one that a later success superseded says nothing about
 * today. A latest migration that failed before this upgrade began is listed as pre-existing.
 */
import { OUTDATED_LABEL, type Vmim } from '../../kube/schemas.js';
import { createdAt, migrationEndedAt, pastNote, PRE_EXISTING_HINT, preExisting, timelineOf } from './history.js';
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

const isFinal = (m: Vmim) => m.status?.phase === 'Succeeded' || m.status?.phase === 'Failed';
const vmiOf = (m: Vmim) => `${m.metadata.namespace ?? ''}/${m.spec.vmiName}`;

/** Oldest first (creation times read once per migration); migrations made in the same second keep the server's (name) order. */
const byCreation = (made: ReadonlyMap<Vmim, number>) => (a: Vmim, b: Vmim) => made.get(a)! - made.get(b)! || a.metadata.name.localeCompare(b.metadata.name);

/** An unfinished migration as the operator must read it: cancelled but still there, or simply in flight. */
function unfinished(m: Vmim): string {
  const phase = m.status?.phase || 'Pending';
  const abort = m.status?.migrationState?.abortStatus;
  if (m.metadata.deletionTimestamp) {
    if (abort === 'Failed') return `${phase}: its cancel failed (abort failed), the migration goes on`;
    return `${phase}: being cancelled (${abort === 'Aborting' ? 'abort in progress' : 'deleted, waiting for KubeVirt'})`;
  }
  return phase;
}

export function checkWorkloads(data: VerifyData, exp: VerifyExpectations): Verdict {
  const blocked = unreadable(data.vmis, data.migrations);
  if (blocked) return blocked;
  const t = timelineOf(exp);
  const vmis = value(data.vmis);
  const migrations = value(data.migrations);
  const byName = new Map(vmis.map((v) => [nsName(v.metadata), v]));
  const outstanding = new Set(exp.outstandingVms ?? []);
  const problems: string[] = [];
  const past: string[] = [];

  const shouldRun = exp.baseline ? exp.baseline.runningVmis : vmis.map((v) => nsName(v.metadata));
  for (const name of shouldRun) {
    const vmi = byName.get(name);
    const phase = vmi?.status?.phase;
    if (phase !== 'Running') problems.push(`${name}: ${vmi ? `phase ${phase ?? 'unknown'}` : 'no VM instance'}${exp.baseline ? ' (was Running before the upgrade)' : ''}`);
  }
  const outdated = vmis.filter((v) => v.metadata.labels && OUTDATED_LABEL in v.metadata.labels).map((v) => nsName(v.metadata));
  for (const name of outdated) problems.push(`${name}: on an outdated launcher${outstanding.has(name) ? ' (restart skipped by the operator: outstanding)' : ''}`);

  // The history judged in one pass over each VMI's migrations, oldest first.
  const perVmi = new Map<string, Vmim[]>();
  for (const m of migrations) {
    const list = perVmi.get(vmiOf(m));
    if (list) list.push(m);
    else perVmi.set(vmiOf(m), [m]);
  }
  const oldestFirst = byCreation(new Map(migrations.map((m) => [m, createdAt(m) ?? 0])));
  let superseded = 0;
  let resolved = 0;
  let succeeded = 0;
  const line = (m: Vmim, what: string) => {
    const reason = m.status?.migrationState?.failureReason;
    return `migration ${nsName(m.metadata)} of ${m.spec.vmiName}: ${what}${reason ? `: ${reason}` : ''}`;
  };
  for (const [vmiKey, list] of perVmi) {
    const ordered = list.sort(oldestFirst);
    const latest = ordered.at(-1)!;
    // Failed ones before the last success were superseded by it.
    let failed = 0;
    let failedBeforeSuccess = 0;
    for (const m of ordered) {
      // Unfinished is now, whatever its age: nothing is settled while a migration still runs.
      if (!isFinal(m)) problems.push(line(m, unfinished(m)));
      if (m.status?.phase === 'Succeeded') {
        succeeded += 1;
        failedBeforeSuccess = failed;
      } else if (m.status?.phase === 'Failed') failed += 1;
    }
    superseded += failedBeforeSuccess;
    if (latest.status?.phase !== 'Failed') continue;
    // A VMI created after its migration failed is a new incarnation (a restart replaced it): resolved.
    const born = createdAt({ metadata: { creationTimestamp: byName.get(vmiKey)?.metadata.creationTimestamp } });
    const madeAt = createdAt(latest);
    if (born !== undefined && madeAt !== undefined && born > madeAt) {
      resolved += 1;
      continue;
    }
    const endedAt = migrationEndedAt(latest);
    if (preExisting(endedAt, t)) past.push(line(latest, `Failed ${pastNote(endedAt, t)} (pre-existing)`));
    else problems.push(line(latest, 'Failed'));
  }
  const extras = [superseded ? `${superseded} failed earlier and superseded by a later success` : '', resolved ? `${resolved} failed earlier and resolved by a restart` : '', past.length ? `${past.length} failed before this upgrade` : ''].filter(Boolean);
  const counts = `${vmis.length} VM instance(s), ${outdated.length} outdated, ${migrations.length} migration(s) (${succeeded} succeeded${extras.length ? `, ${extras.join(', ')}` : ''})`;
  if (problems.length) {
    const hint = outdated.length ? 'Run the migration monitor and recovery: cancel stuck migrations, restart each outdated VM (each behind its own gate).' : 'Wait for migrations in flight; look at failed ones with kubectl describe vmim.';
    return verdict('fail', counts, [...problems, ...past], hint);
  }
  return past.length ? verdict('warn', counts, past, PRE_EXISTING_HINT) : verdict('pass', counts);
}
