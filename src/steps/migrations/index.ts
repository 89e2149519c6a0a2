/** The live-migration step kinds (spec 9.1.2–9.1.4) and the types their screens and later steps read. */
export { migrationsStep } from './monitor-step.js';
export { diagnoseStep } from './diagnose-step.js';
export { recoverStep } from './recover-step.js';
export { MigrationsParams, DiagnoseParams, RecoverParams } from './params.js';
export type { MigrationsLive, MigrationsOutput, MigrationRow, MigrationProblem, StallReason, KubevirtProgress, HistoryPoint, OutdatedVmi } from './monitor-types.js';
export type { DiagnoseOutput, Finding, Evidence, UnknownFailure } from './diagnose-types.js';
export type { RecoverOutput, RecoverLive, RecoverVmRow, VmState } from './recover-types.js';
