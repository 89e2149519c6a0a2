/**
 * The `verify` step: the checks of spec 9.3 as panels. Reads once per round; in the TUI the
 * operator may re-run them; green (or amber) succeeds, red fails the run with the evidence kept.
 * In a rehearsal it reports today's health and never fails the run.
 */
import { StepFailedError } from '../../errors.js';
import { gatherVerifyData } from '../../kube/checks/gather.js';
import { countLine, overallStatus, runChecks } from '../../domain/checks/run.js';
import type { CheckResult } from '../../domain/checks/types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import type { RecoverLive } from '../migrations/recover-types.js';
import { deployedProfileViews } from './profiles-source.js';
import { sessionExpectations } from './expectations.js';
import { outstandingFromRecovery, reofferRestarts, type ReofferOutcome } from '../migrations/reoffer.js';
import { verifyCard } from '../cards.js';

export interface VerifyOutput {
  results: CheckResult[];
  overall: 'pass' | 'fail' | 'warn' | 'unknown';
  rounds: number;
  rehearsal: boolean;
  /** Restarts recovery had left outstanding, offered again here (when they were). */
  reoffered?: ReofferOutcome;
}

export interface VerifyLive {
  headline: string;
  running: boolean;
  results: CheckResult[];
  round: number;
  /** The outstanding restarts being offered again. */
  restarts?: RecoverLive;
  /** VMs left on the old launcher that can be offered again (key o). */
  outstanding?: string[];
}

/** The review gate's answer that asks for the outstanding restarts again. */
export const OFFER_RESTARTS = 'offer-restarts';

/** VMs on an outdated launcher in what a round read (`ns/name`); undefined when the VMs were not read. */
export function outdatedNow(data: VerifyData): Set<string> | undefined {
  if (!data.vmis?.ok) return undefined;
  return new Set(data.vmis.value.filter((v) => OUTDATED_LABEL in (v.metadata.labels ?? {})).map((v) => `${v.metadata.namespace ?? ''}/${v.metadata.name}`));
}

function merge(a: ReofferOutcome | undefined, b: ReofferOutcome): ReofferOutcome {
  if (!a) return b;
  const done = new Set([...a.restarted, ...b.restarted]);
  const skipped = new Set([...a.skipped, ...b.skipped].filter((v) => !done.has(v)));
  return { restarted: [...done], skipped: [...skipped], outstanding: [...new Set([...a.outstanding, ...b.outstanding])].filter((v) => !done.has(v) && !skipped.has(v)) };
}

export const verifyStep = defineStepKind({
  ...verifyCard,
  async run(ctx) {
    const wanted = ctx.params.checks;
    const specs = ctx.runbook.checks.filter((c) => !wanted || wanted.includes(c.id));
    if (specs.length === 0) return skipped('the runbook defines no checks');
    const site = ctx.site;
    const reader = ctx.effects.kube.reader(ctx.signal);
    const profiles = async () => (site ? deployedProfileViews(await ctx.effects.palette.getClusterProfiles(site.cluster.uid, { signal: ctx.signal })) : []);
    let results: CheckResult[] = [];
    let round = 0;
    let reoffered: ReofferOutcome | undefined;
    let restarts: RecoverLive | undefined;
    const offer = async (tag: string) => {
      const vms = outstandingFromRecovery(ctx);
      if (vms.length === 0 || ctx.dryRun) return;
      const got = await reofferRestarts(ctx, vms, `${ctx.step.attempts}.${tag}`, (live) => {
        restarts = live;
        ctx.progress({ headline: `Offering ${vms.length} outstanding VM restart(s) again…`, running: true, results, round, restarts } satisfies VerifyLive);
      });
      reoffered = merge(reoffered, got);
    };
    // A resumed session verifies again: what recovery left outstanding is offered first.
    if (ctx.step.attempts > 1) await offer('resume');
    for (;;) {
      round++;
      ctx.progress({ headline: `Running ${specs.length} checks (round ${round})…`, running: true, results, round, ...(restarts ? { restarts } : {}) } satisfies VerifyLive);
      const data = await gatherVerifyData(specs, { reader, profiles });
      results = runChecks(specs, data, sessionExpectations(ctx));
      // Offered from what this round read: a VM already on the new launcher is not offered a restart.
      const stillOld = outdatedNow(data);
      const outstanding = ctx.dryRun ? [] : outstandingFromRecovery(ctx).filter((vm) => !reoffered?.restarted.includes(vm) && (!stillOld || stillOld.has(vm)));
      const headline = `${countLine(results)}${ctx.dryRun ? ' (rehearsal: today’s health, not the target versions)' : ''}`;
      ctx.progress({ headline, running: false, results, round, ...(restarts ? { restarts } : {}), ...(outstanding.length ? { outstanding } : {}) } satisfies VerifyLive);
      const decision = await ctx.confirm({
        gate: 'verify',
        key: `${ctx.step.id}/review/${ctx.step.attempts}.${round}`,
        title: `Verification: ${countLine(results)}`,
        lines: ['Look at the panels; re-run once something was fixed, or finish with these results.'],
        options: [
          { choice: 'skip', label: 'Finish with these results', key: 'f' },
          { choice: 'approve', label: 'Re-run the checks', key: 'r' },
          ...(outstanding.length ? [{ choice: 'approve' as const, label: `Offer the ${outstanding.length} outstanding VM restart(s) again`, key: 'o' }] : []),
        ],
        safeChoice: 'skip',
        inline: true,
        informational: true,
      });
      if (decision.choice !== 'approve') break;
      if ((decision.data as { action?: string } | undefined)?.action === OFFER_RESTARTS) await offer(String(round));
    }
    const overall = overallStatus(results);
    const output: VerifyOutput = { results, overall, rounds: round, rehearsal: ctx.dryRun, ...(reoffered ? { reoffered } : {}) };
    const red = results.filter((r) => r.status === 'fail' || r.status === 'unknown');
    if (red.length === 0 || ctx.dryRun) return succeeded(output, countLine(results));
    const left = outstandingFromRecovery(ctx).filter((vm) => !reoffered?.restarted.includes(vm));
    const restartHint = left.length
      ? `${left.length} VM(s) are still on the old launcher (${left.slice(0, 4).join(', ')}${left.length > 4 ? ', …' : ''}). Resume the session: verification offers each restart again (without a terminal, approve with --approve-restart NS/NAME, decline with --skip-restart NS/NAME).`
      : undefined;
    return failed(
      new StepFailedError('verify.red', `${red.length} check(s) not green: ${red.map((r) => r.title).join(', ')}.`, {
        hint: restartHint ?? red[0]?.remediation ?? 'Look at the evidence in the panels; fix, then resume to verify again.',
      }),
      output,
    );
  },
});
