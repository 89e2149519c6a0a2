/**
 * The `verify` step: the checks of spec 9.3 as panels. Reads once per round; in the TUI the
 * operator may re-run them; green (or amber) succeeds, red fails the run with the evidence kept.
 * In a rehearsal it reports today's health and never fails the run.
 */
import { z } from 'zod';
import { StepFailedError } from '../../errors.js';
import { gatherVerifyData } from '../../kube/checks/gather.js';
import { overallStatus, runChecks } from '../../kube/checks/run.js';
import type { CheckResult } from '../../kube/checks/types.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { deployedProfileViews } from './profiles-source.js';
import { sessionExpectations } from './expectations.js';

export interface VerifyOutput {
  results: CheckResult[];
  overall: 'pass' | 'fail' | 'warn' | 'unknown';
  rounds: number;
  rehearsal: boolean;
}

export interface VerifyLive {
  headline: string;
  running: boolean;
  results: CheckResult[];
  round: number;
}

export const countLine = (results: CheckResult[]): string => {
  const n = (s: string) => results.filter((r) => r.status === s).length;
  return `${n('pass')} green, ${n('fail')} red, ${n('warn')} amber, ${n('unknown')} unknown`;
};

export const verifyStep = defineStepKind({
  kind: 'verify',
  title: 'Verify the cluster',
  description: 'Post-upgrade checks of spec 9.3 as green/red panels',
  params: z.strictObject({
    /** Check ids to run (default: every check of the runbook). */
    checks: z.array(z.string()).optional(),
  }),
  async run(ctx) {
    const wanted = ctx.params.checks;
    const specs = ctx.runbook.checks.filter((c) => !wanted || wanted.includes(c.id));
    if (specs.length === 0) return skipped('the runbook defines no checks');
    const site = ctx.site;
    const exp = sessionExpectations(ctx);
    const reader = ctx.effects.kube.reader(ctx.signal);
    const profiles = async () => (site ? deployedProfileViews(await ctx.effects.palette.getClusterProfiles(site.cluster.uid, { signal: ctx.signal })) : []);
    let results: CheckResult[] = [];
    let round = 0;
    for (;;) {
      round++;
      ctx.progress({ headline: `Running ${specs.length} checks (round ${round})…`, running: true, results, round } satisfies VerifyLive);
      const data = await gatherVerifyData(specs, { reader, profiles });
      results = runChecks(specs, data, exp);
      const headline = `${countLine(results)}${ctx.dryRun ? ' (rehearsal: today’s health, not the target versions)' : ''}`;
      ctx.progress({ headline, running: false, results, round } satisfies VerifyLive);
      const decision = await ctx.confirm({
        gate: 'verify',
        key: `${ctx.step.id}/review/${round}`,
        title: `Verification: ${countLine(results)}`,
        lines: ['Look at the panels; re-run once something was fixed, or finish with these results.'],
        options: [
          { choice: 'skip', label: 'Finish with these results', key: 'f' },
          { choice: 'approve', label: 'Re-run the checks', key: 'r' },
        ],
        safeChoice: 'skip',
        inline: true,
        informational: true,
      });
      if (decision.choice !== 'approve') break;
    }
    const overall = overallStatus(results);
    const output: VerifyOutput = { results, overall, rounds: round, rehearsal: ctx.dryRun };
    const red = results.filter((r) => r.status === 'fail' || r.status === 'unknown');
    if (red.length === 0 || ctx.dryRun) return succeeded(output, countLine(results));
    return failed(
      new StepFailedError('verify.red', `${red.length} check(s) not green: ${red.map((r) => r.title).join(', ')}.`, {
        hint: red[0]?.remediation ?? 'Look at the evidence in the panels; fix, then resume to verify again.',
      }),
      output,
    );
  },
});
