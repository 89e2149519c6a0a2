import { Box, Text } from 'ink';
import type { RunOutcome } from '../engine/runner.js';
import { InterruptedError, isStop, type ErrorInfo } from '../errors.js';
import { ErrorPanel } from './ErrorPanel.js';
import { ResumeHint } from './ResumeHint.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

export interface OutcomeProps {
  outcome: RunOutcome;
  resumeCommand: string;
  reportPath: string | undefined;
  /** The failed step's own screen (shown below) already shows the error. */
  stepShowsError: boolean;
  inProcessLab: boolean;
}

const DEFAULT_INTERRUPT_HINT = new InterruptedError().hint;

const errorOf = (outcome: Exclude<RunOutcome, { status: 'done' }>): ErrorInfo => ('toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error);

/**
 * How the run ended, and what next: done (green), stopped by the operator or at a gate (amber: a
 * stop, not a failure), or a step failed (red). The report's path at every end.
 */
export function OutcomePanel({ outcome, resumeCommand, reportPath, stepShowsError, inProcessLab }: OutcomeProps) {
  const report = reportPath ? <Para>Report: {reportPath}</Para> : null;
  if (outcome.status === 'done') {
    const c = colour('pass');
    return (
      <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1}>
        <Text bold {...(c ? { color: c } : {})}>
          ✔ DONE: every step finished.
        </Text>
        {report}
        <Text dimColor>q exit · [ ] look at the steps</Text>
      </Box>
    );
  }
  const error = errorOf(outcome);
  const stopped = outcome.status !== 'failed' || isStop(error);
  if (stopped) {
    const amber = colour('warn');
    const title = outcome.status === 'awaitingApproval' ? '⏸ STOPPED at a gate: it waits for an approval' : '⏸ STOPPED';
    return (
      <Box flexDirection="column" borderStyle="round" {...(amber ? { borderColor: amber } : {})} paddingX={1}>
        <Text bold {...(amber ? { color: amber } : {})}>
          {title}
        </Text>
        <Para>{error.message}</Para>
        {/* The in-process lab's hint says why it cannot be resumed (run/session-run.tsx): nothing to add. */}
        {error.hint && (outcome.status === 'awaitingApproval' || inProcessLab) ? (
          <Para>{error.hint}</Para>
        ) : (
          <>
            {/* A declined gate's own words (what waits, the way back); a plain interrupt's hint is the resume line below. */}
            {error.hint && error.hint !== DEFAULT_INTERRUPT_HINT ? <Para>{error.hint}</Para> : null}
            <ResumeHint command={resumeCommand} inProcessLab={inProcessLab} />
          </>
        )}
        {report}
        <Text dimColor>q exit · [ ] look at the steps</Text>
      </Box>
    );
  }
  const red = colour('fail');
  return (
    <Box flexDirection="column">
      {stepShowsError ? (
        <Text bold {...(red ? { color: red } : {})}>
          ✖ STOPPED: a step failed (details below).
        </Text>
      ) : (
        <ErrorPanel error={error} title="Step failed" />
      )}
      {(inProcessLab && error.hint) || error.resumable === false ? null : <ResumeHint command={resumeCommand} inProcessLab={inProcessLab} />}
      {report}
      <Text dimColor>q exit · [ ] look at the steps</Text>
    </Box>
  );
}
