/** A cluster's predicted duration for its window: its own plan's p90, else the longest of the fleet's plans. */
import { describe, expect, it } from 'vitest';
import { predict } from '../../src/fleet/predicted.js';

describe('predict', () => {
  it.each([
    ['its own plan first', 600_000, [{ name: 'b', ms: 900_000 }], { ms: 600_000, basis: "the p90 of a's planned hops" }],
    ['else the longest of the fleet', undefined, [{ name: 'b', ms: 300_000 }, { name: 'c', ms: 900_000 }], { ms: 900_000, basis: "the p90 of c's planned hops (the same profiles; a has not planned yet)" }],
    ['else nothing', undefined, [], undefined],
  ] as const)('%s', (_name, own, others, want) => {
    expect(predict('a', own, others)).toEqual(want);
  });
});
