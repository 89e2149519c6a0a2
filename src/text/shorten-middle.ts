/** Names shortened in the middle, keeping both ends (`vmo-prod-…-east`): the screens' and the report's text bars' one helper. */

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
