/**
 * `fleet plan`'s lines, pure: the stages as the fleet file writes them, and what the plan read from
 * Palette and the clusters: each cluster's predicted time (p50 typical, p90 slow, from its own plan),
 * each stage's with its concurrency, its soak and its window, and the whole fleet's.
 */
import { durationRange, formatDuration } from '../text/duration.js';
import type { LoadedFleet } from './load.js';
import type { PredictionRead } from './plan-predict.js';
import type { FleetTime } from './plan-window.js';
import { stageWindow, type StageWindowSpec } from './window.js';

export const windowText = (w: StageWindowSpec) => {
  const parsed = stageWindow(w);
  return typeof parsed === 'string' ? parsed : parsed.text;
};

export function planLines(f: LoadedFleet): string[] {
  const lines = [`fleet ${f.spec.fleet}: ${f.clusters.length} cluster(s) to ${f.spec.target} in ${f.spec.stages.length} stage(s) (${f.file})`];
  for (const s of f.spec.stages) {
    const who = s.clusters ? s.clusters.join(', ') : `the clusters tagged ${s.selector!.tags.join(' and ')} (read from Palette when the plan is frozen)`;
    lines.push(`  stage ${s.name}: ${who} (${s.maxConcurrency} at a time, stops at ${s.failureThreshold} failure(s)${s.approval ? ', asks before it starts: --approve stage' : ''}${s.approve.length ? `, its clusters pass ${s.approve.join(', ')} without asking (this file approves them)` : ''}${s.restarts === 'approve' ? ', VM restarts approved by this file (not one outside its owner\'s restart window)' : ''}${s.soak ? `, soaks ${formatDuration(s.soak)} before the next stage` : ''}${s.window ? `, starts clusters only in its window ${windowText(s.window)}` : ''})`);
  }
  const unstaged = f.clusters.filter((c) => !f.spec.stages.some((s) => s.clusters?.includes(c.name)));
  const bySelector = f.spec.stages.some((s) => s.selector);
  if (unstaged.length) lines.push(`  ${bySelector ? 'named in no stage (a selector may take them)' : 'in no stage (not upgraded)'}: ${unstaged.map((c) => c.name).join(', ')}`);
  return lines;
}

/** A prediction (ms) as the plan writes one: rough, a range said once. */
const range = (p50: number, p90: number) => durationRange(p50 / 1000, p90 / 1000);
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The predicted time of each cluster, each stage and the fleet, against the windows. */
export function timeLines(predictions: readonly PredictionRead[], time: FleetTime, stageOf: ReadonlyMap<string, string>, clock: { label?: string }): string[] {
  const lab = clock.label ? ` (${clock.label})` : '';
  const lines = [`  predicted time (each cluster's own plan, as \`upgrade-pilot plan\` predicts one: p50 typical to p90 slow${lab}):`];
  for (const p of predictions) {
    const stage = stageOf.get(p.name);
    lines.push('error' in p ? `    ${p.name} (${stage}): not predicted: ${p.error}; timed as the longest of the others` : `    ${p.name} (${stage}): ${range(p.p50Ms, p.p90Ms)}: ${p.basis}`);
  }
  for (const s of time.stages) {
    const parts = [`${s.clusters} cluster(s), ${s.maxConcurrency} at a time: ${range(s.p50Ms, s.p90Ms)}`];
    if (s.soakMs) parts.push(`then soaks ${formatDuration(s.soakMs)}`);
    if (s.window) parts.push(s.window.fits ? `in its window ${s.window.text}: ${s.window.openings} opening(s), from ${when(s.startsAt)} to ${when(s.endsAt)} when slow` : `its window ${s.window.text} has NO opening long enough (the longest is ${formatDuration(s.window.longestMs ?? 0)}): widen it or split the hops`);
    if (s.borrowed.length) parts.push(`${s.borrowed.join(', ')} timed as the longest of the others`);
    lines.push(`  stage ${s.name}: ${parts.join('; ')}`);
  }
  const windows = time.stages.some((s) => s.window);
  lines.push(
    time.never
      ? `  the whole fleet: does not fit its windows: stage ${time.never.stage} cannot start ${time.never.cluster} in any opening (the longest is ${formatDuration(time.never.longestMs)})`
      : `  the whole fleet: ${range(time.p50Ms, time.p90Ms)}, stages one after another${time.stages.some((s) => s.soakMs) ? ', soaks included' : ''}${windows ? `; with the windows it ends by ${when(time.endsAt)}${lab} when slow` : ''}. Not predicted: the stage approvals and the answers at the gates.`,
  );
  return lines;
}
