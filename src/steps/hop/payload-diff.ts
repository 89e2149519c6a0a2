/** What a draft changes in a pack's values: counts and a unified diff, capped for screens and reports. */
import { structuredPatch } from 'diff';

export interface ValuesDiff {
  added: number;
  removed: number;
  /** Unified diff lines (`@@`, `+`, `-`, ` `), at most `cap` lines. */
  patch: string[];
  truncated: boolean;
}

export function valuesDiff(before: string, after: string, cap = 200): ValuesDiff {
  if (before === after) return { added: 0, removed: 0, patch: [], truncated: false };
  const p = structuredPatch('deployed', 'draft', before, after, '', '', { context: 2 });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const h of p.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
      lines.push(l);
    }
  }
  return { added, removed, patch: lines.slice(0, cap), truncated: lines.length > cap };
}
