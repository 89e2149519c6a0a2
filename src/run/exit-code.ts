/**
 * How a session run ends, as the process's exit code (the README's table): 0 done, 1 a failure, 2
 * bad input, 3 a gate awaiting approval or a stop the operator chose, 4 the environment, 130 a
 * signal. Pure.
 */
import type { RunOutcome } from '../engine/runner.js';
import { ExitCode, exitCodeOf } from '../errors.js';

export function exitCodeFor(outcome: RunOutcome, rehearsal = false): ExitCode {
  if (outcome.status === 'done') return ExitCode.ok;
  // A gate awaiting approval and a stop the operator chose both exit 3; only a signal exits 130.
  if (outcome.status === 'awaitingApproval' || outcome.status === 'stopped') return ExitCode.gate;
  if (outcome.status === 'interrupted') return ExitCode.interrupted;
  // A rehearsal answers "would the pre-checks pass?": a red one exits 1 (issue 9) even when a live
  // run calls the same finding (a profile the params name is missing) bad input.
  if (rehearsal && outcome.error.code === 'preflight.input') return ExitCode.failed;
  if ('toInfo' in outcome.error) return exitCodeOf(outcome.error);
  return outcome.error.kind === 'environment' ? ExitCode.environment : outcome.error.kind === 'input' ? ExitCode.usage : ExitCode.failed;
}
