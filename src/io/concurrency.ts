/**
 * The one concurrency limit of the product: at most `n` tasks at once, the rest wait in order
 * (kubectl's processes, the pack registry's reads, the fleet plan's reads of many clusters).
 */

/** A small concurrency limit: at most `n` tasks at once, the rest wait in order. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  const next = () => {
    active--;
    queue.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}

/** `run` over every item, at most `n` at once, started in order; the results in the items' order. */
export function eachAtMost<T, R>(items: readonly T[], n: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const limit = limiter(n);
  return Promise.all(items.map((item) => limit(() => run(item))));
}
