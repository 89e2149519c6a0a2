/**
 * The `customize` step (spec 9.1.5, 9.2): compute what each hop's drafts will carry, let the
 * operator decide conflicts (keep the site's value, take the new default, or enter a value), and
 * stop before any draft when a customization rule does not hold. In plain mode conflicts keep the
 * site's value; every draft is still approved at its own gate.
 */
import { z } from 'zod';
import { InterruptedError, StepFailedError } from '../../errors.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { latestPlan } from '../contracts.js';
import { computeCustomizations } from './compute.js';
import { PackSources } from './sources.js';
import type { CustomizeLive, CustomizeOutput, DecisionMap } from './types.js';

export function customizeSummary(out: CustomizeOutput): string {
  const packs = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs));
  const carried = packs.reduce((n, p) => n + p.carried, 0);
  const rules = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules));
  const red = rules.filter((r) => r.status === 'fail').length;
  const grey = rules.filter((r) => r.status === 'notApplicable').length;
  return `${packs.length} pack version(s), ${carried} site setting(s) carried, ${out.conflicts} conflict(s), rules ${rules.length - red - grey} green / ${red} red${grey ? ` / ${grey} not applicable` : ''}`;
}

export const customizeStep = defineStepKind({
  kind: 'customize',
  title: 'Carry customizations forward',
  description: "Compares deployed values with the new reference defaults and carries the site's settings into each hop's drafts",
  params: z.strictObject({}),
  async run(ctx) {
    const plan = latestPlan(ctx);
    if (!plan || plan.hops.length === 0) return skipped('no hops: nothing will be published, so nothing needs carrying');
    const site = ctx.site;
    if (!site) return skipped('no site parameters');
    const sources = new PackSources(ctx.effects.palette, site.valuesDir, ctx.signal, site.palette.registryUid);
    let decisions: DecisionMap = (ctx.step.notes.decisions as DecisionMap | undefined) ?? {};
    let result: CustomizeOutput;
    for (let round = 1; ; round++) {
      ctx.progress({ headline: 'Comparing the deployed values with the new defaults…' } satisfies CustomizeLive);
      result = await computeCustomizations({ plan, site, rules: ctx.runbook.rules, settings: ctx.runbook.values, sources, decisions });
      ctx.progress({ headline: customizeSummary(result), result } satisfies CustomizeLive);
      const answer = await ctx.confirm({
        gate: 'customize',
        key: `${ctx.step.id}/review/${round}`,
        title: 'Review the customizations',
        lines: [customizeSummary(result), result.conflicts ? 'Conflicts keep the site value unless you decide otherwise.' : 'No conflicts.'],
        options: [
          { choice: 'approve', label: 'Continue with these values', key: 'c' },
          { choice: 'skip', label: 'Apply my decisions and review again', key: 'a' },
          { choice: 'abort', label: 'Stop here (session saved)', key: 's' },
        ],
        safeChoice: 'approve',
        inline: true,
        informational: true,
      });
      const given = (answer.data as { decisions?: DecisionMap } | undefined)?.decisions;
      const changed = given !== undefined && JSON.stringify(given) !== JSON.stringify(decisions);
      if (given) {
        decisions = given;
        ctx.note('decisions', decisions);
      }
      if (answer.choice === 'abort') throw new InterruptedError('Stopped at the customization review.', 'Resume to review the customizations again.');
      if (answer.choice === 'approve' && !changed) break;
      // Decisions changed (or a review was asked for): compute again and show the result.
    }
    if (result.ruleFailures > 0) {
      const red = result.byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules.filter((r) => r.status === 'fail').map((r) => `hop ${h.index}: ${r.title} (${r.message})`)));
      return failed(
        new StepFailedError('customize.rules-red', `${red.length} customization rule(s) would not hold in the drafts: ${red.slice(0, 3).join('; ')}${red.length > 3 ? '; …' : ''}.`, {
          hint: 'Nothing was written. Decide the conflicts differently (keep the site value), or fix the values or params the rule names, then resume.',
        }),
        result,
      );
    }
    return succeeded(result, customizeSummary(result));
  },
});
