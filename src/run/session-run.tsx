/**
 * Runs a session from start to stop: load the runbook and params, create or reopen the session,
 * build the effects, drive the runner with the TUI or the plain printer, and map the end to an exit
 * code. Whatever happens, the journal is closed and the lock released.
 */
import { hostname, userInfo } from 'node:os';
import type { Instance } from 'ink';
import type { AppController } from '../screens/App.js';
import { approvalFlagsText } from '../engine/approval-policy.js';
import { plannedEntries } from '../engine/entries.js';
import { bundledRunbook, loadParams, type LoadedParams, type LoadedRunbook } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import { Runner, type RunnerOptions, type RunOutcome } from '../engine/runner.js';
import type { SessionMeta } from '../engine/state.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError, type ErrorInfo } from '../errors.js';
import { exitCodeFor } from './exit-code.js';
import { isInteractive } from './interactive.js';
import { resolveStateDir } from '../session/paths.js';
import { Redactor } from '../session/redact.js';
import { newSessionId, SessionStore, type OpenSession } from '../session/store.js';
import { toolVersion } from '../version.js';
import { readApiKey } from './api-key.js';
import { chosenKubeconfig } from './kubeconfig-choice.js';
import { makeScratch } from './scratch.js';
import { ConfirmQueue } from '../screens/confirm-queue.js';
import { attachedConfirm, plainConfirm, tuiConfirm } from './confirm.js';
import type { Kubectl } from '../kube/kubectl.js';
import { buildEffects, buildVariables } from './effects.js';
import { checkKeyDestinations, clockFor } from './lab-clock.js';
import { createPlainPrinter } from './plain-printer.js';
import { writeReport } from '../report/write.js';
import { machineTimeZone } from '../text/time-zone.js';
import { notifyConfig, type NotifyConfig } from '../notify/config.js';
import { startNotifications } from '../notify/run-notifications.js';
import { displaySafeSource } from '../text/display-safe.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';
import { resumeCommand as resumeCommandFor } from './resume-command.js';
import { readMeanwhile } from './resume-meanwhile.js';
import { resumeLines, resumeSummary, type Meanwhile } from '../screens/resume-summary.js';
import type { SessionSettings } from './settings.js';

export interface RunIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export interface SessionRequest {
  kind: 'start' | 'resume';
  settings: SessionSettings;
  registry: StepRegistry;
  sessionId?: string;
  /** Called once the session exists (tests use it to find the id). */
  onSession?: (id: string) => void;
  /** Replaces the real effects (tests: scripted fakes that fail on unexpected calls). */
  effects?: typeof buildEffects;
  /** An Ink instance already on the screen (the lab's first frame): the App is drawn into it. */
  ink?: Instance;
  /** Stops the run as Ctrl+C does (a fleet stopping its clusters in flight): the step in progress ends safely, the session is saved. */
  signal?: AbortSignal;
  /**
   * A fleet's screen shows this session and answers its gates (fleet-ui): the run stays in plain
   * mode (its lines in the cluster's log), but a gate no flag answers waits to be answered on that
   * screen, by a key, as in the TUI, instead of stopping the run.
   */
  attach?: (controller: AppController) => void;
  /** Stops the run after the step in progress (a fleet stage halting): see RunnerOptions.stopAfterStep. */
  stopAfterStep?: AbortSignal;
  /** The steps such a stop still runs (an applied change watched until it settles): see RunnerOptions.carry. */
  carry?: RunnerOptions['carry'];
  /** Ink draws every frame whole (tests: under CI Ink draws only the last frame). */
  inkDebug?: boolean;
}

/** Why a session of the in-process lab cannot go on after it stops, and what to do instead (every stop's hint says it). */
export const LAB_ENDED =
  'This lab runs inside this process and ends with it, so this session cannot be resumed: start the lab again (npm start, or upgrade-pilot lab) and walk the runbook anew. To practise stopping and resuming, serve a lab that stays up: upgrade-pilot lab --serve --state-dir DIR, then upgrade-pilot start --params DIR/params.yaml.';

/** `--accept-fix` names rules of the runbook in use: a typo must not pass silently (the fix would never be written). */
function checkAcceptFixes(ids: readonly string[], loaded: LoadedRunbook): void {
  const known = loaded.runbook.rules.map((r) => r.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length === 0) return;
  throw new InputError('usage.accept-fix', `--accept-fix names no rule of the runbook ${loaded.file}: ${unknown.join(', ')}.`, { hint: `Rules: ${known.join(', ')}.` });
}

function whoAmI(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

interface Prepared {
  session: OpenSession;
  runbook: LoadedRunbook;
  params: LoadedParams | undefined;
  resuming: boolean;
  /** The kubeconfig named (flag, then params), checked to exist; undefined: kubectl reads $KUBECONFIG. */
  kubeconfig: string | undefined;
}

/** `check` sees the params before anything is created or locked-in (a bad notify URL stops here). */
function prepare(req: SessionRequest, store: SessionStore, check: (params: LoadedParams | undefined) => void): Prepared {
  const { settings, registry } = req;
  if (req.kind === 'resume') {
    const session = store.open(req.sessionId);
    try {
      const meta = session.state.meta;
      if (meta.lab) {
        throw new InputError('session.lab-ended', `Session ${meta.id} ran on the embedded lab, which ran inside its process and ended with it: its Palette and cluster are gone, so the session cannot go on.`, {
          hint: `Start a new lab run (npm start, or upgrade-pilot lab); its report stays readable (upgrade-pilot report ${meta.id}). For a lab that stays up between runs: upgrade-pilot lab --serve, then start --params DIR/params.yaml.`,
        });
      }
      const params = meta.paramsFile ? loadParams(meta.paramsFile) : undefined;
      checkKeyDestinations(params?.params, { allowInsecureHttp: settings.allowInsecureHttp });
      check(params);
      const kubeconfig = chosenKubeconfig(settings.kubeconfig, params?.params, params?.file);
      const runbook = loadRunbook(meta.runbook.file, params?.params, registry);
      checkAcceptFixes(settings.approvals.acceptFixes ?? [], runbook);
      if (runbook.digest !== meta.runbook.digest) {
        throw new InputError('session.runbook-changed', `The runbook ${meta.runbook.file} changed since session ${meta.id} started.`, {
          hint: 'Restore the runbook as it was, or start a new session with the changed one.',
        });
      }
      return { session, runbook, params, resuming: true, kubeconfig };
    } catch (err) {
      session.close();
      throw err;
    }
  }
  const paramsFile = settings.params ?? settings.lab?.paramsFile;
  const params = paramsFile ? loadParams(paramsFile) : undefined;
  checkKeyDestinations(params?.params, { allowInsecureHttp: settings.allowInsecureHttp });
  check(params);
  const kubeconfig = chosenKubeconfig(settings.kubeconfig, params?.params, params?.file);
  const runbook = loadRunbook(settings.runbook ?? bundledRunbook(), params?.params, registry);
  checkAcceptFixes(settings.approvals.acceptFixes ?? [], runbook);
  const site = params?.params;
  const context = settings.context ?? site?.cluster.context;
  const meta: SessionMeta = {
    id: newSessionId(),
    schema: 1,
    createdAt: new Date().toISOString(),
    tool: `upgrade-pilot ${toolVersion}`,
    user: whoAmI(),
    host: hostname(),
    mode: settings.dryRun ? 'rehearsal' : 'live',
    lab: Boolean(settings.lab),
    ...(!settings.lab && site?.extra.labClockUrl !== undefined ? { servedLab: true } : {}),
    runbook: { name: runbook.runbook.metadata.name, title: runbook.runbook.metadata.title, file: runbook.file, digest: runbook.digest },
    ...(params ? { paramsFile: params.file } : {}),
    cluster: {
      ...(site?.cluster.uid ? { uid: site.cluster.uid } : {}),
      ...(site?.cluster.name ? { name: site.cluster.name } : {}),
      ...(context ? { context } : {}),
    },
    // For the report's timeline: the cluster's local clock beside UTC, and the booked window behind it.
    timeZone: site?.cluster.timeZone ?? machineTimeZone(),
    ...(site ? { windowMs: site.window } : {}),
  };
  const session = store.create({ type: 'session.created', at: meta.createdAt, meta, entries: plannedEntries(runbook.runbook, registry) });
  return { session, runbook, params, resuming: false, kubeconfig };
}


export async function runSession(req: SessionRequest, io: RunIO): Promise<ExitCode> {
  const { settings } = req;
  const lab = settings.lab;
  const json = settings.output === 'json';
  const redactor = new Redactor();
  if (lab) redactor.add(lab.apiKey);
  const key = lab ? { key: lab.apiKey, warnings: [] as string[] } : readApiKey(settings.apiKeyFile, io.env, redactor);
  const store = new SessionStore(resolveStateDir(settings.stateDir, io.env), redactor);
  let notifyConf: NotifyConfig | undefined;
  const prepared = prepare(req, store, (p) => (notifyConf = notifyConfig(settings.notify, p?.params.notify)));
  const { session, runbook, params } = prepared;
  req.onSession?.(session.id);
  const meta = session.state.meta;
  const dryRun = meta.mode === 'rehearsal';
  const interactive = isInteractive(settings.output, io);
  const approvals = { ...settings.approvals, acceptFixes: settings.approvals.acceptFixes ?? [] };
  const queue = new ConfirmQueue();
  const controller = new AbortController();
  const scratch = makeScratch('kube');
  const cacheDir = scratch.dir;
  const write = (line: string) => io.stdout.write(`${line}\n`);
  const resume = resumeCommandFor(session.id, settings.stateDir, io.env);
  // The session as it was saved: the resume banner compares it with what happens next.
  const saved = session.state;

  // Set once the run has ended and only its last frame waits for `q`.
  let leaveLastFrame: (() => void) | undefined;
  const onSignal = () => {
    // The terminal went away (or Ctrl+C) after the end: nothing runs, so the frame goes and the process ends.
    if (leaveLastFrame) return leaveLastFrame();
    if (controller.signal.aborted) process.exit(ExitCode.interrupted); // a second Ctrl+C: the journal is already consistent
    controller.abort();
  };
  // The process's signals have one owner. A session given a stop signal (a fleet's cluster) is
  // stopped through it; the fleet's own handler owns the signals (its first stops every session
  // cleanly, its second exits at once). Two handlers on one signal would take the fleet's abort
  // for a second Ctrl+C and exit mid-stop.
  const ownsSignals = !req.signal;
  if (ownsSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  }
  const stopFromOutside = () => controller.abort();
  if (req.signal?.aborted) controller.abort();
  req.signal?.addEventListener('abort', stopFromOutside, { once: true });

  try {
    const clock = await clockFor(params?.params, key.key, { allowInsecureHttp: settings.allowInsecureHttp });
    const asks = interactive || Boolean(req.attach);
    const variables = buildVariables(params?.params, redactor, { flags: Object.fromEntries(settings.variables.map((v) => [v.name, v.from])), canAsk: asks, env: io.env });
    const effects = (req.effects ?? buildEffects)({
      variables,
      clock,
      params: params?.params,
      runbook: runbook.runbook,
      apiKey: key.key,
      // Without an explicit file, kubectl reads $KUBECONFIG itself (which may list several files).
      kubeconfig: prepared.kubeconfig,
      context: settings.context ?? meta.cluster.context,
      redactor,
      confirm: interactive ? tuiConfirm(queue, approvals, dryRun) : req.attach ? attachedConfirm(queue, approvals, dryRun) : plainConfirm(approvals, dryRun),
      log: () => undefined,
      cacheDir,
      allowInsecureHttp: settings.allowInsecureHttp,
    });
    // Test doubles of the cluster have no runner to close.
    scratch.onDispose(() => (effects.kube.kubectl as Partial<Kubectl> | undefined)?.close?.());
    const runner = new Runner({
      state: session.state,
      registry: req.registry,
      runbook: runbook.runbook,
      site: params?.params,
      effects,
      journal: session,
      dryRun,
      signal: controller.signal,
      resuming: prepared.resuming,
      resumedBy: { by: `${whoAmI()}@${hostname()}`, ...(approvalFlagsText(approvals) ? { with: approvalFlagsText(approvals) } : {}) },
      resumeCommand: resume,
      ...(lab ? { noResume: LAB_ENDED } : {}),
      ...(req.stopAfterStep ? { stopAfterStep: req.stopAfterStep } : {}),
      ...(req.carry ? { carry: req.carry } : {}),
    });
    const meanwhile: Meanwhile | undefined = prepared.resuming ? await readMeanwhile(effects, saved, params?.params, controller.signal) : undefined;

    const notifications = startNotifications({
      config: notifyConf!,
      rehearsal: dryRun,
      queue,
      state: () => runner.getState(),
      log: (message) => runner.dispatch({ type: 'log', at: new Date().toISOString(), line: { at: new Date().toISOString(), level: 'warn', message } }),
      redact: (text) => redactor.text(text),
      interactive,
      stdout: io.stdout,
      env: io.env,
    });
    const told = (o: RunOutcome) => (notifications.ended(o, exitCodeFor(o, dryRun)), o);

    // Whatever the end (done, a gate, a failure), the report reflects the session as it stands.
    let reportPath: string | undefined;
    const report = () => {
      try {
        reportPath = writeReport(runner.getState(), (name, text) => session.writeFile(name, text)).markdown;
      } catch (err) {
        // A report that cannot be written never hides the run's own outcome; `report` can retry.
        if (process.env.UPGRADE_PILOT_DEBUG) io.stderr.write(`report not written: ${String(err)}\n`);
      }
    };
    let outcome: RunOutcome;
    if (interactive) {
      // Loaded only for a screen: plain and JSON runs (a fleet's clusters) never load Ink and React.
      const { drawSession } = await import('./session-screen.js');
      const run = runner.run().then(told);
      const app = drawSession({
        controller: {
          // The TUI sees the state without control characters (names and reasons come from the network).
          source: displaySafeSource(runner),
          queue,
          variables,
          rehearsal: dryRun,
          ...(lab ? { guide: lab.guide } : {}),
          outcome: run.then((o) => {
            report();
            return o;
          }),
          stop: (reason) => controller.abort(reason),
          reportPath: () => reportPath,
          inProcessLab: Boolean(lab),
          gateGuardMs: runbook.runbook.settings.gateGuard,
          resumeCommand: resume,
          labTime: Boolean(clock.simulated),
          ...(prepared.resuming ? { resumed: () => resumeSummary(saved, runner.getState(), meanwhile) } : {}),
        },
        attention: notifications.attention,
        ink: req.ink,
        stdout: io.stdout,
        stdin: io.stdin,
        debug: Boolean(req.inkDebug),
      });
      outcome = await run;
      leaveLastFrame = () => app.unmount();
      await app.waitUntilExit();
      await notifications.flush();
      // The last frame stays on the terminal; under it, in plain words, where the report is and how to go on.
      if (reportPath) write(`report: ${reportPath}`);
      if (resumable(outcome, Boolean(lab))) write(`the session is saved; continue with:\n  ${resume}`);
    } else {
      const print = createPlainPrinter({ json, write, redactor, rehearsal: dryRun, sessionDir: session.dir });
      if (!json) {
        write(`upgrade-pilot: ${prepared.resuming ? 'resuming' : 'session'} ${session.id} (${dryRun ? 'rehearsal: nothing will be sent' : meta.lab ? 'lab: changes go to the embedded lab, nothing real is touched' : meta.servedLab ? 'lab: changes go to the served lab, nothing real is touched' : 'live'}) - ${meta.runbook.title}`);
        for (const w of key.warnings) write(`warning: ${w}`);
        if (clock.simulated) write(`  times are this machine's clock; what the cluster measures (ages, waits) is ${clock.simulated.label}, which runs ${clock.simulated.speed()}x faster`);
        if (prepared.resuming) for (const l of resumeLines(resumeSummary(saved, saved, meanwhile))) write(`  ${redactor.text(l)}`);
      } else if (prepared.resuming) {
        write(redactor.text(JSON.stringify({ type: 'resume', session: session.id, ...resumeSummary(saved, saved, meanwhile) })));
      }
      runner.subscribe(print);
      const run = runner.run();
      req.attach?.({
        source: displaySafeSource(runner),
        queue,
        variables,
        rehearsal: dryRun,
        outcome: run,
        stop: () => controller.abort(),
        gateGuardMs: runbook.runbook.settings.gateGuard,
        resumeCommand: resume,
        labTime: Boolean(clock.simulated),
      });
      outcome = told(await run);
      report();
      await notifications.flush();
      if (reportPath && !json) write(`report: ${reportPath}`);
    }
    const code = exitCodeFor(outcome, dryRun);
    if (!interactive) reportEnd(outcome, code, { id: session.id, resume, report: reportPath }, json, io, redactor, Boolean(lab));
    return code;
  } finally {
    if (ownsSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    }
    req.signal?.removeEventListener('abort', stopFromOutside);
    session.close();
    scratch.dispose();
  }
}

/** Whether a resume can go on from this end: not after the end, not on the in-process lab, not where it would meet the same refusal. */
function resumable(outcome: RunOutcome, inProcessLab: boolean): boolean {
  if (outcome.status === 'done' || inProcessLab) return false;
  return ('toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error).resumable !== false;
}

/** Plain mode's last lines: the error and what to do (every line of the hint indented), how to continue, the report. */
function reportEnd(outcome: RunOutcome, code: ExitCode, session: { id: string; resume: string; report: string | undefined }, json: boolean, io: RunIO, redactor: Redactor, inProcessLab: boolean): void {
  const error: ErrorInfo | undefined = outcome.status === 'done' ? undefined : 'toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error;
  if (json) {
    const result = { type: 'result', session: session.id, status: outcome.status, exitCode: code, ...(error ? { error } : {}), ...(session.report ? { report: session.report } : {}), ...(resumable(outcome, inProcessLab) ? { resume: session.resume } : {}) };
    io.stdout.write(`${jsonSafe(redactor.text(JSON.stringify(result)))}\n`);
    return;
  }
  if (!error) return;
  const hint = error.hint ? `  what to do: ${error.hint.split('\n').join('\n    ')}\n` : '';
  io.stderr.write(sanitizeLines(redactor.text(`error: ${error.message}\n${hint}`)));
  // The in-process lab's hint already says why nothing can be resumed (LAB_ENDED); a gate's names its resume.
  if (resumable(outcome, inProcessLab) && outcome.status !== 'awaitingApproval') io.stderr.write(`  the session is saved: ${session.resume}\n`);
}
