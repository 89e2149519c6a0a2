/**
 * The whole bad-input corpus (`npm run test:faults`): every case of support/bad-input-cases.ts.
 * A sample of one case per kind runs in `npm test` (bad-input.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { CASES, corpusSuite } from './support/bad-input-cases.js';

describe('the corpus', () => {
  it('has at least 90 distinct cases, each at exit 2 or 4', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(90);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    for (const c of CASES) expect([2, 4]).toContain(c.exit);
  });
});

corpusSuite('bad input, all of it: exit 2 or 4, what and where, no stack trace, no key, no control characters, no mutation', CASES);
