/** What a draft changes in a pack's values: counts and a unified diff, capped for screens and reports. */
import { structuredPatch } from 'diff';
import { deepFreeze } from '../../io/deep-freeze.js';

export interface ValuesDiff {
  added: number;
  removed: number;
  /** Unified diff lines (`@@`, `+`, `-`, ` `), at most `cap` lines. */
  patch: string[];
  truncated: boolean;
}

/**
 * The last few pairs diffed in this process. The clusters of a fleet that share a profile draft the
 * same new version from the same values: each diffed the same two documents of some 3,000 lines
 * (megabytes of garbage and tens of milliseconds each); now the first does, the others read its
 * answer (frozen: shared, never changed).
 */
const recent: Array<{ before: string; after: string; cap: number; diff: ValuesDiff }> = [];
const RECENT = 8;

export function valuesDiff(before: string, after: string, cap = 200): ValuesDiff {
  if (before === after) return { added: 0, removed: 0, patch: [], truncated: false };
  const i = recent.findIndex((r) => r.cap === cap && r.before === before && r.after === after);
  if (i !== -1) {
    const [hit] = recent.splice(i, 1);
    recent.unshift(hit!);
    return hit!.diff;
  }
  const diff = deepFreeze(computeDiff(before, after, cap));
  recent.unshift({ before, after, cap, diff });
  recent.length = Math.min(recent.length, RECENT);
  return diff;
}

function computeDiff(before: string, after: string, cap: number): ValuesDiff {
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
