/**
 * A hop's predicted duration and each VM's part in it (pure): the pack rollout, then the workload
 * updater's moves scheduled as KubeVirt schedules them (schedule.ts) from each VM's memory and the
 * bandwidth its migration gets (its MigrationPolicy's cap, the cluster's learned rate, minus its
 * dirty rate), and the migrations that may never converge.
 *
 * A migration that cannot converge is scheduled as KubeVirt ends it: aborted at its completion
 * timeout (`completionTimeoutPerGiB` × memory) or, when the guest dirties memory faster than it moves,
 * `progressTimeout` after its first pass over memory, when the remaining data stops shrinking. Post-copy always converges; auto-converge throttles the
 * guest until it does, so neither is flagged.
 */
import type { VmImpact } from '../impact/vm-impact.js';
import { GiB, memoryText, rateText } from '../units/quantity.js';
import { restartFigures, restartsPart, restartTime, type RestartTime } from './restarts.js';
import { scheduleMoves, type EvictionJob, type MigrationJob } from './schedule.js';
import type { BandwidthEstimate, HopEta, MigrationLimits, SecondsRange, VmMigrationLimits } from './types.js';
import { roughDuration, durationRange } from '../../text/duration.js';
import { formatDuration } from '../../text/duration.js';

/** Graceful shutdown and boot on the new launcher: what an eviction costs a VM, and a restart without a record of its VMI's boot. */
export const restartDowntimeSeconds = restartFigures.shutdownSeconds + restartFigures.bootSeconds;

export interface VmFacts {
  impact: VmImpact;
  memoryBytes?: number;
  limits: VmMigrationLimits;
  /** `kubevirt_vmi_dirty_rate_bytes_per_second`, when a metrics endpoint answered. */
  dirtyRate?: number;
  /** For a VM restarted at a gate: its restart's predicted time (restarts.ts). */
  restart?: RestartTime;
}

export interface EstimateInput {
  vms: VmFacts[];
  limits: MigrationLimits;
  bandwidth: BandwidthEstimate;
  rollout: SecondsRange & { basis: string };
}

export interface Estimate {
  eta: HopEta;
  /** What each VM's impact gains: memory, policy, predicted timing, convergence risks. */
  byVm: Map<string, Partial<VmImpact>>;
}

interface Copy {
  seconds: SecondsRange;
  risks: string[];
}

function copyOf(vm: VmFacts, limits: MigrationLimits, bandwidth: BandwidthEstimate): Copy {
  const bytes = vm.memoryBytes ?? 0;
  const cap = vm.limits.bandwidthPerMigration;
  const rate = (r: number) => (cap > 0 ? Math.min(r, cap) : r);
  const dirty = vm.dirtyRate ?? 0;
  const rescued = vm.limits.allowPostCopy || vm.limits.allowAutoConverge;
  const risks: string[] = [];
  const timeout = vm.limits.completionTimeoutPerGiB * Math.max(bytes / GiB, 1 / 1024);
  const remedies = `remedies: a MigrationPolicy selecting it with allowAutoConverge or allowPostCopy; a quieter moment; or a gated restart instead (about ${roughDuration(restartDowntimeSeconds)} of downtime)`;
  if (!rescued && dirty > 0 && dirty >= rate(bandwidth.bytesPerSecond.p50)) {
    risks.push(
      `may not converge: its guest dirties ${rateText(dirty)} (kubevirt_vmi_dirty_rate_bytes_per_second), more than the ${rateText(rate(bandwidth.bytesPerSecond.p50))} a migration moves; KubeVirt aborts it after progressTimeout ${formatDuration(limits.progressTimeout * 1000)} without progress and retries it later; ${remedies}`,
    );
    // The first pass copies everything; then the remaining data stops shrinking until progressTimeout (or the completion timeout) ends it.
    const abort = (r: number) => Math.min(bytes / rate(r) + limits.progressTimeout, timeout);
    return { seconds: { p50: abort(bandwidth.bytesPerSecond.p50), p90: abort(bandwidth.bytesPerSecond.p90) }, risks };
  }
  const move = (r: number) => (bytes === 0 ? 0 : bytes / Math.max(1, rate(r) - (rescued ? 0 : dirty)));
  const seconds = { p50: move(bandwidth.bytesPerSecond.p50), p90: move(bandwidth.bytesPerSecond.p90) };
  if (!rescued && seconds.p90 > timeout) {
    risks.push(
      `may not converge: ${memoryText(bytes)} at ${rateText(rate(bandwidth.bytesPerSecond.p90))}${dirty ? ` less its dirty rate ${rateText(dirty)}` : ''} takes ${roughDuration(seconds.p90)}, beyond its completion timeout of ${roughDuration(timeout)} (completionTimeoutPerGiB ${vm.limits.completionTimeoutPerGiB}${vm.limits.policy ? `, MigrationPolicy ${vm.limits.policy}` : ''}); ${remedies}`,
    );
    return { seconds: { p50: Math.min(timeout, seconds.p50), p90: Math.min(timeout, seconds.p90) }, risks };
  }
  return { seconds, risks };
}

export function estimateHop(input: EstimateInput): Estimate {
  const { limits, bandwidth } = input;
  const byVm = new Map<string, Partial<VmImpact>>();
  const migrations50: MigrationJob[] = [];
  const migrations90: Array<MigrationJob & { bytes: number }> = [];
  const evictions: EvictionJob[] = [];
  const copies = new Map<string, Copy>();
  for (const vm of input.vms) {
    const i = vm.impact;
    const extra: Partial<VmImpact> = { ...(vm.memoryBytes ? { memoryBytes: vm.memoryBytes } : {}), ...(vm.limits.policy ? { migrationPolicy: vm.limits.policy } : {}) };
    if (i.fate === 'live-migrate') {
      const copy = copyOf(vm, limits, bandwidth);
      copies.set(i.vm, copy);
      if (copy.risks.length) extra.mayNotConverge = copy.risks;
      const node = i.node ?? '';
      migrations50.push({ vm: i.vm, node, overheadSeconds: bandwidth.overheadSeconds.p50, copySeconds: copy.seconds.p50 });
      migrations90.push({ vm: i.vm, node, overheadSeconds: bandwidth.overheadSeconds.p90, copySeconds: copy.seconds.p90, bytes: vm.memoryBytes ?? 0 });
    } else if (i.fate === 'evict') {
      evictions.push({ vm: i.vm, downSeconds: restartDowntimeSeconds });
    }
    byVm.set(i.vm, extra);
  }
  const sched = { perCluster: limits.parallelMigrationsPerCluster, perNode: limits.parallelOutboundMigrationsPerNode, batchSize: limits.batchEvictionSize, batchIntervalSeconds: limits.batchEvictionIntervalSeconds };
  const median = scheduleMoves(migrations50, evictions, sched);
  // The pessimistic bound: slow transfers, slow target pods, and the largest VMs drawn last.
  const slow = scheduleMoves([...migrations90].sort((a, b) => a.bytes - b.bytes), evictions, sched);
  const slowByVm = new Map(slow.jobs.map((j) => [j.vm, j]));
  for (const j of median.jobs) {
    const extra = byVm.get(j.vm)!;
    const s = slowByVm.get(j.vm);
    extra.predicted =
      j.kind === 'migrate'
        ? { startSeconds: Math.round(j.startedAt), durationSeconds: { p50: Math.round(j.endsAt - j.startedAt), p90: Math.round(s ? s.endsAt - s.startedAt : j.endsAt - j.startedAt) } }
        : { startSeconds: Math.round(j.startedAt), durationSeconds: { p50: restartDowntimeSeconds, p90: restartDowntimeSeconds }, downtimeSeconds: restartDowntimeSeconds };
  }
  // The restarts come after the moves, one at a time: each starts when the one before it is back.
  const restartTimes: RestartTime[] = [];
  for (const vm of input.vms) {
    if (vm.impact.fate !== 'restart') continue;
    const t = vm.restart ?? restartTime(undefined);
    byVm.get(vm.impact.vm)!.predicted = { startSeconds: Math.round(median.endSeconds + restartTimes.reduce((n, r) => n + r.p50, 0)), durationSeconds: { p50: t.p50, p90: t.p90 }, downtimeSeconds: t.p50 };
    restartTimes.push(t);
  }

  const migrating = migrations50.length;
  const evicted = evictions.length;
  const restarts = restartTimes.length;
  const stalls = [...copies.values()].filter((c) => c.risks.length).length;
  const movesBasis = [
    `${migrating} VM(s) live-migrate, at most ${limits.parallelMigrationsPerCluster} at a time and ${limits.parallelOutboundMigrationsPerNode} from one node; ${bandwidth.text}; ${roughDuration(bandwidth.overheadSeconds.p50)} to start each target`,
    ...(evicted ? [`${evicted} evicted in batches of ${limits.batchEvictionSize} every ${roughDuration(limits.batchEvictionIntervalSeconds)}`] : []),
    ...(stalls ? [`${stalls} may not converge (counted until KubeVirt aborts them)`] : []),
  ].join('; ');
  const parts: HopEta['parts'] = [
    { what: 'pack-rollout', p50Seconds: Math.round(input.rollout.p50), p90Seconds: Math.round(input.rollout.p90), basis: input.rollout.basis },
    { what: 'migrations', p50Seconds: Math.round(median.endSeconds), p90Seconds: Math.round(Math.max(median.endSeconds, slow.endSeconds)), basis: movesBasis },
    restartsPart(restartTimes),
  ];
  const p50 = parts.reduce((a, p) => a + p.p50Seconds, 0);
  const p90 = parts.reduce((a, p) => a + p.p90Seconds, 0);
  const said = [
    `${migrating} VM(s) migrate, ${limits.parallelMigrationsPerCluster} at a time`,
    ...(evicted ? [`${evicted} evicted, about ${roughDuration(restartDowntimeSeconds)} of downtime each`] : []),
    ...(restarts ? [`${restarts} restart(s) at the gates, about ${durationRange(parts[2]!.p50Seconds / restarts, parts[2]!.p90Seconds / restarts)} of downtime each, counted; plus your time at ${restarts === 1 ? 'its gate' : `${restarts} restart gates`}`] : []),
    ...(stalls ? [`${stalls} may not converge`] : []),
  ];
  return { eta: { p50Seconds: p50, p90Seconds: p90, parts, summary: `about ${durationRange(p50, p90)}: ${said.join('; ')}` }, byVm };
}
