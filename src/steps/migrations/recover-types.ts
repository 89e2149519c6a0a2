/** What recovery shows while it runs and records when it ends. */
import type { RecoverContract } from '../contracts.js';
import type { NotOffered } from './candidates.js';
import type { RestartProgram } from './recover-requests.js';
import type { RestartTiming } from './types.js';

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

/**
 * `cancelled`: every cancelled migration is gone or its abort succeeded (or it finished first);
 * `abort-failed`: KubeVirt could not abort at least one, which runs on; `still-aborting`: at least
 * one was still aborting when the wait ended. A delete alone is not a cancel: KubeVirt's
 * finalizer keeps the migration until its abort is over.
 */
export type CancelState = 'asking' | 'cancelling' | 'cancelled' | 'abort-failed' | 'still-aborting' | 'left-running' | 'would-cancel' | 'awaiting-approval';

/** How each cancelled migration ended, as read back from the cluster. */
export interface CancelOutcomes {
  /** Gone, or its abort succeeded: it no longer runs. */
  cancelled: string[];
  /** KubeVirt could not abort it (`abortStatus: Failed`): it goes on until its VM is restarted. */
  abortFailed: string[];
  /** It succeeded before the abort took: nothing runs any more. */
  finished: string[];
  /** Still aborting when the wait ended. */
  stillAborting: string[];
}

export interface RecoverLive {
  headline: string;
  vms: RecoverVmRow[];
  cancel?: { migrations: string[]; state: CancelState; outcomes?: CancelOutcomes };
  waiting?: { vm: string; state: string; elapsedMs: number; limitMs: number };
  baseline: 'snapshot' | 'first-look';
  rehearsal: boolean;
}

export interface RecoverOutput extends RecoverContract {
  skipped: string[];
  /** Rehearsal: the restarts that were recorded (nothing was sent). */
  wouldRestart: string[];
  /** Migrations whose cancel took (gone, or aborted). */
  cancelled: string[];
  /** Migrations whose cancel did not take: the abort failed, or was still running when the wait ended. */
  cancelFailed?: Array<{ migration: string; why: string }>;
  notOffered: NotOffered[];
  vms: RecoverVmRow[];
  baseline: 'snapshot' | 'first-look';
  program: RestartProgram;
  rehearsal: boolean;
  aborted: boolean;
  /** How long each restarted VM was down, measured from the cluster (every attempt of the step). */
  timings?: RestartTiming[];
}
