/**
 * Types the migration steps' modules share across their own output types (the monitor's record of
 * moved VMs, a restart's measured downtime): here so no two of them import each other.
 */

export interface MigratedVm {
  vm: string;
  migration: string;
  /** From the migration's start to its end (the cluster's stamps; lab time against the lab). */
  seconds?: number;
  /** When it ended, as a wall-clock time. */
  endedAt?: string;
  source?: string;
  target?: string;
}

export interface MovedOutput {
  /** When the hop began, in the cluster's time: migrations that ended before it belong to earlier work. */
  since: string;
  migrated: MigratedVm[];
  evicted: string[];
  /** Lists are capped; these say how many there were. */
  totals: { migrated: number; evicted: number };
  /** The durations are the lab's simulated time (the cluster's stamps are). */
  labTime?: boolean;
  /** With labTime: how many times faster than the wall clock the lab's time ran (the report's timeline draws lab durations at it). */
  labSpeed?: number;
  /**
   * The migration phase as the plan predicts it: from the workload updater's first migration of the
   * hop (created) to the last one's end (succeeded or failed), in the cluster's time.
   */
  phase?: { firstCreated: string; seconds?: number };
}

export interface RestartTiming {
  vm: string;
  /** When the VM went down, in the cluster's time (the lab's simulated time against the lab). */
  downAt: string;
  downFrom: 'vmi-deletion' | 'request';
  /** When it ran again, in the cluster's time. */
  runningAt?: string;
  runningFrom?: 'phase-transition' | 'observed';
  downtimeSeconds?: number;
  /** Against a simulated clock (the lab): the same instants as wall-clock times; the ones above are lab time. */
  wall?: { downAt: string; runningAt?: string };
}
