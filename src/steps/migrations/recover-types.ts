/** What recovery shows while it runs and records when it ends. */
import type { RecoverContract } from '../contracts.js';
import type { NotOffered } from './candidates.js';
import type { RestartProgram } from './recover-requests.js';
import type { RestartTiming } from './restart-timing.js';

export type VmState =
  /** Offered; its gate has not come yet. */
  | 'pending'
  /** Its gate is open. */
  | 'asking'
  /** Plain mode: no --approve-restart for it; the run stops listing it. */
  | 'awaiting-approval'
  | 'restarting'
  | 'restarted'
  /** Rehearsal: the restart was recorded, not sent. */
  | 'would-restart'
  | 'skipped'
  /** Not restarted and still on the old launcher (not offered, changed meanwhile, or left after an abort). */
  | 'outstanding'
  /** Restarted, but not back on the current launcher within the wait. */
  | 'not-back'
  /** No longer outdated: nothing to do. */
  | 'up-to-date';

export interface RecoverVmRow {
  vm: string;
  node: string;
  why: string;
  state: VmState;
  note?: string;
}

export type CancelState = 'asking' | 'cancelling' | 'cancelled' | 'left-running' | 'would-cancel' | 'awaiting-approval';

export interface RecoverLive {
  headline: string;
  vms: RecoverVmRow[];
  cancel?: { migrations: string[]; state: CancelState };
  waiting?: { vm: string; state: string; elapsedMs: number; limitMs: number };
  baseline: 'snapshot' | 'first-look';
  rehearsal: boolean;
}

export interface RecoverOutput extends RecoverContract {
  skipped: string[];
  /** Rehearsal: the restarts that were recorded (nothing was sent). */
  wouldRestart: string[];
  cancelled: string[];
  notOffered: NotOffered[];
  vms: RecoverVmRow[];
  baseline: 'snapshot' | 'first-look';
  program: RestartProgram;
  rehearsal: boolean;
  aborted: boolean;
  /** How long each restarted VM was down, measured from the cluster (every attempt of the step). */
  timings?: RestartTiming[];
}
