/** Why a VM needs a restart, in one sentence an operator can check: what its migrations did, what the diagnosis found. */
import type { Vmim } from '../../kube/schemas.js';
import type { RestartCandidate } from './candidates.js';
import { parseTime, vmiKeyOf } from './cluster-view.js';
import type { DiagnoseOutput } from './diagnose-types.js';
import { phaseOf } from './phases.js';
import { formatDuration } from '../../text/duration.js';

export interface VmProblems {
  failed: number;
  lastReason?: string;
  /** How long its migration has been Running, when one is. */
  runningMs?: number;
}

export function problemsByVmi(migrations: Vmim[], now: number): Map<string, VmProblems> {
  const out = new Map<string, VmProblems & { lastAt?: number }>();
  for (const m of migrations) {
    const vmi = vmiKeyOf(m);
    const phase = phaseOf(m);
    if (phase !== 'Failed' && phase !== 'Running') continue;
    const p = out.get(vmi) ?? { failed: 0 };
    const ms = m.status?.migrationState;
    if (phase === 'Running') {
      const started = parseTime(ms?.startTimestamp ?? m.metadata.creationTimestamp);
      if (started !== undefined) p.runningMs = Math.max(p.runningMs ?? 0, now - started);
    } else {
      p.failed++;
      const at = parseTime(m.metadata.creationTimestamp) ?? 0;
      if (ms?.failureReason && (p.lastAt === undefined || at >= p.lastAt)) {
        p.lastReason = ms.failureReason;
        p.lastAt = at;
      }
    }
    out.set(vmi, p);
  }
  return new Map([...out].map(([k, { lastAt: _at, ...p }]) => [k, p]));
}

/** libvirt's reasons are long; the quoted message is the part that says what happened. */
export function shortReason(reason: string): string {
  const quoted = /Message='([^']+)'/.exec(reason)?.[1];
  const text = quoted ?? reason;
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

export function restartWhy(c: RestartCandidate, problems: VmProblems | undefined, diagnosis: DiagnoseOutput | undefined): string {
  if (c.predicted) return c.predicted.reason;
  const parts: string[] = [];
  if (problems?.runningMs !== undefined) parts.push(`its live migration hangs in Running (${formatDuration(problems.runningMs)})`);
  if (problems && problems.failed > 0) parts.push(`its live migration failed ${problems.failed === 1 ? 'once' : `${problems.failed} times`}${problems.lastReason ? ` (${shortReason(problems.lastReason)})` : ''}`);
  if (!c.migratable) parts.push(`it cannot live-migrate${c.notMigratableReason ? ` (${c.notMigratableReason})` : ''}, so only a restart moves it to the new launcher`);
  if (parts.length === 0) parts.push('it still runs the old launcher and live migration has not moved it');
  const issue = diagnosis?.findings.find((f) => f.confirmed);
  const concerned = issue && (diagnosis!.affectedVmis.includes(c.vm) || (problems !== undefined && (problems.failed > 0 || problems.runningMs !== undefined)));
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.${concerned ? ` Diagnosis: ${issue.title}.` : ''}`;
}
