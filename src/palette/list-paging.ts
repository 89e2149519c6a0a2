/**
 * Following a paged list of the profile API: pages are read one after another with the `continue`
 * token of the one before, until the server gives none. The page count is bounded, so a server that
 * always answers with a token cannot keep a run reading forever.
 */
/** Far beyond any real project: only a guard against a server that never ends its list. */
export const MAX_PAGES = 1000;

/** Every item of every page; `page(next)` reads the page after the token `next` ('' for the first). */
export async function listOf<T>(page: (next: string) => Promise<{ items: T[]; next: string }>, maxPages = MAX_PAGES): Promise<T[]> {
  const out: T[] = [];
  let next = '';
  for (let n = 0; n < maxPages; n++) {
    const got = await page(next);
    out.push(...got.items);
    if (!got.next) break;
    next = got.next;
  }
  return out;
}
