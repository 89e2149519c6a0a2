/**
 * `upgrade-pilot fleet plan --fleet FILE`: what the fleet file says (stages, their policies, the
 * values that differ per cluster) and, with the API key, what Palette and the clusters say now (the
 * clusters left out, each selector stage's clusters, where each cluster starts and its ladder, the
 * profile versions the clusters share, each cluster's, stage's and the fleet's predicted time against
 * the windows). It sends nothing and freezes nothing: `fleet start` freezes the plan.
 */
import { dirname, join } from 'node:path';
import type { CliOptions } from './options.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode } from '../errors.js';
import type { LoadedFleet } from '../fleet/load.js';
import { fromPaletteText } from '../fleet/from-palette.js';
import type { FleetState } from '../fleet/types.js';
import { profileRoles } from '../engine/params.js';
import { API_KEY_ENV } from '../run/api-key.js';
import { perClusterLines } from '../fleet/per-cluster.js';
import { ladderLines } from '../fleet/ladders.js';
import type { readFleetPlan } from '../fleet/plan-reads.js';
import { planFleet } from '../fleet/plan.js';
import { planLines, timeLines } from '../fleet/plan-text.js';
import type { RunIO } from '../run/session-run.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

export async function runFleetPlan(loaded: LoadedFleet, options: CliOptions, io: RunIO, frozen: FleetState | undefined, registry: () => Promise<StepRegistry>): Promise<ExitCode> {
  const write = (line: string) => io.stdout.write(`${line}\n`);
  const plan = await planFleet(loaded, frozen, { ...(options['api-key-file'] !== undefined ? { apiKeyFile: options['api-key-file'] } : {}), allowInsecureHttp: options['allow-insecure-http'], ...(options.runbook !== undefined ? { runbook: options.runbook } : {}), env: io.env }, registry);
  const { fleet, perCluster, read, stageOf } = plan;
  if (loaded.fromPalette && !plan.paletteRead && !frozen && !options.json) write(`fleet ${loaded.spec.fleet}: ${fromPaletteText(loaded.fromPalette)} (read from Palette when the plan is frozen; give the API key, ${API_KEY_ENV} or --api-key-file, to list them now)`);
  if (options.json) {
    const fromPaletteJson = read && !('error' in read) ? { leftOut: read.leftOut, members: Object.fromEntries(read.members), ladders: read.ladders, versionSource: read.source, predictions: predictionsJson(read) } : read ? { laddersError: read.error } : {};
    write(jsonSafe(JSON.stringify({ type: 'plan', fleet: fleet.spec.fleet, target: fleet.spec.target, stages: fleet.spec.stages, clusters: fleet.clusters.map((c) => ({ name: c.name, uid: c.uid })), ...(fleet.fromPalette ? { fromPalette: { ...fleet.fromPalette, read: plan.paletteRead } } : {}), frozen: Boolean(frozen), perCluster, ...fromPaletteJson })));
    return ExitCode.ok;
  }
  if (!fleet.fromPalette || fleet.clusters.length) for (const l of planLines(fleet)) write(sanitizeLines(l));
  if (fleet.fromPalette && fleet.clusters.length) write(`  clusters from Palette: ${fromPaletteText(fleet.fromPalette)}, kubeconfig each ${join(dirname(fleet.file), fleet.fromPalette.kubeconfigDir)}/<name>`);
  const names = new Map(fleet.clusters.flatMap((c) => profileRoles.flatMap((r) => (c.params.profiles[r].name ? [[c.params.profiles[r].uid, c.params.profiles[r].name] as const] : []))));
  if (!fleet.fromPalette || fleet.clusters.length) for (const l of perClusterLines(perCluster.values, { unread: new Set(perCluster.unread.map((p) => p.uid)), names })) write(sanitizeLines(l));
  if (perCluster.unread.length) write(`  give the API key (${API_KEY_ENV} or --api-key-file) and plan again: the plan then reads which settings the shared profiles carry as variables.`);
  if (read && 'error' in read) write(sanitizeLines(`  where each cluster starts: not read: ${read.error}`));
  else if (read) {
    for (const s of fleet.spec.stages.filter((x) => x.selector)) write(sanitizeLines(`  stage ${s.name} (tagged ${s.selector!.tags.join(' and ')}) today: ${(read.members.get(s.name) ?? []).join(', ') || 'no cluster'}`));
    for (const l of read.leftOut) write(sanitizeLines(`  left out: ${l.name}: ${l.reason}`));
    for (const l of ladderLines(read.ladders, read.target, read.source)) write(sanitizeLines(l));
    for (const l of timeLines(read.predictions, read.time, stageOf, read.clock)) write(sanitizeLines(l));
  } else if (!plan.paletteRead && fleet.clusters.length) write(`  give the API key (${API_KEY_ENV} or --api-key-file) and plan again: the plan then reads where each cluster starts, its hops and predicted time, the profile versions the clusters share and the clusters a cluster template manages.`);
  if (frozen) write(`  (a plan was frozen ${frozen.plannedAt} by ${frozen.plannedBy}: \`fleet resume\` follows that one)`);
  return ExitCode.ok;
}

/** `--json`'s predictions: seconds, each cluster's and stage's, and the fleet's with when it would end. */
function predictionsJson(read: Exclude<Awaited<ReturnType<typeof readFleetPlan>>, { error: string }>) {
  const s = (ms: number) => Math.round(ms / 1000);
  return {
    ...(read.clock.label ? { clock: read.clock.label } : {}),
    clusters: read.predictions.map((p) => ('error' in p ? { name: p.name, error: p.error } : { name: p.name, p50Seconds: s(p.p50Ms), p90Seconds: s(p.p90Ms), hops: p.hops, migrate: p.migrate, restarts: p.restarts, basis: p.basis })),
    stages: read.time.stages.map((st) => ({ name: st.name, clusters: st.clusters, maxConcurrency: st.maxConcurrency, p50Seconds: s(st.p50Ms), p90Seconds: s(st.p90Ms), soakSeconds: s(st.soakMs), startsAt: new Date(st.startsAt).toISOString(), endsAt: new Date(st.endsAt).toISOString(), ...(st.window ? { window: st.window } : {}), ...(st.borrowed.length ? { timedAsLongest: st.borrowed } : {}) })),
    fleet: { p50Seconds: s(read.time.p50Ms), p90Seconds: s(read.time.p90Ms), endsAt: new Date(read.time.endsAt).toISOString(), ...(read.time.never ? { doesNotFit: read.time.never } : {}) },
  };
}
