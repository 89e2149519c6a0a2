/**
 * How long the restarts at the gates take (pure): the recovery restarts one VM at a time and waits
 * for it to run again before asking about the next, so the hop's restart part is the sum of each
 * restart's own time. A restart is a graceful shutdown, then a new VMI that is scheduled, gets its
 * launcher pod and boots the guest.
 *
 * The boot is learned from the cluster's own record where there is one: a VMI lists every phase it
 * went through with its time (`status.phaseTransitionTimestamps`: Pending, Scheduling, Scheduled,
 * Running), so its creation to its Running transition is how long its last start took on this
 * cluster. The shutdown leaves no record: the runbook's figure, and at worst the VMI's grace period
 * (`spec.terminationGracePeriodSeconds`), after which KubeVirt turns the guest off. Without a record
 * the runbook's figures are used; the pessimistic bound doubles what is assumed and adds half to what
 * was learned, as for the pack rollout (rollout.ts). The operator's own time at each gate is not
 * predicted: the plan says how many gates wait for an answer.
 */
import type { Vmi } from '../../kube/schemas.js';
import { durationRange, roughDuration } from '../../text/duration.js';
import type { EtaPart, SecondsRange } from './types.js';

/** The runbook's figures: a guest's graceful shutdown, and a new VMI to a running guest. */
export const restartFigures = { shutdownSeconds: 20, bootSeconds: 40 } as const;

/** A start shorter than this is a VMI created running (no real boot on record); longer is not one boot. */
const plausibleBoot = { min: 1, max: 3600 };

export interface RestartTime extends SecondsRange {
  /** The VMI's last boot on this cluster, when its record holds one. */
  bootSeconds?: number;
}

const time = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

/** How long the VMI's last start took: its creation (or first phase) to its Running transition. */
export function lastBootSeconds(vmi: Pick<Vmi, 'metadata' | 'status'> | undefined): number | undefined {
  const transitions = vmi?.status?.phaseTransitionTimestamps ?? [];
  const running = transitions.filter((t) => t.phase === 'Running').map((t) => time(t.phaseTransitionTimestamp)).filter(Number.isFinite);
  const starts = [time(vmi?.metadata.creationTimestamp), ...transitions.filter((t) => t.phase !== 'Running').map((t) => time(t.phaseTransitionTimestamp))].filter(Number.isFinite);
  if (!running.length || !starts.length) return undefined;
  const seconds = (Math.max(...running) - Math.min(...starts)) / 1000;
  return seconds >= plausibleBoot.min && seconds <= plausibleBoot.max ? Math.round(seconds) : undefined;
}

/** One restart's predicted time, from the VMI's record where it has one. */
export function restartTime(vmi: Pick<Vmi, 'metadata' | 'status' | 'spec'> | undefined): RestartTime {
  const grace = vmi?.spec?.terminationGracePeriodSeconds;
  const shutdown = { p50: restartFigures.shutdownSeconds, p90: grace !== undefined && grace !== null ? Math.max(restartFigures.shutdownSeconds, grace) : 2 * restartFigures.shutdownSeconds };
  const boot = lastBootSeconds(vmi);
  if (boot !== undefined) return { p50: shutdown.p50 + boot, p90: shutdown.p90 + Math.round(1.5 * boot), bootSeconds: boot };
  return { p50: shutdown.p50 + restartFigures.bootSeconds, p90: shutdown.p90 + 2 * restartFigures.bootSeconds };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

/** The hop's restart part: every restart's time, one after another, and where the figures come from. */
export function restartsPart(times: readonly RestartTime[]): EtaPart {
  const p50Seconds = Math.round(times.reduce((n, t) => n + t.p50, 0));
  const p90Seconds = Math.round(times.reduce((n, t) => n + t.p90, 0));
  if (!times.length) return { what: 'restarts', p50Seconds: 0, p90Seconds: 0, basis: 'no VM needs a restart at the gates' };
  const learned = times.filter((t) => t.bootSeconds !== undefined);
  const sources = [
    learned.length && `${learned.length} from the VMI's last boot on this cluster (median ${roughDuration(median(learned.map((t) => t.bootSeconds!)))}) plus the runbook's ${roughDuration(restartFigures.shutdownSeconds)} shutdown`,
    learned.length < times.length && `${times.length - learned.length} from the runbook's figure (${roughDuration(restartFigures.shutdownSeconds)} shutdown, ${roughDuration(restartFigures.bootSeconds)} boot; no boot on record)`,
  ].filter(Boolean);
  return {
    what: 'restarts',
    p50Seconds,
    p90Seconds,
    basis: `${times.length} restart(s) at the gates, one after another, about ${durationRange(median(times.map((t) => t.p50)), median(times.map((t) => t.p90)))} each: ${sources.join('; ')}; your own time at the gates is not counted`,
  };
}
