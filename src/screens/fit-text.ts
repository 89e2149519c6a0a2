/**
 * Fitting names into columns. A name cut at its end loses what tells two apart
 * (`vmo-worker-001…`, `1.1…`), so names are shortened in the middle, keeping both ends:
 * `vmo-prod-…-east`, `charts.kubevirt…FeatureGates`. One helper for every screen.
 */

import { shortenMiddle } from '../text/shorten-middle.js';

export { shortenMiddle };

/** `text` in exactly `width` characters: shortened in the middle, or padded at its end. */
export function fitMiddle(text: string, width: number): string {
  const s = shortenMiddle(text, width);
  return s + ' '.repeat(Math.max(0, width - [...s].length));
}
