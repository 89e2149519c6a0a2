/**
 * `upgrade-pilot fleet plan|start|resume|status|report|retry|skip|stop --fleet FILE`: plain and --json.
 * The fleet folder (`<state-dir>/fleets/<fleet>/`) holds the fleet journal, each cluster's frozen
 * params file and run log, and the fleet report; each cluster's session is in the state dir's
 * sessions as any session is. This module parses, calls src/fleet and prints.
 */
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { defaultRateLimits, RateLimiter } from '../palette/rate-limit.js';
import { ExitCode, InputError } from '../errors.js';
import { Coordinator, whoAmI } from '../fleet/coordinator.js';
import { prepareFleetRun, type Say } from '../fleet/fleet-run.js';
import { FleetJournal, fleetPaths, readFleetState } from '../fleet/journal.js';
import { loadFleet } from '../fleet/load.js';
import { fleetReportData, writeFleetReport, type FleetReportFormat } from '../fleet/report.js';
import { plainText, textColumns, timelineText } from '../report/timeline/text.js';
import { checkRetry, retryCluster, skipCluster } from '../fleet/retry.js';
import { fleetStatus } from '../fleet/status.js';
import { FleetStop, ownSignals, requestStop, runningCoordinator, watchStopRequests } from '../fleet/stop-control.js';
import { checkJunitTarget, writeJunitFile } from '../report/junit-file.js';
import { notifyConfig } from '../notify/config.js';
import { startFleetNotifications } from '../fleet/notify.js';
import { runFleetPlan } from './fleet-plan.js';
import { isInteractive } from '../run/interactive.js';
import { WatchedLimiter } from '../fleet/watched-limiter.js';
import { shellWord, stateDirFlag } from '../run/resume-command.js';
import { Redactor } from '../session/redact.js';
import type { RunIO } from '../run/session-run.js';
import { resolveStateDir } from '../session/paths.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

const timeOfDay = () => new Date().toISOString().slice(11, 19);

function fleetFile(inv: Invocation): string {
  const file = inv.options.fleet;
  if (!file) throw new InputError('usage.fleet', `fleet ${inv.positional ?? ''} needs the fleet file: --fleet FILE.`, { hint: 'See: upgrade-pilot fleet --help' });
  return file;
}

export async function runFleetCommand(inv: Invocation, io: RunIO, registry: () => Promise<StepRegistry>, seams: { inkDebug?: boolean } = {}): Promise<ExitCode> {
  const options = inv.options;
  const action = inv.positional;
  const write = (line: string) => io.stdout.write(`${line}\n`);
  if (!action) throw new InputError('usage.fleet', 'fleet needs an action: plan, start, resume, status, report, retry, skip or stop.', { hint: 'See: upgrade-pilot fleet --help' });
  const fleet = loadFleet(fleetFile(inv));
  const stateDir = resolveStateDir(options['state-dir'], io.env);
  const paths = fleetPaths(stateDir, fleet.spec.fleet);
  const fleetFlags = `--fleet ${shellWord(fleet.file)}${stateDirFlag(options['state-dir'], io.env)}`;
  if (options.revoke.length && action !== 'resume' && action !== 'retry') throw new InputError('usage.revoke', `--revoke is for fleet resume and fleet retry (it takes an approval away from the run), not fleet ${action}.`, { hint: 'See: upgrade-pilot fleet --help' });
  if (options.now && action !== 'stop') throw new InputError('usage.now', `--now is for fleet stop, not fleet ${action}.`, { hint: 'See: upgrade-pilot fleet --help' });

  if (action === 'plan') return runFleetPlan(fleet, options, io, readFleetState(paths), registry);
  if (action === 'stop') {
    const { pid } = await requestStop(paths, options.now ? 'now' : 'halt', whoAmI());
    write(
      options.now
        ? `fleet ${fleet.spec.fleet} (pid ${pid}): stopping now: every cluster stops at its next safe point; applied ones are left with their rollout unwatched (said so in its status, with \`upgrade-pilot fleet resume ${fleetFlags}\` to watch them again)`
        : `fleet ${fleet.spec.fleet} (pid ${pid}): halting: no new cluster starts; applied ones are watched to a safe point first (\`fleet stop --now ${fleetFlags}\` leaves them unwatched). \`upgrade-pilot fleet status ${fleetFlags}\` shows where it stands`,
    );
    return ExitCode.ok;
  }
  if (action === 'status' || action === 'report') {
    const s = readFleetState(paths);
    if (!s) throw new InputError('fleet.not-started', `Fleet ${fleet.spec.fleet} has not started in ${stateDir}.`, { hint: 'Start it with `upgrade-pilot fleet start --fleet FILE` (or give the --state-dir it ran with).' });
    if (action === 'status') {
      const running = runningCoordinator(paths);
      const status = fleetStatus(s, { fleetFlags, ...(running ? { running } : {}) });
      if (options.json) write(jsonSafe(JSON.stringify({ ...s, exitCode: status.code, next: status.next })));
      else for (const l of status.lines) write(sanitizeLines(l));
      return status.code;
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
  if (action !== 'start' && action !== 'resume' && action !== 'retry' && action !== 'skip') throw new InputError('usage.fleet', `fleet does not know the action "${action}".`, { hint: 'See: upgrade-pilot fleet --help' });

  // Checked before the journal opens: a bad webhook URL stops here, with nothing started.
  const notifyConf = notifyConfig(options, fleet.connection.notify);
  const resumeFleet = `upgrade-pilot fleet resume ${fleetFlags}`;
  const journal = new FleetJournal(paths);
  const stop = new FleetStop();
  const cleanups: Array<() => void> = [() => journal.close()];
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
    const link = tui ? new (await import('../fleet-ui/fleet-link.js')).FleetLink(journal, limiter) : undefined;
    const notifications = startFleetNotifications({ config: notifyConf, resume: resumeFleet, interactive: Boolean(link), log: (m) => (link ? link.say(m) : io.stderr.write(`${sanitizeLines(m)}\n`)), redact: (t) => redactor.text(t) });
    const say: Say = (event, line) => {
      if (link) link.say(line);
      else if (line || options.json) write(options.json ? jsonSafe(JSON.stringify({ ...event, at: new Date().toISOString() })) : sanitizeLines(`${timeOfDay()} ${line}`));
      const state = journal.state();
      if (state) notifications.event(event, state);
    };
    // The fleet owns the process's signals: the first stops every cluster cleanly, a second exits at once.
    cleanups.push(ownSignals(stop, whoAmI(), (line) => say({ type: 'signal', message: line }, line)));
    cleanups.push(watchStopRequests(paths, stop, (req, did) => say({ type: 'stop.requested', mode: req.mode, by: req.by, did }, `${req.reason} by ${req.by}: ${did === 'halt' ? 'halting: no new cluster starts, applied ones are watched to a safe point' : did === 'now' ? 'stopping every cluster now' : 'already stopping'}`)));

    if (action === 'skip') {
      if (!journal.state()) throw new InputError('fleet.not-started', `Fleet ${fleet.spec.fleet} has not started in ${stateDir}.`, { hint: 'Start it with `upgrade-pilot fleet start --fleet FILE`.' });
      skipCluster(journal, inv.second, options.reason, say);
      return ExitCode.ok;
    }
    if (action === 'retry' && journal.state()) checkRetry(journal.state()!, inv.second);
    const request = { command: action as 'start' | 'resume' | 'retry', fleet, options, env: io.env, stateDir, journal, limiter, redactor, stop, say, resumeCommand: resumeFleet };
    const coordinator = await prepareFleetRun(request, await registry());
    if (action === 'retry') {
      const code = await retryCluster(coordinator, inv.second!);
      if (options.json) write(jsonSafe(JSON.stringify({ type: 'result', fleet: fleet.spec.fleet, exitCode: code })));
      return code;
    }
    const writeReport = () => writeFleetReport(paths, fleetReportData(paths, stateDir, fleet.file, io.env, options['state-dir']));
    let files: ReturnType<typeof writeReport> | undefined;
    const code = tui && link
      ? await tui.runFleetTui({ link, coordinator: { ...coordinator, ...tui.screenHooks(link) }, stop, by: whoAmI(), resumeCommand: resumeFleet, writeReport: () => (files = writeReport()).markdown, io, inkDebug: Boolean(seams.inkDebug) })
      : await new Coordinator(coordinator).run();
    files ??= writeReport();
    notifications.ended(journal.state()!, code, files.markdown);
    await notifications.flush();
    const status = fleetStatus(journal.state()!, { fleetFlags });
    if (!options.json) {
      write(`fleet report: ${files.markdown}`);
      if (code !== ExitCode.ok) write(`next: ${status.next}`);
    } else write(jsonSafe(JSON.stringify({ type: 'result', fleet: fleet.spec.fleet, exitCode: code, report: files.markdown, next: status.next })));
    return code;
  } finally {
    for (const undo of cleanups.reverse()) undo();
  }
}
