/**
 * Check results as text panels for a terminal log: status in words, evidence, what to do. The
 * spec's section numbers are for the report and the JSON output, not for the operator's screen.
 */
import { sanitizeText } from '../../text/sanitize.js';
import type { CheckResult } from './types.js';
import { formatDuration } from '../../text/duration.js';

const label = { pass: 'PASS   ', fail: 'FAIL   ', warn: 'WARN   ', unknown: 'UNKNOWN' } as const;

export function renderChecksText(results: CheckResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${label[r.status]}  ${r.title}  [${formatDuration(r.durationMs)}]`);
    lines.push(`         ${sanitizeText(r.summary)}`);
    if (r.status !== 'pass') {
      for (const e of r.evidence) lines.push(`           • ${sanitizeText(e)}`);
      if (r.remediation) lines.push(`         what to do: ${r.remediation}`);
    }
  }
  return lines;
}
