/** The rules of every hop as the review's status lines count them: red, amber (not on the site before), grey (not applicable). Pure. */
import type { RuleOutcome } from '../../steps/contracts.js';
import type { CustomizeOutput } from '../../steps/customize/types.js';

export interface ReviewRules {
  all: Array<RuleOutcome & { hop: number }>;
  red: Array<RuleOutcome & { hop: number }>;
  grey: Array<RuleOutcome & { hop: number }>;
  amber: Array<RuleOutcome & { hop: number }>;
  /** Amber rules once each (by id), for the warning line. */
  amberOnce: Array<RuleOutcome & { hop: number }>;
}

export function reviewRules(out: CustomizeOutput | undefined): ReviewRules {
  const all = (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.rules.map((r) => ({ ...r, hop: h.index }))));
  const amber = all.filter((r) => r.status === 'notOnSite');
  return {
    all,
    red: all.filter((r) => r.status === 'fail'),
    grey: all.filter((r) => r.status === 'notApplicable'),
    amber,
    amberOnce: [...new Map(amber.map((r) => [r.id, r])).values()],
  };
}

/** "RULES PASS 24/24 customization rules hold" and what it says beyond. */
export function rulesLine(r: ReviewRules): { word: string; text: string } {
  const { all, red, grey, amber } = r;
  const text = `${all.length - red.length - grey.length - amber.length}/${all.length - grey.length} customization rules hold${amber.length ? `, ${amber.length} not on this site before the upgrade` : ''}${red.length ? `: ${red.map((x) => `hop ${x.hop} ${x.title}`).join('; ')}` : ''}`;
  return { word: red.length ? 'RULES FAIL' : 'RULES PASS', text };
}
