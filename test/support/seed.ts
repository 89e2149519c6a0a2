/**
 * Seeds for random tests. Each run draws a fresh seed (so the suite keeps exploring), unless
 * `UP_SEED` gives one; a failure names the seed and the command that replays it, e.g.
 * `UP_SEED=123456 npx vitest run test/values/merge-random.test.ts`.
 */
import { randomInt } from 'node:crypto';
import { rng } from '../../src/lab/faults.js';

/** Small, fast and seeded (mulberry32, the lab's own): the same seed draws the same numbers. */
export const seeded = (seed: number): (() => number) => rng(seed);

/** `UP_SEED` when set (to replay a failure), else a fresh seed. */
export function testSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.UP_SEED;
  if (given === undefined || given === '') return randomInt(1, 2 ** 31 - 1);
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`UP_SEED must be a whole number (it replays a random test), not ${JSON.stringify(given)}`);
  return n;
}

/** How to replay a run of `file` with `seed`. */
export const replay = (seed: number, file: string): string => `seed ${seed} (replay: UP_SEED=${seed} npx vitest run ${file})`;

/**
 * Runs a random test body with its seed: a failure's message starts with the seed and how to
 * replay it (vitest prints it with the failure), whatever failed inside.
 */
export async function withSeed<T>(file: string, body: (seed: number) => T | Promise<T>, seed = testSeed()): Promise<T> {
  try {
    return await body(seed);
  } catch (err) {
    if (err instanceof Error) {
      err.message = `${replay(seed, file)}: ${err.message}`;
      throw err;
    }
    throw new Error(`${replay(seed, file)}: ${String(err)}`);
  }
}
