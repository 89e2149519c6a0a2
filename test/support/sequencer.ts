/**
 * Runs the longest test files first, so the two workers of a two-core machine end together instead
 * of one of them starting a minute-long end-to-end file when everything else is done. Durations come
 * from `durations.json` (refresh: `UP_TEST_DURATIONS=test/support/durations.json npm test`), not from
 * vitest's cache, which a clean clone (CI) does not have. A file not in the table (a new one) is
 * taken for a slow one and starts early.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const UNKNOWN_SECONDS = 30;

function table(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = table();
    const root = this.ctx.config.root;
    const cost = (f: TestSpecification) => seconds[relative(root, f.moduleId)] ?? UNKNOWN_SECONDS;
    return [...files].sort((a, b) => cost(b) - cost(a) || a.moduleId.localeCompare(b.moduleId));
  }
}
