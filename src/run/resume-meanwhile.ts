/**
 * What the cluster did while a session was stopped, read once when it resumes (for the banner):
 * migrations that ended since the stop, and whether the cluster now runs the profile versions the
 * session published but had not yet seen reconciled. Bounded (one list, one profiles read, a few
 * seconds at most); a failure is reported in words, never stops the resume.
 */
import type { Effects } from '../engine/effects.js';
import type { Params } from '../engine/params.js';
import { steps, type SessionState } from '../engine/state.js';
import { toErrorInfo } from '../errors.js';
import { OUTDATED_LABEL, type Vmim } from '../kube/schemas.js';
import type { PublishOutput } from '../steps/hop/publish.js';
import { phaseOf } from '../steps/migrations/phases.js';
import { lastRecorded, type Meanwhile } from '../screens/resume-summary.js';

const LIMIT_MS = 8_000;

/** Published in this session, but the hop's wait for the cluster had not finished: `name version`. */
function awaitedVersions(state: SessionState): Array<{ name: string; version: string }> {
  const all = steps(state);
  return all
    .filter((s) => s.kind === 'publish' && s.status === 'succeeded' && (s.output as PublishOutput | undefined)?.confirmed === 'published')
    .filter((s) => !all.some((r) => r.kind === 'reconcile' && r.hop?.index === s.hop?.index && r.status === 'succeeded'))
    .map((s) => {
      const out = s.output as PublishOutput;
      return { name: out.name, version: out.version };
    });
}

/** VM restarts journaled as sent with no result when the session stopped: `namespace/name`. */
export function restartsInFlight(state: SessionState): string[] {
  return Object.values(state.mutations)
    .filter((m) => m.outcome === undefined && m.request.target === 'kube')
    .map((m) => /^restart VM (\S+\/\S+)$/.exec(m.request.summary ?? '')?.[1])
    .filter((vm): vm is string => vm !== undefined);
}

export async function readMeanwhile(effects: Effects, before: SessionState, site: Params | undefined, signal: AbortSignal): Promise<Meanwhile> {
  const limit = AbortSignal.any([signal, AbortSignal.timeout(LIMIT_MS)]);
  const { clock } = effects;
  // The stop, on the cluster's clock (the lab's runs faster than the wall).
  const wallSince = Math.max(0, Date.now() - Date.parse(lastRecorded(before)));
  const stoppedAt = clock.now() - wallSince * (clock.simulated?.speed() ?? 1);
  const awaited = awaitedVersions(before);
  // Only what this runbook watches: a session without migration steps has no migrations to report.
  const watchesMigrations = steps(before).some((s) => ['migrations', 'diagnose', 'recover', 'verify'].includes(s.kind));
  const restarts = restartsInFlight(before);
  if (!watchesMigrations && awaited.length === 0 && restarts.length === 0) return {};
  try {
    const [migrations, deployed, vmis] = await Promise.all([
      watchesMigrations ? effects.kube.reader(limit).migrations() : Promise.resolve(undefined),
      awaited.length && site ? effects.palette.getClusterProfiles(site.cluster.uid, { signal: limit }) : Promise.resolve(undefined),
      restarts.length ? effects.kube.reader(limit).vmiPhases() : Promise.resolve(undefined),
    ]);
    const result: Meanwhile = {};
    if (vmis) {
      result.restarts = restarts.map((vm) => {
        const vmi = vmis.find((v) => `${v.metadata.namespace ?? ''}/${v.metadata.name}` === vm);
        const state = !vmi || vmi.status?.phase !== 'Running' ? 'not-running' : OUTDATED_LABEL in (vmi.metadata.labels ?? {}) ? 'old-launcher' : 'new-launcher';
        return { vm, state, phase: vmi?.status?.phase ?? 'no instance' };
      });
    }
    if (migrations) result.migrations = countSince(migrations, stoppedAt);
    if (deployed) {
      const runs = (a: { name: string; version: string }) => deployed.some((d) => d.name === a.name && d.version === a.version);
      result.reconciled = { running: awaited.filter(runs).map((a) => `${a.name} ${a.version}`), waiting: awaited.filter((a) => !runs(a)).map((a) => `${a.name} ${a.version}`) };
    }
    return result;
  } catch (err) {
    return { unreadable: limit.aborted && !signal.aborted ? `no answer within ${LIMIT_MS / 1000}s` : toErrorInfo(err).message };
  }
}

/** Migrations that ended since the stop (by phase), and those in flight now. */
function countSince(migrations: Vmim[], stoppedAt: number): NonNullable<Meanwhile['migrations']> {
  const counts = { succeeded: 0, failed: 0, running: 0 };
  for (const m of migrations) {
    const phase = phaseOf(m);
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      counts.running++;
      continue;
    }
    const end = Date.parse(m.status?.migrationState?.endTimestamp ?? m.metadata.creationTimestamp ?? '');
    if (Number.isFinite(end) && end >= stoppedAt) counts[phase === 'Succeeded' ? 'succeeded' : 'failed']++;
  }
  return counts;
}
