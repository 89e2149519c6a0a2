/**
 * Most of a pack upgrade's values diff is image tags moving with the version. A reader of the
 * ticket wants the other changes; these helpers tell the changes that only move a version (a tag,
 * a version in an image or repository path, a digest) from the rest, so the report can fold them
 * to one line per pack. A registry or repository that changes otherwise (a lost mirror) stays. Pure.
 */

/** A key naming an image, a tag, a version or a digest (`image:`, `imageTag:`, `"tag":`, `- version:`). */
const imageKey = /^\s*(?:-\s+)?["']?[\w.-]*(?:image|tag|version|digest)[\w.-]*["']?\s*:/i;
/** A bare image reference (a list item or a scalar): `registry/path/name:tag` or `...@sha256:...`. */
const imageRef = /^\s*(?:-\s+)?["']?[\w.-]+(?::\d+)?(?:\/[\w.-]+)+(?::[\w.-]+|@sha256:[a-f0-9]{16,})["']?\s*$/i;

/** Whether a changed line (without its `+`/`-`) only moves an image or a tag. */
export function isImageLine(content: string): boolean {
  return content.trim() === '' || imageKey.test(content) || imageRef.test(content);
}

/** Versions, digests and an image's trailing `:tag` replaced by one mark: lines equal after this differ only in them. */
const versionless = (line: string) =>
  line
    .replace(/sha256:[a-f0-9]{16,}/gi, '#')
    .replace(/v?\d+(\.\d+)+([-+][\w.]+)?/g, '#')
    .replace(/(\/[\w.-]+):[\w][\w.-]*(["']?\s*)$/, '$1:#$2');

/** A key whose value is a version by nature (`tag:`, `imageTag:`, `version:`, `digest:`), not a place (image, repository, registry). */
const versionKey = /^\s*(?:-\s+)?["']?([\w.-]*)["']?\s*:/;
function sameVersionKey(a: string, b: string): boolean {
  const ka = versionKey.exec(a)?.[1];
  return ka !== undefined && ka === versionKey.exec(b)?.[1] && /tag|version|digest/i.test(ka) && !/image$|repo|registry/i.test(ka);
}

/**
 * A removed line and the added line that replaced it differ only in versions (a tag, a version in an
 * image path or a repository path); a line without a counterpart must itself name an image or a tag.
 */
function onlyVersionsMoved(removed: string[], added: string[]): boolean {
  const paired = Math.min(removed.length, added.length);
  for (let i = 0; i < paired; i++) {
    const [r, a] = [removed[i]!, added[i]!];
    if (versionless(r) !== versionless(a) && !sameVersionKey(r, a)) return false;
  }
  return [...removed.slice(paired), ...added.slice(paired)].every(isImageLine);
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
  if (!hunk.some(changed)) return false;
  // Each run of removed lines and the added lines after it is one change, checked pair by pair.
  let removed: string[] = [];
  let added: string[] = [];
  const settle = () => {
    const ok = onlyVersionsMoved(removed, added);
    removed = [];
    added = [];
    return ok;
  };
  for (const line of hunk) {
    if (line.startsWith('-') && !line.startsWith('---')) {
      if (added.length && !settle()) return false;
      removed.push(line.slice(1));
    } else if (line.startsWith('+') && !line.startsWith('+++')) added.push(line.slice(1));
    else if ((removed.length || added.length) && !settle()) return false;
  }
  return settle();
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
