/** The diagnoses per hop: each finding with its evidence, and the failures nothing explains. Pure. */
import type { SessionState } from '../engine/state.js';
import { steps } from '../engine/state.js';
import type { DiagnoseOutput } from '../steps/migrations/diagnose-types.js';
import type { ReportDiagnosis } from './model.js';

const EVIDENCE_PER_FINDING = 10;
const VMS_PER_FAILURE = 20;

export function diagnosesOf(state: SessionState): ReportDiagnosis[] {
  return steps(state)
    .filter((s) => s.kind === 'diagnose' && s.output !== undefined)
    .map((s) => {
      // Read defensively: a custom runbook's diagnose step may record less.
      const out = s.output as Partial<DiagnoseOutput>;
      return {
        hop: s.hop?.index ?? null,
        step: s.id,
        summary: s.summary ?? out.headline ?? '',
        findings: (out.findings ?? []).map((f) => ({
          title: f.title,
          issue: f.issue,
          confirmed: f.confirmed,
          evidence: (f.evidence ?? []).slice(0, EVIDENCE_PER_FINDING).map((e) => ({ source: e.source, line: e.line })),
        })),
        unexplained: (out.unknown ?? []).map((u) => ({ reason: u.reason, count: u.count, vms: u.vmis.slice(0, VMS_PER_FAILURE) })),
      };
    });
}
