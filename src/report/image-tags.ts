/**
 * Most of a pack upgrade's values diff is image tags moving with the version. A reader of the
 * ticket wants the other changes; these helpers tell image-and-tag lines from the rest so the
 * report can fold them to one line per pack. Pure.
 */

/** A key naming an image, a tag, a version or a digest (`image:`, `imageTag:`, `"tag":`, `- version:`). */
const imageKey = /^\s*(?:-\s+)?["']?[\w.-]*(?:image|tag|version|digest)[\w.-]*["']?\s*:/i;
/** A bare image reference (a list item or a scalar): `registry/path/name:tag` or `...@sha256:...`. */
const imageRef = /^\s*(?:-\s+)?["']?[\w.-]+(?::\d+)?(?:\/[\w.-]+)+(?::[\w.-]+|@sha256:[a-f0-9]{16,})["']?\s*$/i;

/** Whether a changed line (without its `+`/`-`) only moves an image or a tag. */
export function isImageLine(content: string): boolean {
  return content.trim() === '' || imageKey.test(content) || imageRef.test(content);
}

const changed = (line: string) => (line.startsWith('+') || line.startsWith('-')) && !line.startsWith('+++') && !line.startsWith('---');

/** Hunks of a unified diff: each starts at its `@@` line. */
export function hunksOf(patch: string[]): string[][] {
  const hunks: string[][] = [];
  for (const line of patch) {
    if (line.startsWith('@@') || hunks.length === 0) hunks.push([line]);
    else hunks.at(-1)!.push(line);
  }
  return hunks;
}

export function isImageOnlyHunk(hunk: string[]): boolean {
  const lines = hunk.filter(changed);
  return lines.length > 0 && lines.every((l) => isImageLine(l.slice(1)));
}

/** Every changed line of a (complete) diff is an image or a tag. */
export function imageTagsOnly(patch: string[], truncated: boolean): boolean {
  if (truncated || patch.length === 0) return false;
  return hunksOf(patch).every(isImageOnlyHunk);
}

/** The diff without its image-only hunks, and how many changed lines those held. */
export function withoutImageHunks(patch: string[]): { kept: string[]; folded: number } {
  let folded = 0;
  const kept: string[] = [];
  for (const h of hunksOf(patch)) {
    if (isImageOnlyHunk(h)) folded += h.filter(changed).length;
    else kept.push(...h);
  }
  return { kept, folded };
}

/** One example of an image-only change, `old → new`, for the folded line. */
export function exampleChange(patch: string[]): string | undefined {
  const removed = patch.find((l) => l.startsWith('-') && isImageLine(l.slice(1)) && l.slice(1).trim());
  const added = patch.find((l) => l.startsWith('+') && isImageLine(l.slice(1)) && l.slice(1).trim());
  return removed && added ? `${removed.slice(1).trim()} → ${added.slice(1).trim()}` : undefined;
}
