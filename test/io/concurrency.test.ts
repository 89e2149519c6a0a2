/**
 * The one concurrency limit (src/io/concurrency.ts): kubectl's processes, the pack registry's reads
 * and the fleet plan's reads of many clusters all go through it.
 */
import { describe, expect, it } from 'vitest';
import { eachAtMost, limiter } from '../../src/io/concurrency.js';

/** A task that runs until released, recording when it started and how many ran beside it. */
function gate() {
  const started: number[] = [];
  const releases = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const task = (i: number) => async () => {
    running++;
    most = Math.max(most, running);
    started.push(i);
    await new Promise<void>((resolve) => releases.set(i, resolve));
    running--;
    return i * 10;
  };
  const release = async (i: number) => {
    while (!releases.has(i)) await new Promise((r) => setImmediate(r));
    releases.get(i)!();
  };
  return { task, release, started, most: () => most };
}

describe('limiter', () => {
  it.each([1, 2, 3])('runs at most %i at once and starts the waiting ones in order', async (n) => {
    const g = gate();
    const limit = limiter(n);
    const all = Promise.all([0, 1, 2, 3, 4].map((i) => limit(g.task(i))));
    for (const i of [0, 1, 2, 3, 4]) await g.release(i);
    expect(await all).toEqual([0, 10, 20, 30, 40]);
    expect(g.most()).toBe(n);
    expect(g.started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = limiter(1);
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit(async () => 'next')).toBe('next');
  });
});

describe('eachAtMost', () => {
  it('gives the results in the items\' order, whatever order they end in', async () => {
    const g = gate();
    const all = eachAtMost([0, 1, 2, 3], 2, (i) => g.task(i)());
    for (const i of [1, 0, 3, 2]) await g.release(i);
    expect(await all).toEqual([0, 10, 20, 30]);
    expect(g.most()).toBe(2);
  });

  it('runs nothing for no items', async () => {
    expect(await eachAtMost([], 4, async () => 1)).toEqual([]);
  });
});
