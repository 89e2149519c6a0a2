/**
 * The `customize` step (spec 9.1.5, 9.2): compute what each hop's drafts will carry, let the
 * operator decide conflicts (keep the site's value, take the new default, or enter a value) and
 * which offered fixes go in, and stop before any draft when a rule would lose what the site had (or
 * a `required` rule is not met). A rule the site never met is said (amber) and blocks nothing; its
 * fix is offered and left out unless chosen (`--accept-fix RULE-ID` in plain mode). In plain mode
 * conflicts keep the site's value; every draft is still approved at its own gate.
 */
import { InputError, StepFailedError, StoppedError } from '../../errors.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { latestPlan } from '../contracts.js';
import { computeCustomizations } from './compute.js';
import { chooserText, conflictProposals, fixSettings } from './render-text.js';
import { PackSources } from './sources.js';
import { ruleVariableViews, withVariablesNote } from './rule-variables-source.js';
import type { CustomizeLive, CustomizeOutput, DecisionMap, FixChoices } from './types.js';
import { missingVariableSources } from './variable-sources.js';
import { customizeCard } from '../cards.js';

export function customizeSummary(out: CustomizeOutput): string {
  const packs = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs));
  // Counted as the review's pack rows count them: a conflict is a conflict, not also a carried setting.
  const carried = packs.reduce((n, p) => n + p.counts.carried + p.counts.candidate, 0);
  const rules = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules));
  const red = rules.filter((r) => r.status === 'fail').length;
  const grey = rules.filter((r) => r.status === 'notApplicable').length;
  const unchecked = rules.filter((r) => r.status === 'notOnSite' && r.variables?.some((v) => v.state === 'masked')).length;
  const amber = rules.filter((r) => r.status === 'notOnSite').length - unchecked;
  const fixes = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.fixes));
  const chosen = fixes.filter((f) => f.accepted).length;
  const rulesText = `rules ${rules.length - red - grey - amber - unchecked} green / ${red} red${amber ? ` / ${amber} not on this site before the upgrade` : ''}${unchecked ? ` / ${unchecked} not checked (sensitive profile variable)` : ''}${grey ? ` / ${grey} not applicable` : ''}`;
  const fixText = fixes.length ? `, ${fixes.length} fix(es) offered${chosen ? ` (${chosen} chosen)` : ', none chosen'}` : '';
  // Said on the review's first line: the rules did not see through any variable.
  const unserved = out.variablesUnserved ? '; profile variables: not served by this Palette, read as none' : '';
  return `${packs.length} pack version(s), ${carried} site setting(s) carried, ${out.conflicts} conflict(s), ${rulesText}${fixText}${unserved}`;
}

/** What the review says beyond the summary, one item each: amber rules, fixes, moved and removed keys, additions. */
export function reviewItems(out: CustomizeOutput): string[] {
  const items: string[] = [];
  for (const h of out.byHop) {
    for (const p of h.profiles) {
      for (const r of p.rules.filter((x) => x.status === 'notOnSite')) items.push(`hop ${h.index} WARN ${r.title}: ${r.message}`);
      for (const r of p.rules.filter((x) => x.status === 'fail')) items.push(`hop ${h.index} FAIL ${r.title}: ${r.message}`);
      for (const f of p.fixes) {
        const what = fixSettings(f, (v) => JSON.stringify(v));
        items.push(
          f.accepted
            ? `hop ${h.index} fix ${f.rule} (${f.pack}): ${what} ${f.items.length ? 'is in the draft' : 'is set with the apply'}, chosen by ${chooserText(f.chosenBy)}: ${f.effect}`
            : `hop ${h.index} fix ${f.rule} (${f.pack}) offered, left out: would set ${what}: ${f.effect}. --accept-fix ${f.rule} adds it`,
        );
      }
      for (const a of p.additions.filter((x) => x.source !== 'ruleFix')) items.push(`hop ${h.index} ${a.included ? 'added' : 'left out'} ${a.pack} \`${a.path}\`: ${a.what}${a.included ? ` (chosen by ${chooserText(a.chosenBy)})` : ''}`);
      for (const pack of p.packs) {
        for (const e of pack.entries) {
          if (e.movedFrom) items.push(`hop ${h.index} ${pack.name}: \`${e.path}\` moved from \`${e.movedFrom}\` (the site's ${JSON.stringify(e.deployed)})`);
          if (e.removed) items.push(`hop ${h.index} ${pack.name}: \`${e.path}\` ${e.decision === 'keepSite' ? 'kept by decision although' : 'dropped:'} removed in the new version (${e.removed})`);
        }
      }
    }
  }
  return items;
}

/** The variables without a source, in words: those a hop introduces, and the sensitive ones the profiles use (masked, not carried). */
function missingWords(plan: { profileVariables?: Array<{ name: string; state: string }> }, missing: Array<{ name: string; hop: number }>): string {
  const masked = new Set((plan.profileVariables ?? []).filter((v) => v.state === 'masked').map((v) => v.name));
  const list = (xs: typeof missing) => xs.map((m) => `${m.name} (hop ${m.hop})`).join(', ');
  const introduced = missing.filter((m) => !masked.has(m.name));
  const kept = missing.filter((m) => masked.has(m.name));
  return [
    ...(introduced.length ? [`The plan introduces the profile variable(s) ${list(introduced)}`] : []),
    ...(kept.length ? [`${introduced.length ? 'and the' : 'The'} cluster's profiles use the sensitive profile variable(s) ${list(kept)}, whose values Palette masks (they cannot be carried to the new version)`] : []),
  ].join('; ');
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const customizeStep = defineStepKind({
  ...customizeCard,
  async run(ctx) {
    const plan = latestPlan(ctx);
    if (!plan || plan.hops.length === 0) return skipped('no hops: nothing will be published, so nothing needs carrying');
    const site = ctx.site;
    if (!site) return skipped('no site parameters');
    const sources = new PackSources(ctx.effects.palette, site.valuesDir, ctx.signal, site.palette.registryUid);
    let decisions: DecisionMap = (ctx.step.notes.decisions as DecisionMap | undefined) ?? {};
    let fixes: FixChoices = (ctx.step.notes.fixes as FixChoices | undefined) ?? {};
    let result: CustomizeOutput;
    // Settings held by profile variables are judged on this cluster's values (read once per run of the step).
    const { views: variables, unserved } = await ruleVariableViews(ctx.effects.palette, site, plan.flavor, ctx.signal);
    for (let round = 1; ; round++) {
      ctx.progress({ headline: 'Comparing the deployed values with the new defaults…' } satisfies CustomizeLive);
      result = withVariablesNote(await computeCustomizations({ plan, site, rules: ctx.runbook.rules, settings: ctx.runbook.values, sources, decisions, notes: ctx.runbook.versionNotes, fixes, variables }), unserved);
      ctx.progress({ headline: customizeSummary(result), result } satisfies CustomizeLive);
      const offers = [...new Map(result.byHop.flatMap((h) => h.profiles.flatMap((p) => p.fixes)).map((f) => [f.rule, { id: f.rule, accepted: f.accepted }])).values()];
      const answer = await ctx.confirm({
        gate: 'customize',
        key: `${ctx.step.id}/review/${round}`,
        title: 'Review the customizations',
        lines: [
          customizeSummary(result),
          result.conflicts ? `${conflictProposals(result)}.` : 'No conflicts.',
          ...(offers.length ? ['A fix writes a setting the site did not have: it goes into the drafts only when chosen (--accept-fix RULE-ID).'] : []),
          ...(result.variablesUnserved ? [result.variablesUnserved] : []),
        ],
        items: reviewItems(result),
        options: [
          { choice: 'approve', label: 'Continue with these values', key: 'c' },
          { choice: 'skip', label: 'Apply my decisions and review again', key: 'a' },
          { choice: 'abort', label: 'Stop here (session saved)', key: 's' },
        ],
        safeChoice: 'approve',
        inline: true,
        informational: true,
        ...(offers.length ? { offers } : {}),
      });
      const data = answer.data as { decisions?: DecisionMap; fixes?: FixChoices; acceptFixes?: string[] } | undefined;
      const nextDecisions = data?.decisions ?? decisions;
      let nextFixes = data?.fixes ?? fixes;
      if (data?.acceptFixes?.length) {
        nextFixes = { ...nextFixes, ...Object.fromEntries(data.acceptFixes.map((id) => [id, { by: 'flag' as const, flag: `--accept-fix ${id}` }])) };
      }
      const changed = !sameJson(nextDecisions, decisions) || !sameJson(nextFixes, fixes);
      if (!sameJson(nextDecisions, decisions)) ctx.note('decisions', nextDecisions);
      if (!sameJson(nextFixes, fixes)) ctx.note('fixes', nextFixes);
      decisions = nextDecisions;
      fixes = nextFixes;
      if (answer.choice === 'abort') throw new StoppedError('Stopped at the customization review ("Stop here"): nothing was written; the decisions made so far are saved.', { next: 'Resume to review the customizations again.' }, 'stopped.review');
      if (answer.choice === 'approve' && !changed) break;
      // Decisions changed (or a review was asked for): compute again and show the result.
    }
    if (result.ruleFailures > 0) {
      const red = result.byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules.filter((r) => r.status === 'fail').map((r) => `hop ${h.index}: ${r.title} (${r.message})`)));
      return failed(
        new StepFailedError('customize.rules-red', `${red.length} customization rule(s) would not hold in the drafts: ${red.slice(0, 3).join('; ')}${red.length > 3 ? '; …' : ''}.`, {
          hint: 'Nothing was written. A rule fails when the draft would lose what the site had (decide the conflict differently: keep the site value), or when the runbook marks it `required` and the site does not meet it (fix the values, choose the offered fix, or change the runbook); then resume.',
        }),
        result,
      );
    }
    // Plain mode cannot ask: every variable a hop introduces needs its source now, before any write.
    const missing = ctx.dryRun ? [] : missingVariableSources(plan, ctx.effects.variables);
    if (missing.length) {
      return failed(
        new InputError('customize.variables-unset', `${missingWords(plan, missing)}, and nothing says where their values come from.`, {
          hint: `Nothing was written. Name each source: --variable ${missing[0]!.name}=env:VAR (or =file:PATH), or params variables: ${missing[0]!.name}: {env: VAR}; or run in the TUI, which asks at the draft gate. Never put the value itself on the command line.`,
        }),
        result,
      );
    }
    return succeeded(result, customizeSummary(result));
  },
});
