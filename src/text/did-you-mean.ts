/**
 * "Did you mean ...?" for a word the tool does not know (a flag, a command, a key of a params file,
 * runbook or fleet file, a scenario, a gate): the known word closest to it, when one is close
 * enough to be the likely intent. One helper for all of them. Pure.
 */

/**
 * Edits between two words: insertions, deletions, substitutions, and two neighbours swapped
 * counted as one (`plna` is one edit from `plan`): the optimal string alignment distance.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows: the one before last (for swaps), the last, the current.
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = last;
    last = row;
  }
  return last[b.length]!;
}

/**
 * How many edits still read as a slip of the keyboard: one for a short word, about one in four
 * letters for a longer one (`clusterColection`, `kubeconfg`), never so many that any short word
 * matches anything.
 */
export function closeEnough(word: string): number {
  return Math.max(1, Math.min(3, Math.floor(word.length / 4)));
}

/**
 * The known word closest to `word` (case aside), if it is close enough; the earlier of two equally
 * close ones. Undefined when `word` is itself known or nothing is close.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const c = candidate.toLowerCase();
    if (c === w) return candidate === word ? undefined : candidate;
    const distance = editDistance(w, c);
    if (distance <= closeEnough(w) && (!best || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

/** ` Did you mean X?` (with a leading space, to append to a message), or `''`. `show` formats the word (`--params`). */
export function didYouMean(word: string, known: readonly string[], show: (w: string) => string = (w) => w): string {
  const hit = closest(word, known);
  return hit === undefined ? '' : ` Did you mean ${show(hit)}?`;
}
