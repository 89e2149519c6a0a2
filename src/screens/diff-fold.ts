/**
 * Image-tag-only changes, folded. A new pack version moves every image it lists to the new tag
 * (`cilium:v1.16.6` → `cilium:v1.17.1`); shown line by line they bury the few values that matter.
 * A removed line and its added counterpart that differ only in versions become one line: "12 image
 * tags follow the pack version". Pure; the full diff stays in the report.
 */

export type DiffKind = 'add' | 'del' | 'ctx' | 'hunk' | 'fold' | 'title';

export interface DiffLine {
  text: string;
  kind: DiffKind;
}

// A version anywhere in a line: v1.2, 1.16.6, 3.2.1-spectro.1, sha-like digests after @.
const version = /@sha256:[0-9a-f]{8,}|\bv?\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?\b/g;

/** Two lines of a diff (without their +/- mark) that differ only in their versions. */
export function onlyVersionsDiffer(before: string, after: string): boolean {
  if (before === after) return false;
  const a = before.replace(version, '#');
  const b = after.replace(version, '#');
  return a === b && a.includes('#');
}

const kindOf = (line: string): DiffKind => (line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('---') ? 'title' : 'ctx');

/** "12 image tags follow the pack version"; other lines that change only a version are called versions. */
function foldLine(lines: string[]): DiffLine {
  const n = lines.length;
  const images = lines.every((l) => /image|tag/i.test(l));
  const what = images ? `image tag${n === 1 ? '' : 's'}` : `version${n === 1 ? '' : 's'}`;
  return { kind: 'fold', text: `⋯ ${n} ${what} follow${n === 1 ? 's' : ''} the pack version` };
}

/** Each run of removed lines followed by added lines is paired line by line; pairs that differ only in versions fold. */
export function foldImageTags(patch: readonly string[]): DiffLine[] {
  const out: DiffLine[] = [];
  let i = 0;
  while (i < patch.length) {
    const line = patch[i]!;
    if (!line.startsWith('-') || line.startsWith('---')) {
      out.push({ text: line, kind: line.startsWith('--- ') ? 'title' : kindOf(line) });
      i++;
      continue;
    }
    const dels: string[] = [];
    while (i < patch.length && patch[i]!.startsWith('-') && !patch[i]!.startsWith('---')) dels.push(patch[i++]!);
    const adds: string[] = [];
    while (i < patch.length && patch[i]!.startsWith('+')) adds.push(patch[i++]!);
    const keptDels: string[] = [];
    const keptAdds: string[] = [];
    const folded: string[] = [];
    for (let j = 0; j < Math.max(dels.length, adds.length); j++) {
      const d = dels[j];
      const a = adds[j];
      if (d !== undefined && a !== undefined && onlyVersionsDiffer(d.slice(1), a.slice(1))) folded.push(a);
      else {
        if (d !== undefined) keptDels.push(d);
        if (a !== undefined) keptAdds.push(a);
      }
    }
    if (folded.length) out.push(foldLine(folded));
    for (const d of keptDels) out.push({ text: d, kind: 'del' });
    for (const a of keptAdds) out.push({ text: a, kind: 'add' });
  }
  return out;
}

/** How many changed lines only follow the pack version (image tags and versions). */
export function foldedCount(lines: readonly DiffLine[]): number {
  return lines.reduce((n, l) => n + (l.kind === 'fold' ? Number(/\d+/.exec(l.text)?.[0] ?? 0) : 0), 0);
}
