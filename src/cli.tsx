#!/usr/bin/env node
/**
 * Entry point: parse arguments, run the command, map any error to its message and exit code.
 * The only place that decides how the process ends.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from './cli/args.js';
import { commandHelp, generalHelp } from './cli/help.js';
import { listSessions } from './commands/sessions.js';
import { runVerifyCommand } from './commands/verify.js';
import { runReportCommand } from './commands/report.js';
import { runLab } from './commands/lab.js';
import { runPlanCommand } from './commands/plan.js';
import { runDiffCommand } from './commands/diff.js';
import { ExitCode, exitCodeOf, InputError, toErrorInfo } from './errors.js';
import { runSession, type RunIO, type SessionRequest } from './run/session-run.js';
import type { StepRegistry } from './engine/step-kind.js';
import { builtinSteps } from './steps/index.js';
import { toolVersion } from './version.js';

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
    const registry = overrides.registry ?? builtinSteps();
    const seams = overrides.effects ? { effects: overrides.effects } : {};
    switch (command.name) {
      case 'start':
        return await runSession({ kind: 'start', options, registry, dryRun: options['dry-run'], ...seams }, io);
      case 'rehearse':
        return await runSession({ kind: 'start', options, registry, dryRun: true, ...seams }, io);
      case 'resume':
        return await runSession({ kind: 'resume', options, registry, ...(positional ? { sessionId: positional } : {}), ...seams }, io);
      case 'sessions':
        return listSessions(options, io.env, write);
      case 'lab':
        return await runLab(parsed.invocation, io, registry);
      case 'diff':
        return await runDiffCommand(options, io, registry);
      case 'plan':
        return await runPlanCommand(options, io, registry);
      case 'report':
        return runReportCommand(options, positional, io);
      case 'verify':
        return await runVerifyCommand(options, io, registry);
      default:
        throw new InputError('usage.not-available', `\`upgrade-pilot ${command.name}\` is not available in this version.`, { hint: 'Run `upgrade-pilot --help`.' });
    }
  } catch (err) {
    const info = toErrorInfo(err);
    io.stderr.write(`error: ${info.message}\n${info.hint ? `  what to do: ${info.hint}\n` : ''}`);
    return exitCodeOf(err);
  }
}

function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`error: ${toErrorInfo(err).message}\n`);
      process.exitCode = ExitCode.failed;
    },
  );
}
