/**
 * The bars of one session's timeline: steps merged by what they do (a hop's drafts are one bar),
 * the cluster's work (reconcile, migrations with counts, each VM restart with its downtime, each VM
 * left behind), and the operator's time (a gate that waited for a key, a stop until the resume).
 * Pure; times are the journal's wall clock.
 */
import type { StepState } from '../../engine/state.js';
import type { ReportData, ReportDecision, ReportStop, ReportVm } from '../model.js';
import type { TimelineBar } from './schema.js';
import { formatDuration } from '../../text/duration.js';

/** How a step kind is drawn: its row label and whose time it is; kinds not listed use the step's title. */
const kinds: Record<string, { label: string; by: TimelineBar['by']; plural?: string }> = {
  preflight: { label: 'preflight checks', by: 'tool' },
  snapshot: { label: 'snapshot', by: 'tool' },
  plan: { label: 'plan', by: 'tool' },
  customize: { label: 'customizations review', by: 'tool' },
  draft: { label: 'drafts', by: 'tool', plural: 'profile' },
  publish: { label: 'publish', by: 'tool', plural: 'profile' },
  apply: { label: 'apply', by: 'tool' },
  repave: { label: 'node rebuild', by: 'cluster' },
  reconcile: { label: 'reconcile', by: 'cluster' },
  migrations: { label: 'migrations', by: 'cluster' },
  diagnose: { label: 'diagnosis', by: 'tool' },
  verify: { label: 'verification', by: 'tool' },
};

/** Kinds drawn otherwise (recover: one bar per restart) or not at all (writing the report). */
const notDrawn = new Set(['recover', 'report']);

/** VMs named one per row at most this many per hop; the rest share one bar. */
export const VM_ROWS = 12;

const order: Record<TimelineBar['status'], number> = { ok: 0, skipped: 1, running: 2, halted: 3, failed: 4 };
const worst = (a: TimelineBar['status'], b: TimelineBar['status']) => (order[b] > order[a] ? b : a);
const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const later = (a: string, b: string) => (ms(a) >= ms(b) ? a : b);
const earlier = (a: string, b: string) => (ms(a) <= ms(b) ? a : b);

export interface RunEnd {
  /** The axis's end: the run's end, or when the report was written. */
  at: string;
  /** The run is still going (a step without an end is running, not halted). */
  running: boolean;
}

/** A step's span on the axis, or undefined when it never ran (or only was skipped). */
function spanOf(s: StepState, end: RunEnd): { from: string; to: string; status: TimelineBar['status'] } | undefined {
  if (!s.startedAt || s.status === 'skipped') return undefined;
  const ended = s.endedAt && ms(s.endedAt) >= ms(s.startedAt) && (s.status === 'succeeded' || s.status === 'failed');
  if (ended) return { from: s.startedAt, to: s.endedAt!, status: s.status === 'failed' ? 'failed' : 'ok' };
  return { from: s.startedAt, to: later(end.at, s.startedAt), status: end.running ? 'running' : 'halted' };
}

/** One bar per kind of step in a section (two drafts are one "drafts" bar), in the order they ran. */
export function stepBars(section: string, list: StepState[], end: RunEnd, notes: Record<string, string | undefined>): TimelineBar[] {
  const byKind = new Map<string, TimelineBar & { n: number }>();
  for (const s of list) {
    if (notDrawn.has(s.kind)) continue;
    const span = spanOf(s, end);
    if (!span) continue;
    const known = kinds[s.kind];
    const key = known ? s.kind : s.id;
    const prior = byKind.get(key);
    if (prior) {
      prior.from = earlier(prior.from, span.from);
      prior.to = later(prior.to, span.to);
      prior.status = worst(prior.status, span.status);
      prior.n += 1;
      continue;
    }
    byKind.set(key, { id: `${section}.${known ? s.kind : s.localId}`, label: known?.label ?? s.title, from: span.from, to: span.to, by: known?.by ?? 'tool', status: span.status, n: 1 });
  }
  return [...byKind.entries()].map(([kind, { n, ...bar }]) => {
    const plural = kinds[kind]?.plural;
    const note = [plural && n > 1 ? `${n} ${plural}s` : undefined, notes[kind]].filter(Boolean).join('; ');
    return note ? { ...bar, note } : bar;
  });
}

const downtimeText = (v: ReportVm, labTime: boolean) => (v.downtimeSeconds === undefined ? undefined : `down ${formatDuration(v.downtimeSeconds * 1000)}${labTime ? ' lab time' : ''}`);

/**
 * The VMs one by one, but only those that cost something: each restart (request to running again,
 * its downtime in the note) and each VM left on the old version (across the migration watch, red).
 * Past VM_ROWS the rest share one bar.
 */
export function vmBars(section: string, vms: ReportVm[], watch: { from: string; to: string } | undefined, recoverEnd: string | undefined, end: RunEnd, labTime: boolean): TimelineBar[] {
  const restarts = vms
    .filter((v) => v.fate === 'restarted' && v.sentAt)
    .map((v): TimelineBar => {
      const notBack = v.backRunning === false;
      const to = v.runningAt ?? recoverEnd ?? end.at;
      const note = notBack ? `not back: ${v.reason ?? 'did not run again within the wait'}` : downtimeText(v, labTime);
      return { id: `${section}.restart.${v.name}`, label: `restart ${v.name}`, from: v.sentAt!, to: later(to, v.sentAt!), by: 'cluster', status: notBack ? 'failed' : v.runningAt ? 'ok' : end.running ? 'running' : 'halted', ...(note ? { note } : {}) };
    });
  const left = watch
    ? vms
        .filter((v) => v.fate === 'outstanding')
        .map((v): TimelineBar => ({ id: `${section}.left.${v.name}`, label: `not moved ${v.name}`, from: watch.from, to: watch.to, by: 'cluster', status: 'failed', ...(v.reason ? { note: v.reason } : {}) }))
    : [];
  return [...capped(section, 'restart', restarts, 'restarts'), ...capped(section, 'left', left, 'VMs not moved')];
}

function capped(section: string, key: string, bars: TimelineBar[], what: string): TimelineBar[] {
  if (bars.length <= VM_ROWS) return bars;
  const shown = bars.slice(0, VM_ROWS - 1);
  const rest = bars.slice(VM_ROWS - 1);
  const from = rest.map((b) => b.from).reduce(earlier);
  const to = rest.map((b) => b.to).reduce(later);
  const status = rest.map((b) => b.status).reduce(worst);
  const failed = rest.filter((b) => b.status === 'failed').length;
  return [...shown, { id: `${section}.${key}.more`, label: `${rest.length} more ${what}`, from, to, by: 'cluster', status, note: `${failed ? `${failed} failed; ` : ''}each one in the report's VM table` }];
}

const answered = (d: ReportDecision) => (d.by === 'key' ? `key ${d.key ?? ''}`.trim() : d.by === 'flag' ? `flag ${d.flag ?? ''}`.trim() : 'policy');

/** A gate that waited for the operator: from the moment it was shown to the answer (flags and policies answer at once and draw nothing). */
export function waitBars(section: string, decisions: ReportDecision[]): TimelineBar[] {
  return decisions
    .filter((d) => d.shownAt && ms(d.at) - ms(d.shownAt) >= 1000)
    .map((d, i) => ({
      id: `${section}.wait${i + 1}`,
      // What was asked, as the gate put it: its bar (amber, ░) says it was the operator's time.
      label: d.subject ? `${d.gate} ${d.subject}?` : `${d.title.charAt(0).toLowerCase()}${d.title.slice(1)}?`,
      from: d.shownAt!,
      to: d.at,
      by: 'operator' as const,
      status: 'ok' as const,
      note: `${d.choice} by ${answered(d)} after ${formatDuration(ms(d.at) - ms(d.shownAt!))}${d.operator ? ` (${d.operator})` : ''}`,
    }));
}

const stopWords: Record<ReportStop['status'], string> = { awaitingApproval: 'stopped at a gate', failed: 'stopped: failed', interrupted: 'stopped: interrupted', stopped: 'stopped', crashed: 'stopped: crashed' };

export const stopLabel = (s: ReportStop) => (s.status === 'awaitingApproval' && s.gate ? `stopped at the ${s.gate} gate` : stopWords[s.status]);

/** A stop that was resumed: the operator's time from the stop to the resume (a stop the run ended in is a mark). */
export function stopBars(section: string, stops: ReportStop[]): TimelineBar[] {
  return stops
    .filter((s) => s.resumedAt && ms(s.resumedAt) > ms(s.at))
    .map((s, i) => ({
      id: `${section}.stop${i + 1}`,
      label: stopLabel(s),
      from: s.at,
      to: s.resumedAt!,
      by: 'operator' as const,
      status: 'ok' as const,
      note: `resumed${s.resumedBy ? ` by ${s.resumedBy}` : ''} after ${formatDuration(ms(s.resumedAt!) - ms(s.at))}${s.resumedWith ? ` with ${s.resumedWith}` : ''}`,
    }));
}

/** The hop's migration phase in words: counts, what it took beside the plan. */
export function migrationsNote(hop: ReportData['hops'][number] | undefined, vms: ReportVm[], labTime: boolean): string {
  const n = (f: ReportVm['fate']) => vms.filter((v) => v.fate === f).length;
  const counts = [`${n('live-migrated')} live-migrated`, ...(n('evicted') ? [`${n('evicted')} evicted`] : []), ...(n('outstanding') ? [`${n('outstanding')} not moved`] : [])];
  const m = hop?.migrations;
  const took = m ? `; took ${formatDuration(m.measuredSeconds * 1000)}${labTime ? ' lab time' : ''} (planned ${formatDuration(m.plannedP50Seconds * 1000)}-${formatDuration(m.plannedP90Seconds * 1000)})` : '';
  return `${counts.join(', ')}${took}`;
}

/** The pack rollout in words, for the reconcile bar. */
export function rolloutNote(hop: ReportData['hops'][number] | undefined, labTime: boolean): string | undefined {
  const r = hop?.rollout;
  return r ? `pack rollout took ${formatDuration(r.measuredSeconds * 1000)}${labTime ? ' lab time' : ''} (planned ${formatDuration(r.plannedP50Seconds * 1000)}-${formatDuration(r.plannedP90Seconds * 1000)})` : undefined;
}

export { iso, ms };

/**
 * A step that asked at a gate was open while the operator decided: its bar says how much of it was
 * waiting (the operator's bars beside it draw that time).
 */
export function withWaitNotes(bars: TimelineBar[]): TimelineBar[] {
  const waits = bars.filter((b) => b.by === 'operator');
  return bars.map((b) => {
    if (b.by === 'operator') return b;
    const waited = waits.reduce((sum, w) => sum + Math.max(0, Math.min(ms(b.to), ms(w.to)) - Math.max(ms(b.from), ms(w.from))), 0);
    if (waited < 1000 || waited < 0.2 * (ms(b.to) - ms(b.from))) return b;
    const said = `of which ${formatDuration(waited)} waiting for the operator`;
    return { ...b, note: b.note ? `${b.note}; ${said}` : said };
  });
}
