/** The first few names of a list, comma-separated, with an ellipsis when there are more: for one line of text. */
export const firstFew = (names: readonly string[], n = 5): string => `${names.slice(0, n).join(', ')}${names.length > n ? ', …' : ''}`;
