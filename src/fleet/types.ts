/** The fleet's shared types: its journal events and the state they fold into (state.ts). */
import type { FailureThreshold } from './schema.js';
import type { StageWindowSpec } from './window.js';

/** The run's approvals (approvals.ts): the start's flags, with each resume's additions and revocations. */
export interface RunApprovals {
  /** `--approve` gate names (the fleet's own `stage` among them). */
  gates: string[];
  /** `--approve-restart NS/NAME`. */
  restarts: string[];
  allRestarts: boolean;
  /** `--skip-restart NS/NAME`. */
  skipRestarts: string[];
  acceptFixes: string[];
  /** Taken away from the stages' written policies by `--revoke`: gate names, or `restarts`. */
  revoked: string[];
}

export interface PlannedStage {
  name: string;
  clusters: string[];
  maxConcurrency: number;
  failureThreshold: FailureThreshold;
  approval: boolean;
  /** Gates the stage's clusters pass without asking (the fleet file's `approve`; absent in plans frozen before it existed). */
  approve?: string[];
  /** `approve`: every VM restart inside its owner's window is approved by the fleet file. */
  restarts?: 'ask' | 'approve';
  /** The stage's soak, in milliseconds of the fleet's clock. */
  soakMs?: number;
  window?: StageWindowSpec;
  /** Where the stage is written in the fleet file (its policy's record names it); absent in plans frozen before it existed. */
  at?: { file: string; line: number };
}

export interface PlannedCluster {
  name: string;
  uid: string;
  stage: string;
  /** The cluster's own params file, written when the plan was frozen. */
  paramsFile: string;
}

/** A cluster named in the plan and left out, and why (a cluster template manages it, it is gone). */
export interface LeftOut {
  name: string;
  uid: string;
  reason: string;
}

/** `unwatched`: stopped after its change was applied, before the hop's watch settled it (the rollout goes on, nobody watching). */
export type ClusterOutcome = 'done' | 'failed' | 'gate' | 'interrupted' | 'error' | 'unwatched';

/** A cluster's change in motion when its session stopped (motion.ts): which hop, since when applied. */
export interface InMotion {
  hop: number;
  of: number;
  versions: string;
  appliedAt: string;
}

/** How the fleet was told to stop: `halt` (no new cluster starts, applied ones watched to a safe point) or `now`. */
export interface StopRequest {
  mode: 'halt' | 'now';
  /** `signal` (Ctrl+C, SIGTERM: exit 130) or the operator's deliberate stop (`q`, `fleet stop`: exit 3). */
  how: 'signal' | 'operator';
  /** In words, for the journal and the report: `SIGTERM`, `q on the fleet screen`, `fleet stop --now`. */
  reason: string;
  by: string;
}

export type FleetEvent =
  | {
      type: 'fleet.planned';
      at: string;
      fleet: string;
      file: string;
      digest: string;
      target: string;
      by: string;
      stages: PlannedStage[];
      clusters: PlannedCluster[];
      leftOut: LeftOut[];
    }
  /**
   * A run of the coordinator (start, resume, retry) and the approvals it runs with: the start's
   * flags, then each resume's additions and revocations (approvals.ts).
   */
  | { type: 'fleet.run'; at: string; by: string; command: 'start' | 'resume' | 'retry'; approvals: RunApprovals; added: string[]; revoked: string[] }
  | { type: 'stage.approved'; at: string; stage: string; by: string; how: string }
  /** The stage stopped starting clusters; those past their apply (`carrying`) are watched to a safe point before it ends. */
  | { type: 'stage.halting'; at: string; stage: string; why: string; carrying: string[] }
  | { type: 'stage.started'; at: string; stage: string }
  | { type: 'stage.ended'; at: string; stage: string; outcome: 'done' | 'failed' | 'stopped'; message?: string }
  /** The soak began: it ends at `until` (the fleet clock's time: the lab's against a lab), `untilWall` on this machine's clock. */
  | { type: 'stage.soak.started'; at: string; stage: string; until: string; untilWall: string }
  /** A done cluster read unhealthy during its stage's soak. */
  | { type: 'cluster.unhealthy'; at: string; cluster: string; stage: string; evidence: string[] }
  | { type: 'cluster.started'; at: string; cluster: string; session: string; attempt: number; resumed: boolean }
  | { type: 'cluster.ended'; at: string; cluster: string; session: string; outcome: ClusterOutcome; exitCode: number; message?: string; motion?: InMotion; /** `gate`: the flags that answer what it waits at. */ flags?: string[] }
  | { type: 'cluster.skipped'; at: string; cluster: string; reason: string; by: string }
  /** Palette no longer has the cluster (deleted after the plan): reported, neither failed nor counted. */
  | { type: 'cluster.vanished'; at: string; cluster: string }
  | { type: 'fleet.stopped'; at: string; reason: string; mode?: StopRequest['mode']; how?: StopRequest['how']; by?: string };

export type ClusterStatus = 'pending' | 'running' | 'done' | 'failed' | 'gate' | 'stopped' | 'unwatched' | 'skipped' | 'left-out' | 'vanished';

export interface ClusterState {
  name: string;
  uid: string;
  stage: string;
  paramsFile: string;
  status: ClusterStatus;
  session?: string;
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  message?: string;
  skipReason?: string;
  /** Read unhealthy during its stage's soak: the evidence. */
  unhealthy?: string[];
  /** `gate`: the flags that answer the gate it waits at (`--approve-restart ns/vm`). */
  gateFlags?: string[];
  /** `unwatched`: the change that goes on in it unwatched, and since when (its session's stop). */
  unwatched?: InMotion & { since: string };
}

export type StageStatus = 'pending' | 'running' | 'soaking' | 'done' | 'failed' | 'stopped';

export interface StageState extends PlannedStage {
  status: StageStatus;
  approvedBy?: string;
  startedAt?: string;
  endedAt?: string;
  message?: string;
  /** The soak in progress (or stopped by Ctrl+C or a crash): its end, in the fleet clock's time and on this machine's. */
  soak?: { until: string; untilWall: string };
  /** Halting: no new cluster starts, these (past their apply) are watched to a safe point. */
  halting?: { why: string; carrying: string[]; at: string };
}

export interface FleetState {
  fleet: string;
  file: string;
  digest: string;
  target: string;
  plannedAt: string;
  plannedBy: string;
  stages: StageState[];
  clusters: ClusterState[];
  leftOut: LeftOut[];
  /** The run's approvals now (start's, with each resume's additions and revocations); absent in journals from before they were kept. */
  approvals?: RunApprovals;
  /** Each coordinator run: who, which command, what it added or revoked. */
  runs: Array<{ at: string; by: string; command: 'start' | 'resume' | 'retry'; added: string[]; revoked: string[] }>;
  /** The last stop of the fleet, as requested. */
  stopped?: { at: string; reason: string; by?: string; mode?: StopRequest['mode']; how?: StopRequest['how'] };
}
