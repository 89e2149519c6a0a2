/**
 * The `diagnose` step (spec 9.1.3): when the migration monitor of the same hop found something
 * wrong, match the runbook's known-issue signatures against the failure reasons of the migrations,
 * the virt-handler logs on the affected nodes and the launcher logs of the affected VMIs (tails,
 * bounded). Names the issue, shows each matched line with where it came from and the recovery the
 * runbook prescribes; failures nothing explains are shown raw, as unknown. Reads only: it changes
 * nothing, so a rehearsal runs it as it is.
 */
import { diagnoseCard } from '../cards.js';
import { defineStepKind, skipped, succeeded } from '../../engine/step-kind.js';
import { hopOutputs } from '../contracts.js';
import { findAffected } from './affected.js';
import { defaultKubevirtRef, readMigrationView } from './cluster-view.js';
import type { DiagnoseLive, DiagnoseOutput, Finding, UnknownFailure } from './diagnose-types.js';
import { handlerLogs, launcherLogs } from './log-sources.js';
import type { MigrationsOutput } from './monitor-types.js';
import { matchKnownIssues, unknownFailures } from './signatures.js';


/** The monitor of this hop found nothing wrong: nothing to diagnose. */
export function monitorFoundNothing(monitor: MigrationsOutput | undefined): boolean {
  if (!monitor) return false;
  if (monitor.outcome === 'completed') return true;
  return monitor.outcome === 'rehearsal' && monitor.problems.length === 0 && monitor.stall.length === 0;
}

export function diagnosisHeadline(findings: Finding[], unknown: UnknownFailure[]): string {
  const confirmed = findings.filter((f) => f.confirmed);
  if (confirmed.length) {
    return confirmed
      .map((f) => {
        const hit = f.signatures.filter((s) => s.matches > 0).length;
        return `Known issue: ${f.title} (${hit} of ${f.signatures.length} symptom(s) found)`;
      })
      .join('; ')
      .concat(unknown.length ? `; ${unknown.length} other failure reason(s) unexplained` : '');
  }
  if (unknown.length) return `No known issue matched: ${unknown.length} failure reason(s), shown as they are`;
  if (findings.length) return `Only secondary symptoms of ${findings.map((f) => f.title).join(', ')} found: not conclusive`;
  return 'No known signature matched, and no migration recorded a failure reason';
}

export const diagnoseStep = defineStepKind({
  ...diagnoseCard,
  async run(ctx) {
    const monitor = hopOutputs<MigrationsOutput>(ctx, 'migrations').at(-1);
    if (monitorFoundNothing(monitor)) return skipped('the migration monitor found nothing wrong');
    const issues = ctx.runbook.knownIssues.filter((i) => !ctx.params.issues || ctx.params.issues.includes(i.id));
    const reader = ctx.effects.kube.reader(ctx.signal);
    const ref = ctx.site?.kubevirt ?? defaultKubevirtRef;

    ctx.progress({ headline: 'Reading the migrations and the outdated VMIs…' } satisfies DiagnoseLive);
    const view = await readMigrationView(reader, ref);
    const affected = findAffected(view, monitor, ctx.effects.clock.now());
    ctx.progress({ headline: `Reading virt-handler logs on ${Math.min(affected.nodes.length, ctx.params.maxPods)} node(s) and launcher logs of ${Math.min(affected.vmis.length, ctx.params.maxPods)} VMI(s)…` } satisfies DiagnoseLive);
    const [handlers, launchers] = await Promise.all([
      handlerLogs(reader, ref.namespace, affected.nodes, ctx.params.maxPods, ctx.params.handlerLogTail, ctx.signal),
      launcherLogs(reader, affected.vmis, ctx.params.maxPods, ctx.params.launcherLogTail, ctx.signal),
    ]);

    const sources = [...affected.reasonSources, ...handlers.sources, ...launchers.sources];
    const findings = matchKnownIssues(issues, sources);
    const unknown = unknownFailures(issues, affected.reasons);
    const unreadable = [...handlers.unreadable, ...launchers.unreadable];
    const base = issues.length === 0 ? 'The runbook defines no known issues: failures are shown as they are' : diagnosisHeadline(findings, unknown);
    // Logs that could not be read leave the diagnosis short of evidence: the headline says so.
    const headline = unreadable.length ? `${base}; ${unreadable.length} log(s) could not be read, their evidence is missing` : base;
    const output: DiagnoseOutput = {
      headline,
      findings,
      unknown,
      stuck: affected.stuck.slice(0, 50),
      affectedVmis: affected.vmis.map((v) => v.key).slice(0, 200),
      affectedNodes: affected.nodes.slice(0, 200),
      read: {
        failureReasons: affected.reasons.length,
        handlerPods: handlers.pods,
        launcherPods: launchers.pods,
        handlerTail: ctx.params.handlerLogTail,
        launcherTail: ctx.params.launcherLogTail,
        unreadable,
      },
    };
    for (const u of unreadable) ctx.log(`Evidence missing: could not read ${u}`, 'warn');
    for (const f of findings.filter((x) => x.confirmed)) ctx.log(`Diagnosis: ${f.title}`, 'warn');
    return succeeded(output, headline);
  },
});
