/** The fleet's shared types: its journal events and the state they fold into (state.ts). */
import type { FailureThreshold } from './schema.js';
import type { StageWindowSpec } from './window.js';

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

export type ClusterOutcome = 'done' | 'failed' | 'gate' | 'interrupted' | 'error';

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
  | { type: 'stage.approved'; at: string; stage: string; by: string; how: string }
  | { type: 'stage.started'; at: string; stage: string }
  | { type: 'stage.ended'; at: string; stage: string; outcome: 'done' | 'failed' | 'stopped'; message?: string }
  /** The soak began: it ends at `until` (the fleet clock's time: the lab's against a lab), `untilWall` on this machine's clock. */
  | { type: 'stage.soak.started'; at: string; stage: string; until: string; untilWall: string }
  /** A done cluster read unhealthy during its stage's soak. */
  | { type: 'cluster.unhealthy'; at: string; cluster: string; stage: string; evidence: string[] }
  | { type: 'cluster.started'; at: string; cluster: string; session: string; attempt: number; resumed: boolean }
  | { type: 'cluster.ended'; at: string; cluster: string; session: string; outcome: ClusterOutcome; exitCode: number; message?: string }
  | { type: 'cluster.skipped'; at: string; cluster: string; reason: string; by: string }
  /** Palette no longer has the cluster (deleted after the plan): reported, neither failed nor counted. */
  | { type: 'cluster.vanished'; at: string; cluster: string }
  | { type: 'fleet.stopped'; at: string; reason: string };

export type ClusterStatus = 'pending' | 'running' | 'done' | 'failed' | 'gate' | 'stopped' | 'skipped' | 'left-out' | 'vanished';

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
}
