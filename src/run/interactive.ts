/**
 * Whether a run draws the TUI, decided before anything heavy is loaded (the CLI shows its first
 * line on that answer while Ink, React and the lab load).
 */
import type { OutputMode } from './settings.js';

export interface TerminalIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/**
 * CI is "set" as Ink judges it (present, and not `0` or `false`, even when empty): Ink then draws
 * only a last frame, so the TUI would stay blank; plain lines are what a CI log wants anyway.
 */
const ciSet = (env: NodeJS.ProcessEnv) => ['CI', 'CONTINUOUS_INTEGRATION'].some((k) => k in env && env[k] !== '0' && env[k] !== 'false');

/** TUI on a terminal; plain lines without one, with --non-interactive or --json (output plain or json), or under CI. */
export function isInteractive(output: OutputMode, io: TerminalIO): boolean {
  return Boolean(io.stdout.isTTY && io.stdin.isTTY && output === 'auto' && !ciSet(io.env));
}
