/**
 * Fitting names into columns. A name cut at its end loses what tells two apart
 * (`vmo-worker-001…`, `1.1…`), so names are shortened in the middle, keeping both ends:
 * `vmo-prod-…-east`, `charts.kubevirt…FeatureGates`. One helper for every screen.
 */

/** `text` in at most `width` characters, its middle replaced by `…` when it is longer. */
export function shortenMiddle(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  const keep = width - 1;
  // The end says more than the start for most names (a version, a node number, a key's last part).
  const head = Math.floor(keep / 2);
  const tail = keep - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** `text` in exactly `width` characters: shortened in the middle, or padded at its end. */
export function fitMiddle(text: string, width: number): string {
  const s = shortenMiddle(text, width);
  return s + ' '.repeat(Math.max(0, width - [...s].length));
}
