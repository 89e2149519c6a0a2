/**
 * Waiting for states rather than times: a predicate that becomes true (a journal record, an audit
 * entry, a request the server saw), a promise that is still pending, a promise that must settle.
 * The time limits here only turn a hang into a clear failure; they are generous on purpose (a busy
 * machine is slow, not wrong), and no assertion depends on how fast anything was.
 */

/** Resolves with the predicate's first truthy value; polls, and fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, predicate: () => T | undefined | false | null, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = predicate();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Whether `p` is still pending once everything already queued has run (its settling, if it was
 * due, would have run first): for "it is still waiting" after the state it waits on was seen.
 */
export async function isPending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const settled = p.then(
    () => 'settled',
    () => 'settled',
  );
  const r = await Promise.race([settled, new Promise((resolve) => setImmediate(() => resolve(marker)))]);
  return r === marker;
}

/** `p`, or a failure naming `what` when it has not settled within `ms` (a "does not hang" bound of many seconds). */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}
