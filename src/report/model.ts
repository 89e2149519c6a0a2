/**
 * The report as data: what an operator attaches to a change ticket. Built from the session state
 * alone (pure), so `report` on any saved session gives the same answer as the end of the run. The
 * shapes are defined once, as a schema (schema.ts), which also gives the shipped JSON Schema.
 */
export type {
  ReportApproval,
  ReportData,
  ReportDecision,
  ReportDiagnosis,
  ReportPackDiff,
  ReportRequest,
  ReportRollback,
  ReportStep,
  ReportStop,
  ReportVm,
} from './schema.js';
