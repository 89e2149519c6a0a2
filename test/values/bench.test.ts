import { describe, expect, it } from 'vitest';
import { runValuesBenchmark } from '../../bench/values-bench.js';

describe('values benchmark', () => {
  it('diffs and merges packs built from the Cilium values (a small run; `npm run bench` runs 50)', async () => {
    const result = await runValuesBenchmark({ packs: 2, runs: 1 });
    expect(result).toMatchObject({ packs: 2, linesPerPack: 2996 });
    expect(result.runs).toHaveLength(1);
    expect(result.medianMs).toBeGreaterThan(0);
    expect(result.phaseMedianMs.parse).toBeGreaterThan(0);
  });
});
