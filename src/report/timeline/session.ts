/**
 * A session's timeline: the steps before the hops, each hop (its steps, the cluster's work beside the
 * plan's p50..p90, each restart, each VM left behind, the gates that waited), the verification after,
 * the booked window behind it all. Built from the session state and the report's own sections, so it
 * says what the rest of the report says. Pure.
 */
import { steps, type SessionState, type StepState } from '../../engine/state.js';
import type { MigrationsOutput } from '../../steps/migrations/monitor-types.js';
import { machineTimeZone } from '../../text/time-zone.js';
import type { ReportData } from '../model.js';
import type { Timeline, TimelineForecast, TimelineMark, TimelineSection } from './schema.js';
import { iso, migrationsNote, ms, rolloutNote, stepBars, stopBars, stopLabel, vmBars, waitBars, withWaitNotes, type RunEnd } from './session-bars.js';
import { roughDuration } from '../../text/duration.js';

type ReportBody = Omit<ReportData, 'timeline'>;

/** Where a step is drawn: its hop, the recovery outside the hops, or before/after them. */
function sectionKeyOf(s: StepState, afterHops: boolean): string {
  if (s.hop) return `hop${s.hop.index}`;
  if (s.group) return 'recovery';
  return afterHops ? 'after' : 'before';
}

/** The lab's speed as the migration watch recorded it (the latest one). */
function labSpeedOf(all: StepState[]): number | undefined {
  const outs = all.filter((s) => s.kind === 'migrations').map((s) => (s.output as MigrationsOutput | undefined)?.moved?.labSpeed);
  return outs.filter((x): x is number => typeof x === 'number' && x > 0).at(-1);
}

function forecastOf(r: ReportBody, hopIndex: number, list: StepState[], speed: number): TimelineForecast | undefined {
  const hop = r.hops.find((h) => h.index === hopIndex);
  const send = list.find((s) => s.kind === 'reconcile' && s.startedAt && s.status !== 'skipped')?.startedAt;
  if (!hop?.eta || !send) return undefined;
  const watch = list.filter((s) => s.kind === 'migrations' && s.status === 'succeeded' && s.endedAt).at(-1);
  const at = (seconds: number) => iso(ms(send) + (seconds * 1000) / speed);
  const took = hop.rollout && hop.migrations ? hop.rollout.measuredSeconds + hop.migrations.measuredSeconds : undefined;
  return {
    from: send,
    p50At: at(hop.eta.p50Seconds),
    p90At: at(hop.eta.p90Seconds),
    p50Seconds: hop.eta.p50Seconds,
    p90Seconds: hop.eta.p90Seconds,
    ...(watch?.endedAt ? { to: watch.endedAt } : {}),
    ...(took !== undefined ? { tookSeconds: took } : {}),
  };
}

function titleOf(key: string, r: ReportBody): string {
  if (key === 'before') return 'Before the hops';
  if (key === 'after') return r.hops.length ? 'After the hops' : 'Checks';
  if (key === 'recovery') return 'Recovery (no hop)';
  const hop = r.hops.find((h) => `hop${h.index}` === key);
  return hop ? `Hop ${hop.index} ${hop.from} → ${hop.to}` : key;
}

/** The instants: the end (done or failed), and the stop the run ended in. */
function marksOf(r: ReportBody): TimelineMark[] {
  const out: TimelineMark[] = r.stops.filter((s) => !s.resumedAt).map((s) => ({ at: s.at, label: stopLabel(s), status: s.status === 'failed' ? 'failed' : 'stopped' }));
  if (r.endedAt && r.outcome.status === 'done') out.push({ at: r.endedAt, label: 'done', status: 'ok' });
  return out.sort((a, b) => ms(a.at) - ms(b.at));
}

export function sessionTimeline(state: SessionState, r: ReportBody): Timeline {
  const all = steps(state);
  const end: RunEnd = { at: r.endedAt ?? r.generatedAt, running: r.endedAt === null };
  const speed = r.labTime ? labSpeedOf(all) : 1;
  const firstHop = all.findIndex((s) => s.hop || s.group);
  const keyOf = new Map(all.map((s, i) => [s.id, sectionKeyOf(s, firstHop >= 0 && i > firstHop)]));
  const keys = [...new Set(all.filter((s) => s.startedAt).map((s) => keyOf.get(s.id)!))];
  // Decisions and stops go where their step is; one outside any step (a drift gate on resume) where the run then was.
  const keyAt = (at: string) => keyOf.get(all.filter((s) => s.startedAt && ms(s.startedAt) <= ms(at)).at(-1)?.id ?? '') ?? keys[0] ?? 'before';
  const keyFor = (step: string | undefined, at: string) => (step && keyOf.get(step)) || keyAt(at);

  const sections: TimelineSection[] = [];
  for (const key of keys) {
    const list = all.filter((s) => keyOf.get(s.id) === key);
    const hopIndex = list[0]?.hop?.index;
    const hop = r.hops.find((h) => h.index === hopIndex);
    const vms = r.vms.filter((v) => (key === 'recovery' ? v.hop === null : v.hop === hopIndex && hopIndex !== undefined));
    const watch = list.filter((s) => s.kind === 'migrations' && s.startedAt).at(-1);
    const watchSpan = watch?.startedAt ? { from: watch.startedAt, to: watch.endedAt && ms(watch.endedAt) >= ms(watch.startedAt) ? watch.endedAt : end.at } : undefined;
    const recoverEnd = list.find((s) => s.kind === 'recover')?.endedAt;
    const notes = { migrations: list.some((s) => s.kind === 'migrations') ? migrationsNote(hop, vms, r.labTime) : undefined, reconcile: rolloutNote(hop, r.labTime) };
    const bars = withWaitNotes([
      ...stepBars(key, list, end, notes),
      ...vmBars(key, vms, watchSpan, recoverEnd, end, r.labTime),
      ...waitBars(key, r.decisions.filter((d) => keyFor(d.step, d.at) === key)),
      ...stopBars(key, r.stops.filter((s) => keyFor(s.step, s.at) === key)),
    ]).sort((a, b) => ms(a.from) - ms(b.from));
    if (!bars.length) continue;
    const forecast = hopIndex !== undefined && speed ? forecastOf(r, hopIndex, list, speed) : undefined;
    sections.push({ id: key, title: titleOf(key, r), bars, ...(forecast ? { forecast } : {}) });
  }

  const windowMs = state.meta.windowMs;
  const windows =
    windowMs && speed
      ? [{ from: r.startedAt, to: iso(ms(r.startedAt) + windowMs / speed), label: `booked window, ${roughDuration(windowMs / 1000)}${r.labTime ? ' lab time' : ''} from the start (params window)` }]
      : [];
  // The axis reaches every bar (a cluster's stamp may land after the journal's last record).
  const to = iso(Math.max(ms(end.at), ...sections.flatMap((s) => s.bars.map((b) => ms(b.to)))));
  return {
    from: r.startedAt,
    to,
    timeZone: state.meta.timeZone ?? machineTimeZone(),
    ...(r.labTime && speed ? { labSpeed: speed } : {}),
    windows,
    sections,
    marks: marksOf(r),
  };
}
