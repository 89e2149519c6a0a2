/**
 * `upgrade-pilot fleet plan|start|resume|status|report|retry|skip --fleet FILE`: plain and --json.
 * The fleet folder (`<state-dir>/fleets/<fleet>/`) holds the fleet journal, each cluster's frozen
 * params file and run log, and the fleet report; each cluster's session is in the state dir's
 * sessions as any session is.
 */
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { defaultRateLimits, RateLimiter } from '../palette/rate-limit.js';
import { ExitCode, InputError } from '../errors.js';
import { Coordinator, whoAmI } from '../fleet/coordinator.js';
import { runCluster, stagePolicy } from '../fleet/cluster-run.js';
import { FleetJournal, fleetPaths, readFleetState } from '../fleet/journal.js';
import { loadFleet, type LoadedFleet } from '../fleet/load.js';
import { fleetReportData, writeFleetReport, type FleetReportFormat } from '../fleet/report.js';
import { plainText, textColumns, timelineText } from '../report/timeline/text.js';
import { checkJunitTarget, writeJunitFile } from '../report/junit-file.js';
import type { FleetState, LeftOut, PlannedCluster } from '../fleet/types.js';
import { notifyConfig } from '../notify/config.js';
import { startFleetNotifications } from '../fleet/notify.js';
import { clusterExists, readTargets, stageClusters } from '../fleet/target-set.js';
import { kubeSoakHealth } from '../fleet/soak-health.js';
import { clockFor } from '../run/lab-clock.js';
import { loadParams } from '../engine/load.js';
import { planP90Ms, predict } from '../fleet/predicted.js';
import { SessionStore } from '../session/store.js';
import { readApiKey } from '../run/api-key.js';
import { fromPaletteText, resolveFromPalette, runFleetPlan } from './fleet-plan.js';
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

  if (action === 'plan') return runFleetPlan(fleet, options, io, readFleetState(paths), registry);
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
      io.stderr.write(`report written: ${options.out} (also ${files.markdown}, ${files.json}, ${files.junit} and ${files.html})\n`);
    } else {
      io.stdout.write(options.timeline ? `${sanitizeLines(plainText(timelineText(files.data.timeline, textColumns(io.stdout, io.env), `Fleet ${files.data.fleet}`)).join('\n'))}\n` : files.text[format]);
      io.stderr.write(`report written: ${files.markdown}, ${files.json}, ${files.junit} and ${files.html}\n`);
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
