/**
 * `upgrade-pilot fleet plan --fleet FILE`: what the fleet file says (stages, their policies, the
 * values that differ per cluster) and, with the API key, what Palette says now (the clusters left
 * out, each selector stage's clusters, where each cluster starts and its ladder, the profile versions
 * the clusters share). It sends nothing and freezes nothing: `fleet start` freezes the plan.
 */
import { dirname, join } from 'node:path';
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { defaultRateLimits, RateLimiter } from '../palette/rate-limit.js';
import { ExitCode } from '../errors.js';
import { withPaletteClusters, type LoadedFleet } from '../fleet/load.js';
import { fromPaletteText, paletteEntries, resolveFromPalette } from '../fleet/from-palette.js';
import type { PaletteApi } from '../palette/api.js';
import type { FleetState, LeftOut } from '../fleet/types.js';
import { readTargets, stageClusters } from '../fleet/target-set.js';
import { formatDuration } from '../engine/duration.js';
import { loadRunbook } from '../engine/load.js';
import { profileRoles } from '../engine/params.js';
import { stageWindow, type StageWindowSpec } from '../fleet/window.js';
import { API_KEY_ENV, readApiKey } from '../run/api-key.js';
import { bundledRunbook } from '../engine/bundled-runbook.js';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { perClusterLines } from '../fleet/per-cluster.js';
import { fleetLadders, ladderLines, type FleetLadders } from '../fleet/ladders.js';
import { readFleetVersions, readStarts } from '../fleet/ladder-reads.js';
import { fleetPerCluster } from '../fleet/variable-bindings.js';
import { buildPalette } from '../run/effects.js';
import { Redactor } from '../session/redact.js';
import type { RunIO } from '../run/session-run.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

const windowText = (w: StageWindowSpec) => {
  const parsed = stageWindow(w);
  return typeof parsed === 'string' ? parsed : parsed.text;
};

function planLines(f: LoadedFleet): string[] {
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

/**
 * The values that differ per cluster and how each reaches its clusters. The shared profiles'
 * variables are read from Palette only when they could change the answer and a key is given: a
 * plan without a key still shows everything else.
 */
async function planPerCluster(f: LoadedFleet, options: Invocation['options'], palette: PaletteApi | undefined): Promise<Awaited<ReturnType<typeof fleetPerCluster>>> {
  const runbook = options.runbook ?? bundledRunbook();
  const text = readBoundedText(runbook, { what: 'runbook', maxBytes: LIMITS.runbookFile });
  return fleetPerCluster(f.clusters, text, palette);
}

/**
 * Read from Palette for the plan (with a key): the clusters left out (template-managed, gone), each
 * stage's clusters (a selector's by their tags, as `start` will freeze them), where each cluster
 * starts and its ladder, and the profile versions several clusters share.
 */
async function planReads(f: LoadedFleet, palette: PaletteApi, registry: StepRegistry, runbook: string): Promise<{ leftOut: LeftOut[]; members: Map<string, string[]>; ladders: FleetLadders; target: string; source: string } | { error: string }> {
  const targets = await readTargets(palette, f.clusters);
  const members = stageClusters(f.spec.stages, f.clusters.map((c) => c.name), targets.tags);
  const staged = [...members].flatMap(([stage, names]) => names.filter((n) => !targets.leftOut.some((l) => l.name === n)).map((name) => ({ stage, c: f.clusters.find((x) => x.name === name)! })));
  const notes = loadRunbook(runbook, f.connection, registry).runbook.versionNotes;
  const versions = await readFleetVersions(f.connection, palette, notes);
  if ('error' in versions) return { error: versions.error };
  const starts = await readStarts(palette, staged.map(({ stage, c }) => ({ name: c.name, uid: c.uid, stage, pack: c.params.packs.orchestration })));
  return { leftOut: targets.leftOut, members, ladders: fleetLadders(starts, versions.target, versions.available, versions.stones), target: versions.target, source: versions.source };
}

/** Palette, for the plan's reads: only when an API key is given (a plan without one shows what the file says). */
function planPalette(f: LoadedFleet, options: Invocation['options'], env: NodeJS.ProcessEnv): PaletteApi | undefined {
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], env, redactor);
  const params = f.connection;
  return key.key ? buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp: options['allow-insecure-http'], limiter: new RateLimiter({ ...defaultRateLimits, ...params.palette.rateLimits }) }) : undefined;
}

export async function runFleetPlan(loaded: LoadedFleet, options: Invocation['options'], io: RunIO, frozen: FleetState | undefined, registry: () => Promise<StepRegistry>): Promise<ExitCode> {
  const write = (line: string) => io.stdout.write(`${line}\n`);
  let fleet = loaded;
  const palette = planPalette(fleet, options, io.env);
  if (fleet.fromPalette && !palette && !frozen && !options.json) write(`fleet ${fleet.spec.fleet}: ${fromPaletteText(fleet.fromPalette)} (read from Palette when the plan is frozen; give the API key, ${API_KEY_ENV} or --api-key-file, to list them now)`);
  // A frozen plan's clusters are the fleet's from then on: Palette is not asked again (a cluster upgraded runs another version now).
  if (fleet.fromPalette && frozen) fleet = withPaletteClusters(fleet, paletteEntries([...frozen.clusters, ...frozen.leftOut].map((c) => ({ name: c.name, uid: c.uid, tags: [] })), { ...fleet.fromPalette, tags: [] }, dirname(fleet.file)));
  else if (palette) fleet = await resolveFromPalette(fleet, palette);
  const perCluster = await planPerCluster(fleet, options, palette);
  const read = palette && fleet.clusters.length ? await planReads(fleet, palette, await registry(), options.runbook ?? bundledRunbook()) : undefined;
  if (options.json) {
    const fromPaletteJson = read && !('error' in read) ? { leftOut: read.leftOut, members: Object.fromEntries(read.members), ladders: read.ladders, versionSource: read.source } : read ? { laddersError: read.error } : {};
    write(jsonSafe(JSON.stringify({ type: 'plan', fleet: fleet.spec.fleet, target: fleet.spec.target, stages: fleet.spec.stages, clusters: fleet.clusters.map((c) => ({ name: c.name, uid: c.uid })), ...(fleet.fromPalette ? { fromPalette: { ...fleet.fromPalette, read: Boolean(palette) } } : {}), frozen: Boolean(frozen), perCluster, ...fromPaletteJson })));
  } else {
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
    } else if (!palette && fleet.clusters.length) write(`  give the API key (${API_KEY_ENV} or --api-key-file) and plan again: the plan then reads where each cluster starts, its hops, the profile versions the clusters share and the clusters a cluster template manages.`);
    if (frozen) write(`  (a plan was frozen ${frozen.plannedAt} by ${frozen.plannedBy}: \`fleet resume\` follows that one)`);
  }
  return ExitCode.ok;
}
