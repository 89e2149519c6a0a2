/** `plan` and `diff` in-process, as the CLI runs them, with their output and exit code captured. */
import { parseCommandLine } from '../../../../src/cli/args.js';
import { runDiffCommand } from '../../../../src/commands/diff.js';
import { runPlanCommand } from '../../../../src/commands/plan.js';
import { exitCodeOf, PilotError } from '../../../../src/errors.js';
import type { RunIO } from '../../../../src/run/session-run.js';
import { builtinSteps } from '../../../../src/steps/index.js';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The error's message and hint, when the command threw. */
  error?: string;
  hint?: string;
}

export async function runCommand(command: 'plan' | 'diff', args: string[], env: NodeJS.ProcessEnv): Promise<CommandRun> {
  const parsed = parseCommandLine([command, ...args]);
  if (parsed.kind !== 'run') throw new Error(`not a run: ${command} ${args.join(' ')}`);
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => ((stdout += s), true) }, stderr: { write: (s: string) => ((stderr += s), true) }, stdin: {}, env } as unknown as RunIO;
  const run = command === 'plan' ? runPlanCommand : runDiffCommand;
  try {
    const code = await run(parsed.invocation.options, io, builtinSteps());
    return { code, stdout, stderr };
  } catch (err) {
    return { code: exitCodeOf(err), stdout, stderr, error: err instanceof Error ? err.message : String(err), ...(err instanceof PilotError && err.hint ? { hint: err.hint } : {}) };
  }
}
