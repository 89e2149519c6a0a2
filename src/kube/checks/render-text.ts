/** Check results as text panels for a terminal log or a ticket: status in words, evidence, what to do. */
import { formatDuration } from '../../engine/duration.js';
import type { CheckResult } from './types.js';

const label = { pass: 'PASS   ', fail: 'FAIL   ', warn: 'WARN   ', unknown: 'UNKNOWN' } as const;

export function renderChecksText(results: CheckResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${label[r.status]}  ${r.title}${r.spec ? ` (${r.spec})` : ''}  [${formatDuration(r.durationMs)}]`);
    lines.push(`         ${r.summary}`);
    if (r.status !== 'pass') {
      for (const e of r.evidence) lines.push(`           • ${e}`);
      if (r.remediation) lines.push(`         what to do: ${r.remediation}`);
    }
  }
  return lines;
}
