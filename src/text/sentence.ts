/**
 * Text that ends a sentence: a full stop is added unless it already ends with one, or with `?`
 * or `!` (a gate's title is often a question: `upgrade it anyway?`, never `anyway?.`). Pure.
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.?!…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
