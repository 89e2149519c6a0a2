/**
 * Matching the runbook's known-issue signatures (spec 9.1.3) against what the cluster says: each
 * signature's pattern (case-insensitive) against every line of the sources of its kind. An issue is
 * confirmed by a primary signature; secondary ones (the missing network-info cache) only support it.
 * Pure: sources in, findings out.
 */
import type { KnownIssue } from '../known-issue-schema.js';
import type { Evidence, Finding, SourceText, UnknownFailure } from './diagnose-types.js';

/** Evidence lines kept per signature; the count says how many matched in all. */
export const EVIDENCE_PER_SIGNATURE = 3;
const MAX_LINE = 600;

const clip = (line: string): string => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line);

export function matchKnownIssues(issues: KnownIssue[], sources: SourceText[]): Finding[] {
  const findings: Finding[] = [];
  for (const issue of issues) {
    const evidence: Evidence[] = [];
    const signatures = issue.signatures.map((sig) => {
      const re = new RegExp(sig.pattern, 'i');
      let matches = 0;
      const seen = new Set<string>();
      for (const src of sources) {
        if (src.kind !== sig.source) continue;
        for (const line of src.lines) {
          if (!re.test(line)) continue;
          matches++;
          // The same line from the same place (a periodic log line) is one piece of evidence.
          const key = `${src.label}\n${line}`;
          if (seen.has(key) || seen.size >= EVIDENCE_PER_SIGNATURE) continue;
          seen.add(key);
          evidence.push({ signature: sig.id, source: src.label, line: clip(line.trim()), secondary: sig.secondary });
        }
      }
      return { id: sig.id, ...(sig.description ? { description: sig.description } : {}), source: sig.source, secondary: sig.secondary, matches };
    });
    if (signatures.every((s) => s.matches === 0)) continue;
    findings.push({ issue: issue.id, title: issue.title, confirmed: signatures.some((s) => !s.secondary && s.matches > 0), recovery: issue.recovery, signatures, evidence });
  }
  // Confirmed issues first, then by how much evidence they have.
  return findings.sort((a, b) => Number(b.confirmed) - Number(a.confirmed) || b.evidence.length - a.evidence.length);
}

export interface FailureReason {
  reason: string;
  vmi: string;
}

/** Failure reasons no known issue's `migrationFailureReason` signature explains, grouped by text. */
export function unknownFailures(issues: KnownIssue[], reasons: FailureReason[]): UnknownFailure[] {
  const patterns = issues.flatMap((i) => i.signatures.filter((s) => s.source === 'migrationFailureReason').map((s) => new RegExp(s.pattern, 'i')));
  const byReason = new Map<string, { count: number; vmis: Set<string> }>();
  for (const r of reasons) {
    if (patterns.some((p) => p.test(r.reason))) continue;
    const e = byReason.get(r.reason) ?? { count: 0, vmis: new Set<string>() };
    e.count++;
    e.vmis.add(r.vmi);
    byReason.set(r.reason, e);
  }
  return [...byReason]
    .map(([reason, e]) => ({ reason: clip(reason), count: e.count, vmis: [...e.vmis].sort().slice(0, 20) }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
