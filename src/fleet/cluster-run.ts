/**
 * Runs one cluster of the fleet: the single-cluster session, unchanged (its own session folder,
 * journal, gates and report), in this process, with the fleet's shared Palette rate limiter. Its
 * plain output goes to the cluster's `run.log`; the fleet keeps the last error line for its rows.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { CliOptions } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import type { WrittenPolicy } from '../engine/approval-policy.js';
import { ExitCode, exitCodeOf, toErrorInfo } from '../errors.js';
import type { Limiter } from '../palette/rate-limit.js';
import { buildEffects } from '../run/effects.js';
import type { RunIO, SessionRequest } from '../run/session-run.js';
import type { ClusterOutcome } from './types.js';

export interface ClusterRunRequest {
  name: string;
  paramsFile: string;
  /** Where the cluster's session goes: the fleet's state dir, so `upgrade-pilot resume ID` works too. */
  stateDir: string;
  /** The cluster's folder in the fleet (its run.log). */
  dir: string;
  /** Resume this session instead of starting one. */
  session?: string;
  options: CliOptions;
  registry: StepRegistry;
  limiter: Limiter;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The stage halted: finish the step in progress, then stop safely (the session saved). */
  stopAfterStep?: AbortSignal;
  /** The stage's written approvals (the fleet file's `approve` and `restarts`). */
  policy?: WrittenPolicy;
  /** The session id, as soon as it exists (before anything is sent). */
  onSession(id: string): void;
  /** The fleet screen: shows the session and answers the gates no flag answers (else such a gate stops the cluster, exit 3). */
  attach?: SessionRequest['attach'];
}

export interface ClusterRunResult {
  outcome: ClusterOutcome;
  exitCode: number;
  message?: string;
}

/** A stage's written approvals, for its clusters' sessions; undefined when it approves nothing. */
export function stagePolicy(fleet: string, stage: { name: string; approve?: string[]; restarts?: 'ask' | 'approve' }): WrittenPolicy | undefined {
  const gates = stage.approve ?? [];
  const allRestarts = stage.restarts === 'approve';
  return gates.length || allRestarts ? { name: `fleet ${fleet}, stage ${stage.name}`, gates, allRestarts } : undefined;
}

const outcomeOf = (code: number): ClusterOutcome =>
  code === ExitCode.ok ? 'done' : code === ExitCode.failed ? 'failed' : code === ExitCode.gate ? 'gate' : code === ExitCode.interrupted ? 'interrupted' : 'error';

/** A cluster session's options: the fleet's approvals (the fleet's own gate `stage` is not theirs), plain mode, no notifications of its own. */
export function clusterOptions(options: CliOptions, paramsFile: string, stateDir: string): CliOptions {
  const { notify: _n, 'notify-command': _c, json: _j, ...rest } = options;
  return { ...rest, params: paramsFile, 'state-dir': stateDir, 'non-interactive': true, json: false, notify: [], approve: options.approve.filter((g) => g !== 'stage') };
}

/** A stream into the run log that keeps the session's last error line. */
function logStream(file: string, seen: { error?: string }): NodeJS.WriteStream {
  const file$ = createWriteStream(file, { flags: 'a', mode: 0o600 });
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const text = chunk.toString('utf8');
      const error = text.split('\n').find((l) => l.startsWith('error: '));
      if (error) seen.error = error.slice('error: '.length);
      file$.write(chunk, done);
    },
    final(done) {
      file$.end(done);
    },
  });
  return stream as unknown as NodeJS.WriteStream;
}

export async function runCluster(req: ClusterRunRequest): Promise<ClusterRunResult> {
  const seen: { error?: string } = {};
  const out = logStream(join(req.dir, 'run.log'), seen);
  const io: RunIO = { stdout: out, stderr: out, stdin: process.stdin, env: req.env };
  const options = clusterOptions(req.options, req.paramsFile, req.stateDir);
  let code: number;
  let thrown: string | undefined;
  try {
    const { runSession } = await import('../run/session-run.js');
    code = await runSession(
      {
        kind: req.session ? 'resume' : 'start',
        options,
        registry: req.registry,
        ...(req.session ? { sessionId: req.session } : {}),
        onSession: (id) => req.onSession(id),
        effects: (input) => buildEffects({ ...input, limiter: req.limiter }),
        signal: req.signal,
        ...(req.attach ? { attach: req.attach } : {}),
        ...(req.stopAfterStep ? { stopAfterStep: req.stopAfterStep } : {}),
        ...(req.policy ? { policy: req.policy } : {}),
      },
      io,
    );
  } catch (err) {
    thrown = toErrorInfo(err).message;
    code = exitCodeOf(err);
  } finally {
    // The log's last writes may still be queued: the error line is known once the stream has ended.
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  const message = thrown ?? seen.error;
  return { outcome: outcomeOf(code), exitCode: code, ...(message ? { message } : {}) };
}
