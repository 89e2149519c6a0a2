/**
 * The command line: parse arguments, run the command, map any error to its message and exit code.
 * The only place that decides how the process ends (the executable is src/bin.ts).
 */
import type { CliOptions } from './commands/options.js';
import { outputMode, sessionSettings } from './commands/session-settings.js';
import { helpRequest } from './cli/help-request.js';
import { commandHelp, generalHelp } from './cli/help.js';
import { programName } from './cli/kubectl-plugin.js';
import { outputWidth } from './text/wrap.js';
import { ExitCode, exitCodeOf, InputError, toErrorInfo } from './errors.js';
import type { RunIO, SessionRequest } from './run/session-run.js';
import type { StepRegistry } from './engine/step-kind.js';
import { toolVersion } from './version.js';
import { sanitizeLines } from './text/sanitize.js';
import { isInteractive } from './run/interactive.js';
import { showSplash } from './run/splash.js';

/** Test seams (a registry of test step kinds, scripted effects; production passes none) and how the tool was invoked. */
export interface MainOverrides {
  registry?: StepRegistry;
  effects?: SessionRequest['effects'];
  /** The program as the operator typed it (`kubectl upgrade-pilot` when run as a kubectl plugin); for help texts. */
  program?: string;
  /** Ink draws every frame whole (tests: Ink under CI draws only the last frame, at the end). */
  inkDebug?: boolean;
}

export async function main(argv: string[], io: RunIO, overrides: MainOverrides = {}): Promise<ExitCode> {
  const write = (s: string) => io.stdout.write(`${s}\n`);
  try {
    // Shell completion's question on every Tab press: answered before anything else loads.
    if (argv[0] === '__complete') return (await import('./cli/completion/command.js')).runCompleteHelper(argv.slice(1), io.env, write);
    // Help and the version need only the command table; the option schemas load for a command that runs.
    const parsed = helpRequest(argv) ?? (await import('./cli/args.js')).parseCommandLine(argv);
    if (parsed.kind === 'help') {
      const layout = { width: outputWidth(io.stdout, io.env), program: overrides.program ?? 'upgrade-pilot' };
      write(parsed.command ? commandHelp(parsed.command, layout) : generalHelp(toolVersion, layout));
      return ExitCode.ok;
    }
    if (parsed.kind === 'version') {
      write(toolVersion);
      return ExitCode.ok;
    }
    const { command, options, positional } = parsed.invocation;
    const splash = splashFor(command.name, options);
    if (splash && isInteractive(outputMode(options), io)) showSplash(io.stdout, io.stderr, splash);
    // Each command loads only what it uses: the step kinds, the TUI (Ink, React) and the lab are
    // separate parts of the bundle, which `--help` or `sessions` never load (see BENCHMARKS.md).
    const registry = async () => overrides.registry ?? (await import('./steps/index.js')).builtinSteps();
    const seams = { ...(overrides.effects ? { effects: overrides.effects } : {}), ...(overrides.inkDebug ? { inkDebug: true } : {}) };
    const runSession = async (req: SessionRequest) => (await import('./run/session-run.js')).runSession(req, io);
    switch (command.name) {
      case 'start':
        return await runSession({ kind: 'start', settings: sessionSettings(options, { dryRun: options['dry-run'] }), registry: await registry(), ...seams });
      case 'rehearse':
        return await runSession({ kind: 'start', settings: sessionSettings(options, { dryRun: true }), registry: await registry(), ...seams });
      case 'resume': {
        // Several sessions to continue and a terminal to ask on: the operator picks one.
        const settings = sessionSettings(options, { dryRun: false });
        const id = await (await import('./run/resume-pick.js')).sessionToResume(settings, positional, io);
        return await runSession({ kind: 'resume', settings, registry: await registry(), ...(id ? { sessionId: id } : {}), ...seams });
      }
      case 'sessions':
        return (await import('./commands/sessions.js')).listSessions(options, io.env, write);
      case 'lab':
        return await (await import('./commands/lab.js')).runLab(parsed.invocation, io, registry);
      case 'diff':
        return await (await import('./commands/diff.js')).runDiffCommand(options, io, await registry());
      case 'plan':
        return await (await import('./commands/plan.js')).runPlanCommand(options, io, await registry());
      case 'report':
        return (await import('./commands/report.js')).runReportCommand(options, positional, io);
      case 'capture':
        return await (await import('./commands/capture.js')).runCaptureCommand(options, io, await registry());
      case 'verify':
        return await (await import('./commands/verify.js')).runVerifyCommand(options, io, await registry());
      case 'fleet':
        return await (await import('./commands/fleet.js')).runFleetCommand(parsed.invocation, io, registry, { inkDebug: Boolean(overrides.inkDebug) });
      case 'completion':
        return (await import('./cli/completion/command.js')).runCompletionCommand(positional, await registry(), write);
      default:
        throw new InputError('usage.not-available', `\`upgrade-pilot ${command.name}\` is not available in this version.`, { hint: 'Run `upgrade-pilot --help`.' });
    }
  } catch (err) {
    const info = toErrorInfo(err);
    // Messages can quote a server or a file: printed without control characters, no line of megabytes.
    io.stderr.write(sanitizeLines(`error: ${info.message}\n${info.hint ? `  what to do: ${info.hint}\n` : ''}`));
    // A bug's report needs where it happened: with UPGRADE_PILOT_DEBUG the stack, mapped to src/ (src/bin.ts).
    if (info.kind === 'internal' && io.env.UPGRADE_PILOT_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return exitCodeOf(err);
  }
}

/** What the first line says while a TUI command loads; undefined for commands that draw no TUI. */
function splashFor(command: string, options: CliOptions): string | undefined {
  if (command === 'lab') return options.serve ? undefined : 'starting the embedded lab';
  if (command === 'start' || command === 'rehearse') return 'loading the runbook';
  if (command === 'resume') return 'loading the session';
  return undefined;
}

/** Runs the CLI for this process (src/bin.ts): argv, the real streams, the exit code. */
/**
 * A reader that went away (`verify | head`, a `less` quit early) ends the output, not the command:
 * the rest of what it prints is dropped, and the command ends as it would have (a session run
 * stopping half-way because its output was not read would be worse than unread output).
 */
function dropOutputOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

export async function runFromProcess(): Promise<void> {
  dropOutputOnClosedPipe(process.stdout);
  try {
    // stdin and stderr are made on first use: opening a terminal stream loads Node's tty and net
    // modules, which `--help` or `verify --json` never need (BENCHMARKS.md, "start-up").
    const io: RunIO = {
      stdout: process.stdout,
      get stderr() {
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
      env: process.env,
    };
    process.exitCode = await main(process.argv.slice(2), io, { program: programName(process.argv[1]) });
  } catch (err) {
    process.stderr.write(sanitizeLines(`error: ${toErrorInfo(err).message}\n`));
    process.exitCode = ExitCode.failed;
  }
}
