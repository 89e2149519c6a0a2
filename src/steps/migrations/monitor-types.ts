/** What the migration monitor shows while it runs (live) and records when it ends (output). */

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
  notMigratable: number;
  history: HistoryPoint[];
  kubevirt: KubevirtProgress;
  /** Stall signals seen so far (the monitor ends on them). */
  stall: StallReason[];
  elapsedMs: number;
  sinceProgressMs: number;
  polls: number;
  nextPollInMs: number;
}

export interface MigrationsOutput {
  /** completed: nothing outdated can still move by itself; stalled: it cannot finish alone; rehearsal: today's state only. */
  outcome: 'completed' | 'stalled' | 'rehearsal';
  counts: Record<string, number>;
  outdated: number;
  /** Outdated VMIs KubeVirt cannot live-migrate: recovery restarts them (bounded list). */
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
}
