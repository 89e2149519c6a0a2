/**
 * The fleet's timeline: one section per stage, each cluster's run a bar (a retry or a resume its own
 * bar), the stage's soak drawn, the wait at a stage's gate as the operator's time, skips and halts
 * marked, each stage's window openings behind it. From the fleet journal and the report's rows, so
 * it says what the tables say. Pure.
 */
import type { TimelineBar, Timeline, TimelineMark, TimelineSection, TimelineWindow } from '../report/timeline/schema.js';
import { inWindow, nextOpening } from '../domain/impact/vm-limits.js';
import { machineTimeZone } from '../text/time-zone.js';
import type { FleetClusterRow, FleetReport, FleetStageRow } from './report-schema.js';
import type { FleetEvent } from './types.js';
import { closesAt, stageWindow } from './window.js';

type ReportBody = Omit<FleetReport, 'timeline'>;
type Ev<T extends FleetEvent['type']> = Extract<FleetEvent, { type: T }>;

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const of = <T extends FleetEvent['type']>(events: readonly FleetEvent[], type: T) => events.filter((e): e is Ev<T> => e.type === type);

const statusOf = (outcome: string | null, running: boolean): TimelineBar['status'] =>
  outcome === 'done' ? 'ok' : outcome === 'failed' || outcome === 'error' ? 'failed' : outcome === null && running ? 'running' : 'halted';

/** The cluster's last run says its fate: versions reached, VMs moved; an earlier run says how it ended. */
function runNote(c: FleetClusterRow, run: FleetClusterRow['runs'][number], last: boolean): string | undefined {
  if (!last) return run.message ?? (run.outcome ? `ended: ${run.outcome}` : 'no end recorded');
  const versions = c.versions?.from && c.versions.to ? ` ${c.versions.from} → ${c.versions.to}` : '';
  const vms = c.vms ? `; VMs ${c.vms.migrated} migrated, ${c.vms.restarted} restarted${c.vms.outstanding ? `, ${c.vms.outstanding} outstanding` : ''}` : '';
  return `${c.fate}${versions}${vms}${run.message ? `: ${run.message}` : ''}`;
}

function clusterBars(stage: string, c: FleetClusterRow, end: number, running: boolean): TimelineBar[] {
  return c.runs.map((run, i) => {
    const to = run.endedAt ?? iso(Math.max(ms(run.at), end));
    const label = i === 0 ? c.cluster : `${c.cluster} ${run.attempt > (c.runs[i - 1]?.attempt ?? 0) ? `retry ${run.attempt - 1}` : 'resumed'}`;
    const note = runNote(c, run, i === c.runs.length - 1);
    return { id: `${stage}.${c.cluster}.run${i + 1}`, label, from: run.at, to, by: 'cluster', status: statusOf(run.outcome, running && run.endedAt === null), ...(note ? { note } : {}) };
  });
}

function soakBars(stage: FleetStageRow, events: readonly FleetEvent[], end: number): TimelineBar[] {
  const soaks = of(events, 'stage.soak.started').filter((e) => e.stage === stage.name);
  return soaks.map((s, i) => {
    const ended = of(events, 'stage.ended').find((e) => e.stage === stage.name && ms(e.at) >= ms(s.at));
    const to = Math.min(ms(s.untilWall), ended ? ms(ended.at) : end);
    const unhealthy = of(events, 'cluster.unhealthy').filter((u) => u.stage === stage.name && ms(u.at) >= ms(s.at) && ms(u.at) <= to);
    const status: TimelineBar['status'] = unhealthy.length ? 'failed' : ended ? (ended.outcome === 'stopped' ? 'halted' : 'ok') : 'running';
    const note = unhealthy.length ? `unhealthy: ${unhealthy.map((u) => u.cluster).join(', ')}` : status === 'ok' ? 'every cluster healthy' : undefined;
    return { id: `${stage.name}.soak${i + 1}`, label: 'soak', from: s.at, to: iso(Math.max(ms(s.at), to)), by: 'cluster' as const, status, ...(note ? { note } : {}) };
  });
}

/** A skip or a vanishing: an instant, drawn as a short grey bar with why. */
function leftBars(stage: string, clusters: string[], events: readonly FleetEvent[]): TimelineBar[] {
  const skips = of(events, 'cluster.skipped')
    .filter((e) => clusters.includes(e.cluster))
    .map((e): TimelineBar => ({ id: `${stage}.${e.cluster}.skipped`, label: `${e.cluster} skipped`, from: e.at, to: e.at, by: 'operator', status: 'skipped', note: `${e.reason} (${e.by})` }));
  const gone = of(events, 'cluster.vanished')
    .filter((e) => clusters.includes(e.cluster))
    .map((e): TimelineBar => ({ id: `${stage}.${e.cluster}.vanished`, label: `${e.cluster} gone`, from: e.at, to: e.at, by: 'cluster', status: 'skipped', note: 'gone from Palette since the plan' }));
  return [...skips, ...gone];
}

/** The wait at a stage's gate: from the end of the stage before (or the plan) to its approval. */
function gateBar(stage: FleetStageRow, before: string): TimelineBar[] {
  const a = stage.approval;
  if (!stage.needsApproval || !a || ms(a.at) - ms(before) < 1000) return [];
  return [{ id: `${stage.name}.gate`, label: `gate stage ${stage.name}`, from: before, to: a.at, by: 'operator', status: 'ok', note: `approved by ${a.by} ${a.detail}${a.operator ? ` (${a.operator})` : ''}` }];
}

/** Each stage window's openings that meet the axis. */
function windowsOf(events: readonly FleetEvent[], from: number, to: number): TimelineWindow[] {
  const planned = of(events, 'fleet.planned')[0];
  const out: TimelineWindow[] = [];
  for (const s of planned?.stages ?? []) {
    if (!s.window) continue;
    const w = stageWindow(s.window);
    if (typeof w === 'string') continue;
    // An opening the axis starts in began earlier: walk back to its start, minute by minute as windows go.
    let t = Math.floor(from / 60_000) * 60_000;
    if (inWindow(w, t)) while (inWindow(w, t - 60_000) && from - t < 25 * 3_600_000) t -= 60_000;
    else t = from;
    for (let n = 0; n < 20 && t <= to; n++) {
      const opens = inWindow(w, t) ? t : nextOpening(w, t);
      if (opens === undefined || opens > to) break;
      const closes = closesAt(w, opens) ?? opens;
      out.push({ from: iso(opens), to: iso(closes), label: `stage ${s.name} window (${s.window.days.join(', ')} ${s.window.start} for ${s.window.hours} h, ${s.window.timeZone})` });
      t = closes + 60_000;
    }
  }
  return out;
}

export function fleetTimeline(events: readonly FleetEvent[], r: ReportBody): Timeline {
  const times = events.slice(1).map((e) => ms(e.at));
  const from = r.startedAt ?? (times.length ? iso(Math.min(...times)) : r.plannedAt);
  const running = r.endedAt === null && r.stages.some((s) => s.status === 'running' || s.status === 'soaking');
  const end = r.endedAt ? ms(r.endedAt) : running ? ms(r.generatedAt) : Math.max(ms(from), ...times);
  const sections: TimelineSection[] = [];
  let before = r.plannedAt;
  for (const stage of r.stages) {
    const rows = r.clusters.filter((c) => c.stage === stage.name);
    const bars = [...gateBar(stage, before), ...rows.flatMap((c) => clusterBars(stage.name, c, end, running)), ...soakBars(stage, events, end), ...leftBars(stage.name, stage.clusters, events)].sort((a, b) => ms(a.from) - ms(b.from));
    if (stage.endedAt) before = stage.endedAt;
    if (bars.length) sections.push({ id: stage.name, title: `Stage ${stage.name} (${stage.clusters.length} cluster${stage.clusters.length === 1 ? '' : 's'}, ${stage.maxConcurrency} at a time)`, bars });
  }
  const marks: TimelineMark[] = [
    ...r.stages.filter((s) => s.status === 'failed' && s.endedAt).map((s): TimelineMark => ({ at: s.endedAt!, label: `stage ${s.name} halted${s.message ? `: ${s.message}` : ''}`, status: 'failed' })),
    ...of(events, 'fleet.stopped').map((e): TimelineMark => ({ at: e.at, label: `fleet stopped: ${e.reason}`, status: 'stopped' })),
    ...(r.endedAt && r.stages.every((s) => s.status === 'done') ? [{ at: r.endedAt, label: 'done', status: 'ok' as const }] : []),
  ].sort((a, b) => ms(a.at) - ms(b.at));
  const zone = of(events, 'fleet.planned')[0]?.stages.find((s) => s.window)?.window?.timeZone ?? machineTimeZone();
  // A retry after its stage halted runs past the stages' end: the axis reaches every bar.
  const last = Math.max(end, ms(from) + 1000, ...sections.flatMap((s) => s.bars.map((b) => ms(b.to))), ...marks.map((m) => ms(m.at)));
  return { from, to: iso(last), timeZone: zone, windows: windowsOf(events, ms(from), last), sections, marks };
}
