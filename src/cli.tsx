#!/usr/bin/env node
/**
 * Entry point: parse arguments, run the command, map any error to its message and exit code.
 * The only place that decides how the process ends.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, type CliOptions } from './cli/args.js';
import { commandHelp, generalHelp } from './cli/help.js';
import { ExitCode, exitCodeOf, InputError, toErrorInfo } from './errors.js';
import type { RunIO, SessionRequest } from './run/session-run.js';
import type { StepRegistry } from './engine/step-kind.js';
import { toolVersion } from './version.js';
import { sanitizeLines } from './text/sanitize.js';
import { isInteractive } from './run/interactive.js';
import { showSplash } from './run/splash.js';

/** Test seams: a registry of test step kinds, scripted effects. Production passes nothing. */
export interface MainOverrides {
  registry?: StepRegistry;
  effects?: SessionRequest['effects'];
}

export async function main(argv: string[], io: RunIO, overrides: MainOverrides = {}): Promise<ExitCode> {
  const write = (s: string) => io.stdout.write(`${s}\n`);
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      write(parsed.command ? commandHelp(parsed.command) : generalHelp(toolVersion));
      return ExitCode.ok;
    }
    if (parsed.kind === 'version') {
      write(toolVersion);
      return ExitCode.ok;
    }
    const { command, options, positional } = parsed.invocation;
    const splash = splashFor(command.name, options);
    if (splash && isInteractive(options, io)) showSplash(io.stdout, io.stderr, splash);
    const registry = overrides.registry ?? (await import('./steps/index.js')).builtinSteps();
    const seams = overrides.effects ? { effects: overrides.effects } : {};
    // Each command loads only what it uses: the TUI (Ink, React) and the lab cost about half a
    // second to load, which `verify`, `plan` or `--help` should not pay (see BENCHMARKS.md).
    const runSession = async (req: SessionRequest) => (await import('./run/session-run.js')).runSession(req, io);
    switch (command.name) {
      case 'start':
        return await runSession({ kind: 'start', options, registry, dryRun: options['dry-run'], ...seams });
      case 'rehearse':
        return await runSession({ kind: 'start', options, registry, dryRun: true, ...seams });
      case 'resume':
        return await runSession({ kind: 'resume', options, registry, ...(positional ? { sessionId: positional } : {}), ...seams });
      case 'sessions':
        return (await import('./commands/sessions.js')).listSessions(options, io.env, write);
      case 'lab':
        return await (await import('./commands/lab.js')).runLab(parsed.invocation, io, registry);
      case 'diff':
        return await (await import('./commands/diff.js')).runDiffCommand(options, io, registry);
      case 'plan':
        return await (await import('./commands/plan.js')).runPlanCommand(options, io, registry);
      case 'report':
        return (await import('./commands/report.js')).runReportCommand(options, positional, io);
      case 'verify':
        return await (await import('./commands/verify.js')).runVerifyCommand(options, io, registry);
      default:
        throw new InputError('usage.not-available', `\`upgrade-pilot ${command.name}\` is not available in this version.`, { hint: 'Run `upgrade-pilot --help`.' });
    }
  } catch (err) {
    const info = toErrorInfo(err);
    // Messages can quote a server or a file: printed without control characters, no line of megabytes.
    io.stderr.write(sanitizeLines(`error: ${info.message}\n${info.hint ? `  what to do: ${info.hint}\n` : ''}`));
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

function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  // React's development build loads and renders slower and warns to the terminal; an operator's
  // run is production unless they say otherwise.
  process.env.NODE_ENV ??= 'production';
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(sanitizeLines(`error: ${toErrorInfo(err).message}\n`));
      process.exitCode = ExitCode.failed;
    },
  );
}
