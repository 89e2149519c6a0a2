/**
 * `upgrade-pilot fleet plan|start|resume|status|report|retry|skip --fleet FILE`: plain and --json.
 * The fleet folder (`<state-dir>/fleets/<fleet>/`) holds the fleet journal, each cluster's frozen
 * params file and run log, and the fleet report; each cluster's session is in the state dir's
 * sessions as any session is.
 */
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { defaultRateLimits, RateLimiter } from '../palette/rate-limit.js';
import { ExitCode, InputError } from '../errors.js';
import { Coordinator, whoAmI } from '../fleet/coordinator.js';
import { runCluster, stagePolicy } from '../fleet/cluster-run.js';
import { FleetJournal, fleetPaths, readFleetState } from '../fleet/journal.js';
import { loadFleet, withPaletteClusters, type LoadedFleet } from '../fleet/load.js';
import { paletteEntries, readPaletteClusters } from '../fleet/from-palette.js';
import type { PaletteApi } from '../palette/api.js';
import { fleetReportData, writeFleetReport, type FleetReportFormat } from '../fleet/report.js';
import { checkJunitTarget, writeJunitFile } from '../report/junit-file.js';
import type { FleetState, LeftOut, PlannedCluster } from '../fleet/types.js';
import { notifyConfig } from '../notify/config.js';
import { startFleetNotifications } from '../fleet/notify.js';
import { clusterExists, readTargets, stageClusters } from '../fleet/target-set.js';
import { kubeSoakHealth } from '../fleet/soak-health.js';
import { formatDuration } from '../engine/duration.js';
import { clockFor } from '../run/lab-clock.js';
import { loadParams, loadRunbook } from '../engine/load.js';
import { profileRoles } from '../engine/params.js';
import { planP90Ms, predict } from '../fleet/predicted.js';
import { SessionStore } from '../session/store.js';
import { stageWindow, type StageWindowSpec } from '../fleet/window.js';
import { API_KEY_ENV, readApiKey } from '../run/api-key.js';
import { bundledRunbook } from '../engine/bundled-runbook.js';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { perClusterLines } from '../fleet/per-cluster.js';
import { fleetLadders, ladderLines, type FleetLadders } from '../fleet/ladders.js';
import { readFleetVersions, readStarts } from '../fleet/ladder-reads.js';
import { fleetPerCluster } from '../fleet/variable-bindings.js';
import { isInteractive } from '../run/interactive.js';
import { WatchedLimiter } from '../fleet/watched-limiter.js';
import { shellWord, stateDirFlag } from '../run/resume-command.js';
import { buildPalette } from '../run/effects.js';
import { Redactor } from '../session/redact.js';
import type { RunIO } from '../run/session-run.js';
import { ensurePrivateDir, writeFileAtomic } from '../session/durable-fs.js';
import { resolveStateDir } from '../session/paths.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

const timeOfDay = () => new Date().toISOString().slice(11, 19);

function fleetFile(inv: Invocation): string {
  const file = inv.options.fleet;
  if (!file) throw new InputError('usage.fleet', `fleet ${inv.positional ?? ''} needs the fleet file: --fleet FILE.`, { hint: 'See: upgrade-pilot fleet --help' });
  return file;
}

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

/** With `clusters: { fromPalette }`: the fleet with the clusters Palette reports now (the plan freezes them). */
async function resolveFromPalette(f: LoadedFleet, palette: PaletteApi, signal?: AbortSignal): Promise<LoadedFleet> {
  if (!f.fromPalette) return f;
  return withPaletteClusters(f, paletteEntries(await readPaletteClusters(palette, f.fromPalette, signal), f.fromPalette, dirname(f.file)));
}

const fromPaletteText = (from: NonNullable<LoadedFleet['fromPalette']>) => `the clusters that run profile ${from.profile}${from.tags ? ` tagged ${from.tags.join(' and ')}` : ''}`;

/** Freezes the plan: each cluster's params file written, then the plan journaled (the target set from now on). */
function freeze(journal: FleetJournal, f: LoadedFleet, leftOut: LeftOut[], members: Map<string, string[]>): void {
  const clusters: PlannedCluster[] = [];
  for (const s of f.spec.stages) {
    for (const name of members.get(s.name) ?? []) {
      if (leftOut.some((l) => l.name === name)) continue;
      const c = f.clusters.find((x) => x.name === name)!;
      const dir = journal.paths.clusterDir(name);
      ensurePrivateDir(dir);
      const paramsFile = join(dir, 'params.yaml');
      // Notifications are the fleet's (per stage and at the end): the cluster's session sends none of its own.
      const { notify: _notify, ...raw } = c.raw;
      writeFileAtomic(paramsFile, `# ${name} in fleet ${f.spec.fleet}: the fleet file's defaults with its own values, frozen with the plan.\n${stringify(raw)}`);
      clusters.push({ name, uid: c.uid, stage: s.name, paramsFile });
    }
  }
  journal.append({
    type: 'fleet.planned',
    at: new Date().toISOString(),
    fleet: f.spec.fleet,
    file: f.file,
    digest: f.digest,
    target: f.spec.target,
    by: whoAmI(),
    stages: f.spec.stages.map((s) => ({ name: s.name, clusters: (members.get(s.name) ?? []).filter((n) => !leftOut.some((l) => l.name === n)), maxConcurrency: s.maxConcurrency, failureThreshold: s.failureThreshold, approval: s.approval, ...(s.approve.length ? { approve: s.approve } : {}), ...(s.restarts !== 'ask' ? { restarts: s.restarts } : {}), ...(s.soak ? { soakMs: s.soak } : {}), ...(s.window ? { window: s.window } : {}) })),
    clusters,
    leftOut,
  });
}

function statusLines(s: FleetState): string[] {
  const lines = [`fleet ${s.fleet} to ${s.target}`];
  for (const st of s.stages) {
    const soaking = st.soak && st.status !== 'stopped' ? `soaking until ${st.soak.untilWall.slice(11, 16)} UTC` : st.soak ? `stopped in its soak (until ${st.soak.untilWall.slice(11, 16)} UTC; resume soaks what is left)` : st.status;
    lines.push(`  stage ${st.name}: ${soaking}${st.message ? ` (${st.message})` : ''}`);
    for (const c of s.clusters.filter((x) => x.stage === st.name)) {
      lines.push(`    ${c.name.padEnd(16)} ${c.status.padEnd(8)}${c.session ? ` session ${c.session}` : ''}${c.skipReason ? ` skipped: ${c.skipReason}` : c.message ? `: ${c.message}` : ''}${c.unhealthy ? `; unhealthy in the soak: ${c.unhealthy.join('; ')}` : ''}`);
    }
  }
  for (const l of s.leftOut) lines.push(`  left out: ${l.name}: ${l.reason}`);
  return lines;
}

export async function runFleetCommand(inv: Invocation, io: RunIO, registry: () => Promise<StepRegistry>, seams: { inkDebug?: boolean } = {}): Promise<ExitCode> {
  const options = inv.options;
  const action = inv.positional;
  const write = (line: string) => io.stdout.write(`${line}\n`);
  if (!action) throw new InputError('usage.fleet', 'fleet needs an action: plan, start, resume, status, report, retry or skip.', { hint: 'See: upgrade-pilot fleet --help' });
  let fleet = loadFleet(fleetFile(inv));
  const stateDir = resolveStateDir(options['state-dir'], io.env);
  const paths = fleetPaths(stateDir, fleet.spec.fleet);

  if (action === 'plan') {
    const frozen = readFleetState(paths);
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
  if (action === 'status' || action === 'report') {
    const s = readFleetState(paths);
    if (!s) throw new InputError('fleet.not-started', `Fleet ${fleet.spec.fleet} has not started in ${stateDir}.`, { hint: 'Start it with `upgrade-pilot fleet start --fleet FILE` (or give the --state-dir it ran with).' });
    if (action === 'status') {
      if (options.json) write(jsonSafe(JSON.stringify(s)));
      else for (const l of statusLines(s)) write(sanitizeLines(l));
      return ExitCode.ok;
    }
    const format: FleetReportFormat = options.format ?? (options.json ? 'json' : 'md');
    if (options.out) checkJunitTarget(options.out, '--out');
    const files = writeFleetReport(paths, fleetReportData(paths, stateDir, fleet.file, io.env, options['state-dir']));
    if (options.out) {
      writeJunitFile(options.out, files.text[format], '--out', 'fleet report');
      io.stderr.write(`report written: ${options.out} (also ${files.markdown}, ${files.json} and ${files.junit})\n`);
    } else {
      io.stdout.write(files.text[format]);
      io.stderr.write(`report written: ${files.markdown}, ${files.json} and ${files.junit}\n`);
    }
    return ExitCode.ok;
  }

  // Checked before the journal opens: a bad webhook URL stops here, with nothing started.
  const notifyConf = notifyConfig(options, fleet.connection.notify);
  const resumeFleet = `upgrade-pilot fleet resume --fleet ${shellWord(fleet.file)}${stateDirFlag(options['state-dir'], io.env)}`;
  const journal = new FleetJournal(paths);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const redactor = new Redactor();
    // Messages carry names and counts only; the key is removed all the same, as from a session's.
    if (io.env.UPGRADE_PILOT_API_KEY) redactor.add(io.env.UPGRADE_PILOT_API_KEY);
    // One budget for every cluster's calls to Palette (the documented rates unless the defaults say less).
    // It starts full: a coordinator killed a moment ago may have spent this second's budget.
    // Watched: the screen says when reads wait for it.
    const limiter = new WatchedLimiter(new RateLimiter({ ...defaultRateLimits, ...fleet.connection.palette.rateLimits }, undefined, undefined, true));
    // On a terminal, start and resume draw the fleet screen; its lines go there instead of stdout.
    const tui = (action === 'start' || action === 'resume') && isInteractive(options, io) ? await import('./fleet-tui.js') : undefined;
    const link = tui ? new (await import('../screens/fleet/fleet-link.js')).FleetLink(journal, limiter) : undefined;
    const notifications = startFleetNotifications({ config: notifyConf, resume: resumeFleet, interactive: Boolean(link), log: (m) => (link ? link.say(m) : io.stderr.write(`${sanitizeLines(m)}\n`)), redact: (t) => redactor.text(t) });
    const say = (event: Record<string, unknown> & { type: string }, line: string) => {
      if (link) link.say(line);
      else write(options.json ? jsonSafe(JSON.stringify({ ...event, at: new Date().toISOString() })) : sanitizeLines(`${timeOfDay()} ${line}`));
      const state = journal.state();
      if (state) notifications.event(event, state);
    };
    if (action === 'start' && journal.state()) {
      throw new InputError('fleet.started', `Fleet ${fleet.spec.fleet} has already started (${paths.journal}).`, { hint: 'Continue it with `upgrade-pilot fleet resume --fleet FILE`; its plan is frozen.' });
    }
    if (action !== 'start' && !journal.state()) {
      throw new InputError('fleet.not-started', `Fleet ${fleet.spec.fleet} has not started in ${stateDir}.`, { hint: 'Start it with `upgrade-pilot fleet start --fleet FILE`.' });
    }
    if (action === 'skip' || action === 'retry') {
      const name = inv.second;
      const s = journal.state()!;
      const c = s.clusters.find((x) => x.name === name);
      if (!name || !c) throw new InputError('fleet.cluster', `fleet ${action} needs a cluster of the plan${name ? `; ${name} is not one` : ''}.`, { hint: `Clusters: ${s.clusters.map((x) => x.name).join(', ')}.` });
      if (action === 'skip') {
        if (!options.reason) throw new InputError('usage.reason', 'fleet skip needs --reason TEXT (it goes into the report).', { hint: 'e.g. --reason "store closed for renovation"' });
        if (c.status === 'done') throw new InputError('fleet.skip-done', `${name} is upgraded already: nothing to skip.`, { hint: 'See `fleet status`.' });
        journal.append({ type: 'cluster.skipped', at: new Date().toISOString(), cluster: c.name, reason: options.reason, by: whoAmI() });
        say({ type: 'cluster.skipped', cluster: c.name, reason: options.reason }, `${c.name}: skipped (${options.reason})`);
        return ExitCode.ok;
      }
      if (c.status === 'done' || c.status === 'skipped' || c.status === 'pending' || c.status === 'vanished') {
        throw new InputError('fleet.retry', `${name} is ${c.status}: only a failed or stopped cluster is retried.`, { hint: c.status === 'pending' ? 'It has not run yet: `fleet resume` runs it in its stage.' : 'See `fleet status`.' });
      }
      const attempt = c.attempts + 1;
      if (c.session) journal.append({ type: 'cluster.started', at: new Date().toISOString(), cluster: c.name, session: c.session, attempt, resumed: true });
      say({ type: 'cluster.started', cluster: c.name, session: c.session ?? null, attempt }, `${c.name}: retry ${attempt} (session ${c.session ?? 'new'}, the same settings)`);
      const policy = stagePolicy(s.fleet, s.stages.find((x) => x.name === c.stage)!);
      const result = await runCluster({
        name: c.name,
        paramsFile: c.paramsFile,
        stateDir,
        dir: paths.clusterDir(c.name),
        ...(c.session ? { session: c.session } : {}),
        ...(policy ? { policy } : {}),
        options,
        registry: await registry(),
        limiter,
        env: io.env,
        signal: controller.signal,
        // A retry of a session already journaled its start above; only a cluster that never opened one has a new session to record.
        onSession: (id) => (c.session ? undefined : journal.append({ type: 'cluster.started', at: new Date().toISOString(), cluster: c.name, session: id, attempt, resumed: false })),
      });
      const session = journal.state()!.clusters.find((x) => x.name === c.name)?.session ?? '';
      journal.append({ type: 'cluster.ended', at: new Date().toISOString(), cluster: c.name, session, outcome: result.outcome, exitCode: result.exitCode, ...(result.message ? { message: result.message } : {}) });
      say({ type: 'cluster.ended', cluster: c.name, outcome: result.outcome, exitCode: result.exitCode }, `${c.name}: ${result.outcome}${result.message ? `: ${result.message}` : ''}`);
      return result.exitCode as ExitCode;
    }
    const key = readApiKey(options['api-key-file'], io.env, redactor);
    const first = fleet.connection;
    const palette = buildPalette({ params: first, apiKey: key.key, redactor, allowInsecureHttp: options['allow-insecure-http'], limiter });
    if (action === 'start') {
      fleet = await resolveFromPalette(fleet, palette, controller.signal);
      if (fleet.fromPalette) say({ type: 'fleet.clusters', from: fleet.fromPalette, clusters: fleet.clusters.map((c) => c.name) }, `${fromPaletteText(fleet.fromPalette)}: ${fleet.clusters.map((c) => c.name).join(', ')}`);
      // Every cluster of the file is read: a selector stage takes its clusters by their Palette tags.
      const bySelector = fleet.spec.stages.some((s) => s.selector);
      const read = fleet.clusters.filter((c) => bySelector || fleet.spec.stages.some((s) => s.clusters?.includes(c.name)));
      const targets = await readTargets(palette, read, controller.signal);
      const members = stageClusters(fleet.spec.stages, fleet.clusters.map((c) => c.name), targets.tags);
      const staged = new Set([...members.values()].flat());
      const leftOut = targets.leftOut.filter((l) => staged.has(l.name));
      freeze(journal, fleet, leftOut, members);
      for (const l of leftOut) say({ type: 'cluster.left-out', cluster: l.name, reason: l.reason }, `${l.name}: left out of the plan: ${l.reason}`);
      for (const s of fleet.spec.stages.filter((x) => x.selector)) {
        const picked = members.get(s.name) ?? [];
        say({ type: 'stage.selected', stage: s.name, tags: s.selector!.tags, clusters: picked }, `stage ${s.name}: tagged ${s.selector!.tags.join(' and ')}: ${picked.length ? picked.join(', ') : 'no cluster'}`);
      }
    }
    else if (journal.state()!.digest !== fleet.digest) say({ type: 'warning', message: 'fleet file changed' }, `the fleet file changed since the plan was frozen: the frozen plan is followed (the target set does not change under a running fleet)`);
    // Soaks are measured on the clock the sessions follow: the lab's own (accelerated) against a lab.
    const frozen = journal.state()!.clusters[0];
    const clock = await clockFor(frozen ? loadParams(frozen.paramsFile).params : first, key.key, { allowInsecureHttp: options['allow-insecure-http'] });
    const soakHealth = kubeSoakHealth(redactor);
    const sessions = new SessionStore(stateDir, redactor);
    const p90Of = (session: string | undefined) => {
      try {
        return session ? planP90Ms(sessions.load(session)) : undefined;
      } catch {
        return undefined; // a session not readable predicts nothing
      }
    };
    const predictFor = (name: string) => {
      const all = journal.state()!.clusters;
      const others = all.flatMap((c) => {
        const ms = c.name === name ? undefined : p90Of(c.session);
        return ms === undefined ? [] : [{ name: c.name, ms }];
      });
      return predict(name, p90Of(all.find((c) => c.name === name)?.session), others);
    };
    const coordinator = { journal, stateDir, options, registry: await registry(), limiter, env: io.env, signal: controller.signal, clock, soakHealth, predict: predictFor, exists: (uid: string) => clusterExists(palette, uid, controller.signal), say };
    const writeReport = () => writeFleetReport(paths, fleetReportData(paths, stateDir, fleet.file, io.env, options['state-dir']));
    let files: ReturnType<typeof writeReport> | undefined;
    const code = tui && link
      ? await tui.runFleetTui({ link, coordinator: { ...coordinator, ...tui.screenHooks(link) }, stop: () => controller.abort(), resumeCommand: resumeFleet, writeReport: () => (files = writeReport()).markdown, io, inkDebug: Boolean(seams.inkDebug) })
      : await new Coordinator(coordinator).run();
    files ??= writeReport();
    notifications.ended(journal.state()!, code, files.markdown);
    await notifications.flush();
    if (!options.json) write(`fleet report: ${files.markdown}`);
    else write(jsonSafe(JSON.stringify({ type: 'result', fleet: fleet.spec.fleet, exitCode: code, report: files.markdown })));
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    journal.close();
  }
}
