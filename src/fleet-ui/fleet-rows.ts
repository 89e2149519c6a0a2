/**
 * The fleet screen's lines, pure: a header per stage (its state in words: waiting approval, running,
 * halting, soaking, done, failed, stopped, pending; its counts), then one row per cluster of the
 * stage (stage order, then the plan's order) in columns that fit the width: the name column as wide
 * as the longest name needs (at most 22; longer ones shortened in the middle, both ends kept:
 * `store-0…-east`), the step column the rest, its text cut only between words (a name or a version
 * is never cut in two); Enter shows a row whole (rowDetail). The gates waiting across the fleet,
 * each with its cluster named, in the order they started waiting.
 */
import { failureLimit } from '../fleet/state.js';
import type { ClusterState, FleetState, StageState } from '../fleet/types.js';
import { sanitizeText } from '../text/sanitize.js';
import { fitMiddle } from '../screens/fit-text.js';
import type { ClusterLive } from './types.js';
import { formatDuration } from '../text/duration.js';

export type FleetLine =
  | { kind: 'stage'; stage: string; text: string; state: string }
  | { kind: 'cluster'; cluster: string; text: string; status: string };

/** The words a stage header says for its state. */
export function stageWord(s: StageState, waitingApproval: boolean): string {
  if (waitingApproval) return 'waiting approval';
  if (s.halting && s.status === 'running') return 'halting';
  // A stage that ran its clusters and waits out its soak says so (a coordinator that soaks journals it as `soaking`).
  return String(s.status);
}

const COLUMNS = { status: 9, hop: 4, vms: 9, health: 6, time: 6 } as const;

/** The widths of the name and step columns at `width` (the rest are fixed): the name as wide as `longest` needs, the step the rest. */
export function columnWidths(width: number, longest = 22): { name: number; step: number } {
  const fixed = COLUMNS.status + COLUMNS.hop + COLUMNS.vms + COLUMNS.health + COLUMNS.time + 7; // 7 gaps, the marker
  const free = Math.max(16, width - fixed);
  const name = Math.min(Math.max(7, longest), 22, Math.max(10, Math.floor(free * 0.45)));
  return { name, step: Math.max(6, free - name) };
}

const cutEnd = (s: string, w: number) => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s.padEnd(w));

/** `s` in `w` columns, cut only between words (after a space): a name, a version or a path is never cut in two. */
export function cutWords(s: string, w: number): string {
  if (s.length <= w) return s.padEnd(w);
  const room = s.slice(0, Math.max(0, w - 1));
  const space = room.lastIndexOf(' ');
  // One word longer than half the column: cut it (nothing better fits), still marked.
  const kept = space >= w / 2 ? room.slice(0, space) : room;
  return `${kept.trimEnd()}…`.padEnd(w);
}

const hhmm = (iso: string) => iso.slice(11, 16);

/** What a cluster's STEP column says: the gate it waits at, what stopped it, the unwatched rollout, or its step. */
export function stepText(c: ClusterState, live: ClusterLive | undefined): string {
  if (live?.gate) return `at gate: ${live.gate}`;
  if (c.status === 'unwatched' && c.unwatched) return `applied, rollout continues unwatched since ${hhmm(c.unwatched.since)} UTC`;
  // What stopped a cluster says more than the step it stopped in (Enter shows it whole).
  if ((c.status === 'failed' || c.status === 'stopped' || c.status === 'gate') && c.message) return c.message;
  if (c.status === 'skipped') return `skipped: ${c.skipReason ?? ''}`;
  return live?.step ?? c.message ?? '';
}
const right = (s: string, w: number) => (s.length > w ? s.slice(0, w) : s.padStart(w));

export function headerLine(width: number, longest?: number): string {
  const w = columnWidths(width, longest);
  return ` ${'CLUSTER'.padEnd(w.name)} ${'STATUS'.padEnd(COLUMNS.status)} ${'STEP'.padEnd(w.step)} ${'HOP'.padEnd(COLUMNS.hop)} ${right('VMs m/r/o', COLUMNS.vms)} ${'HEALTH'.padEnd(COLUMNS.health)} ${right('TIME', COLUMNS.time)}`;
}

function elapsed(c: ClusterState, now: number): string {
  if (!c.startedAt) return '';
  const end = c.endedAt && c.status !== 'running' ? Date.parse(c.endedAt) : now;
  return formatDuration(Math.max(0, end - Date.parse(c.startedAt)));
}

/** A cluster's status word on its row: a gate waiting for a key says so before anything else. */
export function statusWord(c: ClusterState, live: ClusterLive | undefined): string {
  if (live?.gate && c.status === 'running') return 'GATE';
  return c.status;
}

export function clusterText(c: ClusterState, live: ClusterLive | undefined, width: number, now: number, longest?: number): string {
  const w = columnWidths(width, longest);
  const step = sanitizeText(stepText(c, live), { max: 400 });
  // A soak's reading of a done cluster is newer than anything its session read.
  const health = c.unhealthy?.length ? `${c.unhealthy.length} red` : (live?.health ?? '');
  const vms = live?.vms ? `${live.vms.migrated}/${live.vms.restarted}/${live.vms.outstanding}` : '';
  return ` ${fitMiddle(c.name, w.name)} ${cutEnd(statusWord(c, live), COLUMNS.status)} ${cutWords(step, w.step)} ${cutEnd(live?.hop ?? '', COLUMNS.hop)} ${right(vms, COLUMNS.vms)} ${cutEnd(health, COLUMNS.health)} ${right(elapsed(c, now), COLUMNS.time)}`;
}

function stageText(s: StageState, state: FleetState, word: string, width: number): string {
  const clusters = state.clusters.filter((c) => c.stage === s.name);
  const done = clusters.filter((c) => c.status === 'done').length;
  const failed = clusters.filter((c) => c.status === 'failed').length;
  const limit = failureLimit(s.failureThreshold, s.clusters.length);
  const halting = word === 'halting' && s.halting ? ` (${s.halting.why})${s.halting.carrying.length ? ` · watching ${s.halting.carrying.join(', ')} to a safe point` : ''}` : '';
  const text = `▸ ${s.name}: ${word}${halting} · ${done}/${clusters.length} done${failed ? ` · ${failed} failed` : ''} · ${s.maxConcurrency} at a time, stops at ${limit}${s.approval ? ' · asks approval' : ''}`;
  return cutEnd(sanitizeText(text, { max: 400 }), Math.max(10, width));
}

/** The longest cluster name of the fleet (the name column's need). */
export const longestName = (state: FleetState) => Math.max(7, ...state.clusters.map((c) => c.name.length), ...state.leftOut.map((l) => l.name.length));

export function fleetLines(state: FleetState, live: (name: string) => ClusterLive | undefined, opts: { width: number; now: number; stageWaiting?: string | undefined }): FleetLine[] {
  const out: FleetLine[] = [];
  const longest = longestName(state);
  for (const s of state.stages) {
    const word = stageWord(s, opts.stageWaiting === s.name);
    out.push({ kind: 'stage', stage: s.name, text: stageText(s, state, word, opts.width), state: word });
    for (const c of state.clusters.filter((x) => x.stage === s.name)) {
      const l = live(c.name);
      out.push({ kind: 'cluster', cluster: c.name, text: clusterText(c, l, opts.width, opts.now, longest), status: statusWord(c, l) });
    }
  }
  if (state.leftOut.length) {
    out.push({ kind: 'stage', stage: '', text: cutEnd(`▸ left out of the plan: ${state.leftOut.length}`, opts.width), state: 'left-out' });
    const name = columnWidths(opts.width, longest).name;
    for (const l of state.leftOut) out.push({ kind: 'cluster', cluster: l.name, text: ` ${fitMiddle(l.name, name)} ${cutWords(`left out: ${sanitizeText(l.reason, { max: 300 })}`, Math.max(10, opts.width - name - 2))}`, status: 'left-out' });
  }
  return out;
}

export interface QueuedGate {
  /** null: the fleet's own stage gate. */
  cluster: string | null;
  title: string;
}

/** The gates waiting for a key: the stage's first (nothing of the stage starts before it), then each cluster's, in plan order. */
export function queuedGates(state: FleetState, live: (name: string) => ClusterLive | undefined, stageGate?: { stage: string; title: string }): QueuedGate[] {
  const out: QueuedGate[] = stageGate ? [{ cluster: null, title: stageGate.title }] : [];
  for (const c of state.clusters) {
    const g = live(c.name)?.gate;
    if (g) out.push({ cluster: c.name, title: sanitizeText(g, { max: 300 }) });
  }
  return out;
}

/** A row whole, for Enter on it (and under the table for the selected one): every field, nothing cut; the screen wraps it. */
export function rowDetail(state: FleetState, name: string, live: ClusterLive | undefined, resumeCommand: string, now: number): string[] {
  const c = state.clusters.find((x) => x.name === name);
  if (!c) {
    const l = state.leftOut.find((x) => x.name === name);
    return l ? [`${l.name} (${l.uid}): left out of the plan: ${sanitizeText(l.reason, { max: 600 })}`] : [];
  }
  const lines = [`${c.name} · stage ${c.stage} · ${statusWord(c, live)}${c.session ? ` · session ${c.session}` : ''}${c.attempts > 1 ? ` · run ${c.attempts}` : ''}${c.startedAt ? ` · ${elapsed(c, now)}` : ''}`];
  const step = stepText(c, live);
  if (step) lines.push(sanitizeText(step, { max: 1_000 }));
  if (live?.step && live.step !== step) lines.push(`step: ${live.step}${live.hop ? ` (hop ${live.hop})` : ''}`);
  if (c.unwatched) lines.push(`applied hop ${c.unwatched.hop} of ${c.unwatched.of} (${c.unwatched.versions}) at ${hhmm(c.unwatched.appliedAt)} UTC; nobody watches its rollout since ${hhmm(c.unwatched.since)} UTC: \`${resumeCommand}\` watches it again`);
  if (c.gateFlags?.length) lines.push(`answered by: ${c.gateFlags.join(' ')}`);
  if (c.unhealthy?.length) lines.push(`unhealthy in the soak: ${c.unhealthy.join('; ')}`);
  return lines;
}
