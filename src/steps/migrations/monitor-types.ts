/** What the migration monitor shows while it runs (live) and records when it ends (output). */
import type { MovedOutput } from './types.js';

export interface MigrationRow {
  /** `namespace/name` of the VMIM. */
  key: string;
  /** `namespace/name` of the VMI it moves. */
  vmi: string;
  source: string;
  target: string;
  phase: string;
  /** Since the migration was created. */
  ageMs: number;
  /** Since it started Running (in flight only). */
  runningMs?: number;
  /** KubeVirt's failure reason, for failed migrations. */
  reason?: string;
}

export interface OutdatedVmi {
  vmi: string;
  node: string;
  migratable: boolean;
  /** Why KubeVirt cannot live-migrate it (the LiveMigratable condition). */
  notMigratableReason?: string;
  launcher?: string;
  /** KubeVirt's workload updater will move it (live migration or eviction); otherwise only a restart will. */
  willMove: boolean;
  /** When it will not move: why (as the plan's VM impact says it). */
  staysBecause?: string;
}

export interface KubevirtProgress {
  ref: string;
  found: boolean;
  phase: string;
  observed: string;
  target: string;
  /** The version this hop deploys, when the plan says. */
  expected?: string;
  outdatedWorkloads?: number;
  /** `Progressing=True` style, for the conditions that are not in their resting state. */
  conditions: string[];
  settled: boolean;
}

export type StallKind = 'migration-too-long' | 'failures' | 'no-progress';

export interface StallReason {
  kind: StallKind;
  text: string;
  vmi?: string;
}

/** A failed or hanging migration of a VMI that is still outdated: what diagnosis starts from. */
export interface MigrationProblem {
  kind: 'failed' | 'stuck';
  vmi: string;
  migration: string;
  phase: string;
  source: string;
  target: string;
  reason?: string;
  ageMs: number;
}

export type WaitingFor = 'kubevirt-operator' | 'kubevirt-rollout' | 'workload-updater';

export interface MigrationWait {
  for: WaitingFor;
  /** "waiting for KubeVirt to report v1.3.1: virt-operator is rolling out". */
  text: string;
  /** How long it has waited, in the cluster's clock, since `since` ("the hop was sent", "KubeVirt reported v1.4.0"). */
  waitedMs: number;
  since: string;
  /** What this wait is expected to take (the plan's pack rollout; the workload updater's usual start), and its name. */
  predicted?: { p50Seconds: number; p90Seconds: number };
  against?: string;
  /** Waited past the predicted p90: `checks` and `stop` say what to do. */
  overdue: boolean;
  /** Commands that show why it is slow. */
  checks: string[];
  /** How to stop safely, and what goes on meanwhile. */
  stop: string;
}

export interface HistoryPoint {
  /** Milliseconds since the monitor started. */
  atMs: number;
  outdated: number;
  inFlight: number;
}

export interface MigrationsLive {
  headline: string;
  rows: MigrationRow[];
  counts: Record<string, number>;
  outdated: number;
  /** Outdated VMIs nothing will move: recovery's restarts. */
  staying: number;
  history: HistoryPoint[];
  kubevirt: KubevirtProgress;
  /** Stuck migrations and repeated failures seen so far; they end the watch once nothing else can move. */
  stall: StallReason[];
  /** Outdated VMIs that can still move by themselves. */
  movable: number;
  /** The watch has ended (the stall reasons are final). */
  ended: boolean;
  elapsedMs: number;
  /** What is left, from the plan's per-VM durations rescheduled for what remains (issue 27). */
  remaining?: { p50Seconds: number; p90Seconds: number };
  /** The plan's estimate of this hop's migration phase, to compare with the elapsed time. */
  planned?: { p50Seconds: number; p90Seconds: number };
  sinceProgressMs: number;
  polls: number;
  nextPollInMs: number;
  /** Since the hop was sent (the origin of the migrations' ages too), in the cluster's clock. */
  sinceSentMs?: number;
  /** The plan's estimate of the whole hop, to compare with `sinceSentMs`. */
  hop?: { p50Seconds: number; p90Seconds: number };
  /** What the watch waits for while nothing moves (KubeVirt's version, the workload updater), and for how long. */
  wait?: MigrationWait;
}

export interface MigrationsOutput {
  /** completed: nothing outdated can still move by itself; stalled: it cannot finish alone; rehearsal: today's state only. */
  outcome: 'completed' | 'stalled' | 'rehearsal';
  counts: Record<string, number>;
  outdated: number;
  /** Outdated VMIs nothing will move (cannot live-migrate, not evicted): recovery restarts them (bounded list). */
  needsRestart: OutdatedVmi[];
  problems: MigrationProblem[];
  stall: StallReason[];
  /** Nodes where the problems happened (virt-handler logs there are evidence). */
  affectedNodes: string[];
  kubevirt: KubevirtProgress;
  history: HistoryPoint[];
  elapsedMs: number;
  polls: number;
  /** Lists are capped; these say how many there were. */
  totals: { needsRestart: number; problems: number };
  rehearsal?: { wouldWaitFor: string[] };
  /** The VMs that live-migrated (with durations) or were evicted since the hop began. */
  moved?: MovedOutput;
  /** The plan's estimate of this phase (median, pessimistic), for the report beside `elapsedMs`. */
  planned?: { p50Seconds: number; p90Seconds: number };
  /** From the hop's send to the workload updater's first migration (the plan's pack-rollout part), cluster time. */
  rolloutSeconds?: number;
}
