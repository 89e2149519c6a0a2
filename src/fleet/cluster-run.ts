/**
 * Runs one cluster of the fleet: the single-cluster session, unchanged (its own session folder,
 * journal, gates and report), in this process, with the fleet's shared Palette rate limiter. Its
 * plain output goes to the cluster's `run.log`; the fleet keeps the last error line for its rows.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { StepRegistry } from '../engine/step-kind.js';
import type { WrittenPolicy } from '../engine/approval-policy.js';
import { ExitCode, exitCodeOf, toErrorInfo } from '../errors.js';
import type { Limiter } from '../palette/rate-limit.js';
import type { SharedReads } from '../palette/transport.js';
import { buildEffects } from '../run/effects.js';
import type { RunIO, SessionRequest } from '../run/session-run.js';
import { clusterSettings, type FleetSettings } from './settings.js';
import type { ClusterOutcome, RunApprovals } from './types.js';

export interface ClusterRunRequest {
  name: string;
  paramsFile: string;
  /** Where the cluster's session goes: the fleet's state dir, so `upgrade-pilot resume ID` works too. */
  stateDir: string;
  /** The cluster's folder in the fleet (its run.log). */
  dir: string;
  /** Resume this session instead of starting one. */
  session?: string;
  /** What the fleet command gives every cluster's session (settings.ts builds the cluster's from it). */
  settings: FleetSettings;
  /** The run's approvals: the session's, in place of the command line's own flags. */
  approvals: RunApprovals;
  registry: StepRegistry;
  limiter: Limiter;
  /** Palette reads shared with the fleet's other clusters (shared-reads.ts). */
  sharedReads?: SharedReads;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The stage halted: finish the step in progress, then stop safely (the session saved). */
  stopAfterStep?: AbortSignal;
  /** Under such a stop, the steps that still run (an applied change watched until it settles: motion.ts). */
  carry?: SessionRequest['carry'];
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

const outcomeOf = (code: number): ClusterOutcome =>
  code === ExitCode.ok ? 'done' : code === ExitCode.failed ? 'failed' : code === ExitCode.gate ? 'gate' : code === ExitCode.interrupted ? 'interrupted' : 'error';

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
  let code: number;
  let thrown: string | undefined;
  try {
    const { runSession } = await import('../run/session-run.js');
    code = await runSession(
      {
        kind: req.session ? 'resume' : 'start',
        settings: clusterSettings(req.settings, req),
        registry: req.registry,
        ...(req.session ? { sessionId: req.session } : {}),
        onSession: (id) => req.onSession(id),
        effects: (input) => buildEffects({ ...input, limiter: req.limiter, ...(req.sharedReads ? { sharedReads: req.sharedReads } : {}) }),
        signal: req.signal,
        ...(req.attach ? { attach: req.attach } : {}),
        ...(req.stopAfterStep ? { stopAfterStep: req.stopAfterStep } : {}),
        ...(req.carry ? { carry: req.carry } : {}),
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
