/** What the coordinator and a stage's run are given (coordinator.ts, stage-run.ts), and who runs it. */
import { hostname, userInfo } from 'node:os';
import type { CliOptions } from '../cli/args.js';
import type { Clock } from '../engine/clock.js';
import type { SessionState } from '../engine/state.js';
import type { StepRegistry } from '../engine/step-kind.js';
import type { Limiter } from '../palette/rate-limit.js';
import type { SharedReads } from '../palette/transport.js';
import type { ClusterRunRequest, ClusterRunResult } from './cluster-run.js';
import type { FleetJournal } from './journal.js';
import type { Prediction } from './predicted.js';
import type { SoakHealth } from './soak.js';
import type { RunApprovals, StageState, StopRequest } from './types.js';

export interface CoordinatorOptions {
  journal: FleetJournal;
  stateDir: string;
  options: CliOptions;
  registry: StepRegistry;
  limiter: Limiter;
  /** Palette reads the clusters share (the pack registry, the profile versions: shared-reads.ts). */
  sharedReads?: SharedReads;
  env: NodeJS.ProcessEnv;
  /** Stop now (Ctrl+C, SIGTERM, `fleet stop --now`): every session stops at its next safe point. */
  signal: AbortSignal;
  /** Stop starting (`q`, `fleet stop`): no new cluster starts, every applied one is watched to a safe point. */
  halt: AbortSignal;
  /** Why the fleet was told to stop (for the journal, the words and the exit code: 130 for a signal, 3 otherwise). */
  stopRequest(): StopRequest | undefined;
  /** The run's approvals (journaled at its start): every cluster's session runs with them. */
  approvals: RunApprovals;
  /** `upgrade-pilot fleet resume --fleet FILE ...`: what watches an unwatched cluster again. */
  resumeCommand: string;
  /** A cluster session's state as its journal stands now (undefined when it cannot be read). */
  sessionState(id: string): SessionState | undefined;
  /** The fleet's clock for soaks (the lab's accelerated one against a lab, as the sessions' is). */
  clock: Clock;
  /** Reads a done cluster's health during its stage's soak. */
  soakHealth: SoakHealth;
  /** A cluster's predicted duration for its stage's window (predicted.ts); undefined when nothing predicts it yet. */
  predict(cluster: string): Prediction | undefined;
  /** Whether Palette still has the cluster (a cluster deleted after the plan is reported vanished, not failed). */
  exists(uid: string): Promise<boolean>;
  /** One line (or JSON object) per fleet event, for the operator. */
  say(event: Record<string, unknown> & { type: string }, line: string): void;
  /**
   * The fleet screen (fleet-ui): each cluster's session shown there, its gates answered there
   * by a key instead of stopping the cluster. Without it a gate no flag answers stops the cluster.
   */
  attach?(cluster: string): ClusterRunRequest['attach'];
  /**
   * The fleet screen asks for a stage's approval (the gate `stage`) when no flag gave it: who approved
   * and how, or undefined when the operator did not (the fleet stops there, exit 3, as without it).
   */
  askStage?(stage: StageState, signal: AbortSignal): Promise<{ by: string; how: string } | undefined>;
  /** Runs one cluster's session (tests: a scripted one); default cluster-run.ts's. */
  runCluster?(req: ClusterRunRequest): Promise<ClusterRunResult>;
}

export function whoAmI(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return `unknown@${hostname()}`;
  }
}

