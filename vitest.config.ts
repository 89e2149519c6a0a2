import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/** Files that replace a module for their own run (vi.mock): they need a module registry of their own. */
const mocking = ['test/screens/migrations/recover-gate.test.tsx', 'test/screens/migrations/migrations-screen.test.tsx'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Limits for a hang, not for speed (speed goals live in `npm run bench`): on two cores shared at a
    // load of 25-30, a test that takes 2 s on a quiet machine took over 30 s, and a lab's start over 60 s.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores here: integration tests start servers and kubectl processes; keep parallelism modest.
    maxWorkers: 2,
    env: { NO_COLOR: '1', CI: '' },
    // The longest files first (test/support/durations.json), so both workers end together.
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/support/slowest-reporter.ts'],
    projects: [
      // A worker keeps the modules it loaded from one file to the next (each file still gets fresh
      // state from its own setup): loading the product's modules anew for each of 230 files took a
      // third of the suite's time. Every file cleans up what it starts (labs, servers, processes).
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: mocking, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: mocking } },
    ],
  },
});
