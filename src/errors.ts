/**
 * Typed errors. Every failure the operator can see is one of these: a message that says what
 * happened, and a hint that says what to do next. The CLI maps them to exit codes in one place
 * (no process.exit scattered around), plain mode prints them as two lines, the TUI as an error panel.
 */

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  gate: 3,
  environment: 4,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * `stopped`: the operator chose to stop (declined a gate, "stop here", quit): exit 3, as a stop at a
 * gate awaiting approval. `interrupted` is kept for a signal (Ctrl+C, SIGTERM): exit 130.
 */
export type ErrorKind = 'input' | 'environment' | 'failed' | 'gate' | 'stopped' | 'interrupted' | 'internal';

export interface ErrorInfo {
  kind: ErrorKind;
  /** Stable machine-readable code, e.g. `palette.unauthorized`, `kube.credentials`. */
  code: string;
  message: string;
  hint?: string;
  /** Where it happened: a file:line:col, a call (`GET /v1/clusterprofiles/x`), a command. */
  where?: string;
  /** A resume would meet the same end (a replay refusing every change): no resume is offered. */
  resumable?: false;
}

const exitCodes: Record<ErrorKind, ExitCode> = {
  input: ExitCode.usage,
  environment: ExitCode.environment,
  failed: ExitCode.failed,
  gate: ExitCode.gate,
  stopped: ExitCode.gate,
  interrupted: ExitCode.interrupted,
  internal: ExitCode.failed,
};

export interface ErrorOptions {
  hint?: string;
  where?: string;
  cause?: unknown;
  /**
   * What to fix before going on, apart from how to go on: where the hint's way on cannot work (a
   * resume of a session whose lab has ended), this is still said (see continuation.ts).
   */
  fix?: string;
  /** False when a resume would meet the same end: the hint says what to do instead, and no resume is offered. */
  resumable?: boolean;
}

export class PilotError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly hint?: string;
  readonly where?: string;
  readonly fix?: string;
  readonly resumable?: false;

  constructor(kind: ErrorKind, code: string, message: string, opts: ErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.code = code;
    if (opts.hint !== undefined) this.hint = opts.hint;
    if (opts.where !== undefined) this.where = opts.where;
    if (opts.fix !== undefined) this.fix = opts.fix;
    if (opts.resumable === false) this.resumable = false;
  }

  get exitCode(): ExitCode {
    return exitCodes[this.kind];
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { kind: this.kind, code: this.code, message: this.message };
    if (this.hint !== undefined) info.hint = this.hint;
    if (this.where !== undefined) info.where = this.where;
    if (this.resumable === false) info.resumable = false;
    return info;
  }
}

/** Bad usage or bad input (a flag, a runbook or params file, a payload we refuse to send): exit 2. */
export class InputError extends PilotError {
  constructor(code: string, message: string, opts: ErrorOptions = {}) {
    super('input', code, message, opts);
  }
}

/** The environment is unreachable or refuses us (API down, bad key, expired kubeconfig): exit 4. */
export class EnvironmentError extends PilotError {
  constructor(code: string, message: string, opts: ErrorOptions = {}) {
    super('environment', code, message, opts);
  }
}

/** A step or check failed on its own terms (red verification, a refused plan): exit 1. */
export class StepFailedError extends PilotError {
  constructor(code: string, message: string, opts: ErrorOptions = {}) {
    super('failed', code, message, opts);
  }
}

export interface PendingApproval {
  /** Gate name as used by `--approve` (a step kind) or `restart` for a VM restart. */
  gate: string;
  /** What the operator is asked to approve. */
  title: string;
  /** The flag that would approve it in plain mode. */
  flag: string;
  /**
   * What to fix first when approving means going on despite a problem (an unhealthy cluster): the
   * hint says it before the approving flag, which is for after reading.
   */
  fix?: string;
}

/**
 * What to run after a stop at gates: the approving flags (the `--approve` gates merged into one
 * list; a hop's gate so approved is answered in every hop), and for VM restarts how to decline instead.
 */
/** Gates asked once per hop: one `--approve` answers them in every hop. */
const HOP_GATES = new Set(['draft', 'publish', 'apply', 'repave', 'cancel-migrations']);

export function approvalHint(pending: PendingApproval[], resume: string | { ended: string }): string {
  const fixes = [...new Set(pending.flatMap((p) => (p.fix ? [p.fix] : [])))];
  // A session that cannot be resumed (its lab has ended): what to fix, and why no command follows.
  if (typeof resume !== 'string') return [...fixes, resume.ended].join('\n');
  const gates = [...new Set(pending.filter((p) => p.flag.startsWith('--approve ')).map((p) => p.flag.slice('--approve '.length)))];
  const others = [...new Set(pending.map((p) => p.flag).filter((f) => !f.startsWith('--approve ')))];
  const flags = [...(gates.length ? [`--approve ${gates.join(',')}`] : []), ...others];
  const lines = [...fixes, `The session is saved. ${fixes.length ? 'Having read them, to go on knowingly' : 'To approve'}, run: ${resume} ${flags.join(' ')}`];
  const perHop = gates.filter((g) => HOP_GATES.has(g));
  if (perHop.length) lines.push(`--approve ${perHop.join(',')} answers ${perHop.length === 1 ? 'that gate' : 'those gates'} in every hop, not only this one.`);
  const vms = pending.filter((p) => p.gate === 'restart').map((p) => p.flag.replace(/^--approve-restart /, ''));
  if (vms.length) {
    lines.push(`To decline instead (the VM stays on the old launcher, listed as outstanding): ${resume} ${vms.map((vm) => `--skip-restart ${vm}`).join(' ')}`);
    if (vms.length > 3) lines.push('Or approve every VM restart at once: --approve-all-restarts.');
  }
  return lines.join('\n');
}

/** Plain mode reached a gate that has no explicit approval: the session is saved, exit 3. */
export class GateStopError extends PilotError {
  readonly pending: PendingApproval[];
  /**
   * `resume`: the command that continues the session (with --state-dir when needed), default from
   * the id; `{ended}` for a session that cannot be resumed (why, and what to do instead).
   */
  constructor(pending: PendingApproval[], sessionId?: string, resume?: string | { ended: string }) {
    super('gate', 'gate.awaiting-approval', `Stopped at a gate awaiting approval: ${pending.map((p) => p.title).join('; ')}`, {
      hint: approvalHint(pending, resume ?? (sessionId ? `upgrade-pilot resume ${sessionId}` : 'upgrade-pilot resume')),
    });
    this.pending = pending;
  }

  /** The same stop, its hint naming the exact resume command. */
  withResume(resume: string): GateStopError {
    return new GateStopError(this.pending, undefined, resume);
  }

  /** The same stop in a session that cannot be resumed (`ended` says why and what to do instead): no command offered. */
  withoutResume(ended: string): GateStopError {
    return new GateStopError(this.pending, undefined, { ended });
  }
}

/**
 * The operator chose to stop: declined a gate ("Not now"), "Stop here" at a review, aborted a
 * recovery, quit with `q`, cancelled a picker. Nothing went wrong and nothing waits unanswered: the
 * session is saved, exit 3 (as a stop at a gate). The hint says what to fix first, then how to go on.
 */
export class StoppedError extends PilotError {
  /** `next`: how to go on (a resume); `fix`, when something must be fixed first, comes before it. */
  constructor(message: string, how: { next: string; fix?: string }, code = 'stopped') {
    super('stopped', code, message, { hint: how.fix ? `${how.fix} ${how.next}` : how.next, ...(how.fix ? { fix: how.fix } : {}) });
  }
}

/** A signal stopped the run (Ctrl+C, SIGTERM, SIGHUP). The session is saved: exit 130. */
export class InterruptedError extends PilotError {
  constructor(message = 'Interrupted; the session is saved.', hint = 'Resume the session to continue where it stopped.') {
    super('interrupted', 'interrupted', message, { hint });
  }
}

/** A stop the operator chose or a signal made, not a failure (amber on screen, "stopped" in words). */
export function isStop(error: { kind: ErrorKind }): boolean {
  return error.kind === 'stopped' || error.kind === 'interrupted';
}

/** Normalizes anything thrown into an ErrorInfo; unknown errors are internal, with their message only. */
export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof PilotError) return err.toInfo();
  const message = err instanceof Error ? err.message : String(err);
  return {
    kind: 'internal',
    code: 'internal',
    message,
    hint: 'This is a bug in upgrade-pilot. The session is saved; please report the message above (run again with UPGRADE_PILOT_DEBUG=1 to add where it happened).',
  };
}

export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof PilotError ? err.exitCode : ExitCode.failed;
}
