/**
 * A rule judges the change, not the site: it is checked on what the site runs before the hop and on
 * the draft, and only a loss blocks. Spec 9.2 lists the customizations that must survive an upgrade;
 * a site that never had one cannot lose it, and the tool must not add it on its own (that would be
 * a change nobody chose: moving storage daemons, or changing the class of every new VM disk).
 *
 *   before  draft   verdict                     status
 *   holds   holds   held                        pass
 *   fails   holds   brought by the new defaults pass (or: by the fix someone chose)
 *   holds   fails   regression                  fail (blocks before any write)
 *   fails   fails   not on this site before     notOnSite (amber, never blocks)
 *                   the upgrade                 ... unless the rule is `required`: fail
 *
 * Pure, tested with that table.
 */
import type { RuleStatus } from './rules.js';

export type RuleVerdict = 'held' | 'broughtByDefaults' | 'broughtByFix' | 'regression' | 'notOnSite' | 'requiredMissing';
export type JudgedStatus = 'pass' | 'fail' | 'notOnSite';

export interface Judgment {
  status: JudgedStatus;
  verdict: RuleVerdict;
  /** The verdict in words, for screens, the diff and the report. */
  words: string;
}

export const verdictWords: Record<RuleVerdict, string> = {
  held: 'held before and holds in the draft',
  broughtByDefaults: 'not on this site before the upgrade; the new defaults bring it',
  broughtByFix: 'not on this site before the upgrade; added by the fix that was chosen',
  regression: 'held before the upgrade and would be lost by the draft',
  notOnSite: 'not on this site before the upgrade (left as it is)',
  requiredMissing: 'not on this site before the upgrade, and the runbook requires it',
};

export function judgeRule(before: RuleStatus, after: RuleStatus, opts: { required?: boolean | undefined; fixApplied?: boolean | undefined } = {}): Judgment {
  const verdict: RuleVerdict =
    after === 'pass'
      ? before === 'pass'
        ? 'held'
        : opts.fixApplied
          ? 'broughtByFix'
          : 'broughtByDefaults'
      : before === 'pass'
        ? 'regression'
        : opts.required
          ? 'requiredMissing'
          : 'notOnSite';
  const status: JudgedStatus = verdict === 'regression' || verdict === 'requiredMissing' ? 'fail' : verdict === 'notOnSite' ? 'notOnSite' : 'pass';
  return { status, verdict, words: verdictWords[verdict] };
}
