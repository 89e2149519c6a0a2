/**
 * How fast a migration moves memory on this cluster: learned from its own finished migrations
 * (guest memory over the time from `migrationState.startTimestamp` to `endTimestamp`, and the
 * target's start-up from the migration's phase timestamps), else the configured
 * `bandwidthPerMigration`, else an assumption said as such. Pure.
 */
import type { Vmi, Vmim } from '../../kube/schemas.js';
import { parseQuantity, rateText } from '../units/quantity.js';
import type { BandwidthEstimate, SecondsRange } from './types.js';

/** With nothing learned and no limit: a shared 10 GbE pod network (KubeVirt's default network). */
export const assumedRate: SecondsRange = { p50: 256 * 2 ** 20, p90: 128 * 2 ** 20 };
/** Target pod scheduled, image present, launcher started: the usual span before the copy. */
export const assumedOverhead: SecondsRange = { p50: 20, p90: 45 };

export function vmiMemoryBytes(vmi: Vmi): number | undefined {
  return parseQuantity(vmi.status?.memory?.guestCurrent ?? vmi.spec?.domain?.memory?.guest ?? vmi.spec?.domain?.resources?.requests?.memory);
}

const key = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

/** The value at fraction `q` of sorted numbers (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

interface Samples {
  rates: number[];
  overheads: number[];
}

export function migrationSamples(migrations: readonly Vmim[], vmis: readonly Vmi[]): Samples {
  // Only the VMIs a finished migration names have their memory read (a few of the cluster's).
  const byKey = new Map(vmis.map((v) => [key(v.metadata.namespace, v.metadata.name), v]));
  const rates: number[] = [];
  const overheads: number[] = [];
  for (const m of migrations) {
    if (m.status?.phase !== 'Succeeded') continue;
    const st = m.status.migrationState;
    const start = Date.parse(st?.startTimestamp ?? '');
    const end = Date.parse(st?.endTimestamp ?? '');
    const vmi = byKey.get(key(m.metadata.namespace, m.spec.vmiName));
    const bytes = vmi ? vmiMemoryBytes(vmi) : undefined;
    if (bytes && end > start) rates.push(bytes / ((end - start) / 1000));
    const at = (phase: string) => Date.parse(m.status?.phaseTransitionTimestamps?.find((p) => p.phase === phase)?.phaseTransitionTimestamp ?? '');
    const scheduling = at('Scheduling');
    const runningAt = at('Running');
    if (runningAt >= scheduling) overheads.push((runningAt - scheduling) / 1000);
  }
  return { rates: rates.sort((a, b) => a - b), overheads: overheads.sort((a, b) => a - b) };
}

/**
 * The rate one migration gets: the median of the finished ones and, for the pessimistic bound, their
 * slowest tenth but at least a fifth slower than the median (a busy network on the day). A
 * `bandwidthPerMigration` caps both.
 */
export function estimateBandwidth(samples: Samples, limit: number): BandwidthEstimate {
  const overheadSeconds: SecondsRange = samples.overheads.length
    ? { p50: quantile(samples.overheads, 0.5), p90: Math.max(quantile(samples.overheads, 0.9), quantile(samples.overheads, 0.5)) }
    : assumedOverhead;
  const cap = (r: SecondsRange): SecondsRange => (limit > 0 ? { p50: Math.min(r.p50, limit), p90: Math.min(r.p90, limit) } : r);
  if (samples.rates.length) {
    const p50 = quantile(samples.rates, 0.5);
    const rate = cap({ p50, p90: Math.min(quantile(samples.rates, 0.1), p50 * 0.8) });
    return {
      bytesPerSecond: rate,
      overheadSeconds,
      source: 'finished-migrations',
      samples: samples.rates.length,
      text: `${rateText(rate.p50)} per migration (median of ${samples.rates.length} finished migration(s) on this cluster; ${rateText(rate.p90)} when slow)${limit > 0 ? `, capped by bandwidthPerMigration ${rateText(limit)}` : ''}`,
    };
  }
  if (limit > 0) {
    const rate = { p50: limit, p90: limit * 0.8 };
    return { bytesPerSecond: rate, overheadSeconds, source: 'limit', samples: 0, text: `${rateText(limit)} per migration (bandwidthPerMigration; no finished migration to learn from)` };
  }
  return {
    bytesPerSecond: assumedRate,
    overheadSeconds,
    source: 'assumed',
    samples: 0,
    text: `${rateText(assumedRate.p50)} per migration assumed (${rateText(assumedRate.p90)} when slow): no finished migration to learn from and no bandwidthPerMigration`,
  };
}
