/** A rule judges the change: before the hop against the draft (values/rule-judgment.ts), as a table. */
import { describe, expect, it } from 'vitest';
import { judgeRule, type JudgedStatus, type RuleVerdict } from '../../src/values/rule-judgment.js';
import type { RuleStatus } from '../../src/values/rules.js';

const cases: Array<[string, RuleStatus, RuleStatus, { required?: boolean; fixApplied?: boolean }, JudgedStatus, RuleVerdict]> = [
  ['held and holds: green', 'pass', 'pass', {}, 'pass', 'held'],
  ['held and lost by the draft: red', 'pass', 'fail', {}, 'fail', 'regression'],
  ['lost is red even when required', 'pass', 'fail', { required: true }, 'fail', 'regression'],
  ['never had it, still does not: amber, never blocks', 'fail', 'fail', {}, 'notOnSite', 'notOnSite'],
  ['never had it, and the runbook requires it: red', 'fail', 'fail', { required: true }, 'fail', 'requiredMissing'],
  ['never had it, the new defaults bring it: green, said so', 'fail', 'pass', {}, 'pass', 'broughtByDefaults'],
  ['never had it, a chosen fix brings it: green, said so', 'fail', 'pass', { fixApplied: true }, 'pass', 'broughtByFix'],
  ['a fix on a rule that held changes nothing in the verdict', 'pass', 'pass', { fixApplied: true }, 'pass', 'held'],
];

describe('judging a rule on the change', () => {
  it.each(cases)('%s', (_name, before, after, opts, status, verdict) => {
    const j = judgeRule(before, after, opts);
    expect({ status: j.status, verdict: j.verdict }).toEqual({ status, verdict });
  });

  it('says the amber verdict in the words the screens and the report use', () => {
    expect(judgeRule('fail', 'fail').words).toBe('not on this site before the upgrade (left as it is)');
    expect(judgeRule('fail', 'pass').words).toBe('not on this site before the upgrade; the new defaults bring it');
  });
});
