/** Every rule of a profile in a hop, on the change: before the hop against the draft (or against what stays). */
import { withValues } from '../../values/rule-variables.js';
import type { RuleOutcome } from '../contracts.js';
import type { ProfileRun } from './compute-input.js';
import type { FixesResult } from './fix-offers.js';
import { judged, notApplicable, type Bound } from './rule-outcomes.js';

export async function profileRules(run: ProfileRun, bound: readonly Bound[], fixes: FixesResult): Promise<RuleOutcome[]> {
  const { planned, changes } = run;
  const view = run.input.variables?.[planned.role];
  const rules: RuleOutcome[] = [];
  for (const { rule, binding } of bound) {
    if (!binding.applies) {
      rules.push(notApplicable(rule, binding));
      continue;
    }
    const pack = binding.rule.pack;
    const after = run.current.get(`${planned.role}/${pack}`) ?? (await run.deployedState(pack));
    const changed = run.packs.some((p) => p.name === pack);
    const where = `${pack}${changed ? ' (draft)' : changes ? ' (unchanged)' : ` (the ${planned.role === 'addon' ? 'add-on' : 'infrastructure'} profile is unchanged in this hop)`}`;
    rules.push(
      judged(binding.rule, await run.beforeOf(pack), after, where, {
        fixApplied: fixes.fixed.has(rule.id),
        offered: fixes.fixes.some((f) => f.rule === rule.id),
        note: binding.note,
        view,
        viewAfter: withValues(view, fixes.variableFixes),
      }),
    );
  }
  return rules;
}
