/** `diff` and the review gate say what each conflict will become, as the review proposes it. */
import { describe, expect, it } from 'vitest';
import { conflictProposals } from '../../../src/steps/customize/render-text.js';
import type { CustomizeOutput } from '../../../src/steps/customize/types.js';

const withConflicts = (entries: Array<{ decision?: string; removed?: boolean }>): CustomizeOutput =>
  ({ byHop: [{ profiles: [{ packs: [{ entries: entries.map((e, i) => ({ label: 'conflict', path: `a.b${i}`, ...e })) }] }] }], conflicts: entries.length, ruleFailures: 0, notOnSite: 0 }) as unknown as CustomizeOutput;

describe('conflictProposals', () => {
  it.each([
    ['none', [], 'no conflicts'],
    ['all kept', [{ decision: 'keepSite' }, { decision: 'keepSite' }], '2 conflict(s): 2 keep the site value, unless decided otherwise in the TUI'],
    ['merged lists are said as merged, not kept', [{ decision: 'merged' }, { decision: 'merged' }, { decision: 'merged' }], "3 conflict(s): 3 merge both sides' items, unless decided otherwise in the TUI"],
    ['a mix, with a key the new version removed', [{ decision: 'keepSite' }, { decision: 'merged' }, { decision: 'keepSite', removed: true }], "3 conflict(s): 1 keeps the site value, 1 merges both sides' items, 1 is dropped (removed in the new version), unless decided otherwise in the TUI"],
  ])('%s', (_name, entries, text) => {
    expect(conflictProposals(withConflicts(entries))).toBe(text);
  });
});
