/**
 * The `migrations` step (spec 9.1.2): after a pack upgrade KubeVirt live-migrates every running VMI
 * onto the new launcher. Polls (one call per kind) and shows the migrations live; finishes when
 * nothing outdated can still move by itself, or reports a stall so diagnosis and recovery take
 * over. VMIs that cannot live-migrate are expected to stay outdated: they are recovery's job, so
 * the monitor never waits for them. A stall is not a failure of the step: it is its finding.
 */
import type { StepContext } from '../../engine/context.js';
import type { MigrationsParams } from './params.js';
import { migrationsCard } from '../cards.js';
import { defineStepKind, succeeded } from '../../engine/step-kind.js';
import { clockTimeOf, type Clock } from '../../engine/clock.js';
import { steps } from '../../engine/state.js';
import { currentHop, latestPlan } from '../contracts.js';
import { remainingEstimate } from '../../domain/window/remaining.js';
import { isInFlight } from './phases.js';
import { sessionStart } from '../session-start.js';
import { assessPoll, type MonitorLimits, type PollAssessment } from './assess.js';
import { migrationWait, overdueWarning, waitHeadline } from './waiting.js';
import { defaultKubevirtRef, readMigrationView } from './cluster-view.js';
import type { MigrationsLive, MigrationsOutput, StallReason } from './monitor-types.js';
import { movedOutput, recordPoll, startLedger, type MovedLedger } from './moved.js';
import { startTracker, track, type TrackerState } from './progress-tracker.js';
import { formatDuration } from '../../text/duration.js';


/** Lists in the journaled output are capped; the live table holds every row. */
const OUTPUT_CAP = 200;
const HISTORY_POINTS = 60;

export function migrationsHeadline(poll: PollAssessment): string {
  const c = poll.counts;
  const waiting = poll.inFlight - (c.Running ?? 0);
  const staying = poll.outdated.filter((o) => !o.willMove).length;
  const kv = poll.kubevirt.found ? `KubeVirt ${poll.kubevirt.observed || '?'} ${poll.kubevirt.phase || '?'}` : `KubeVirt CR ${poll.kubevirt.ref} not found`;
  return [
    `${poll.inFlight} in flight (${c.Running ?? 0} Running, ${waiting} waiting)`,
    `${c.Succeeded ?? 0} succeeded`,
    `${c.Failed ?? 0} failed`,
    `${poll.outdated.length} VMI(s) outdated${staying ? ` (${staying} will need a restart)` : ''}`,
    kv,
  ].join(' · ');
}

function outputOf(outcome: MigrationsOutput['outcome'], poll: PollAssessment, state: TrackerState, now: number, stall: StallReason[], ledger: MovedLedger, clock: Clock): MigrationsOutput {
  const needsRestart = poll.outdated.filter((o) => !o.willMove);
  return {
    moved: movedOutput(ledger, poll, clock),
    outcome,
    counts: poll.counts,
    outdated: poll.outdated.length,
    needsRestart: needsRestart.slice(0, OUTPUT_CAP),
    problems: poll.problems.slice(0, OUTPUT_CAP),
    stall: stall.slice(0, OUTPUT_CAP),
    affectedNodes: poll.affectedNodes.slice(0, OUTPUT_CAP),
    kubevirt: poll.kubevirt,
    history: state.history,
    elapsedMs: now - state.startedAt,
    polls: state.polls,
    totals: { needsRestart: needsRestart.length, problems: poll.problems.length },
  };
}

function wouldWaitFor(poll: PollAssessment, params: MigrationsParams, ctx: StepContext<MigrationsParams>): string[] {
  const kv = poll.kubevirt;
  const moving = poll.outdated.filter((o) => o.willMove).length;
  const impact = latestPlan(ctx)?.impact ?? [];
  const fate = (f: string) => impact.filter((i) => i.fate === f).length;
  return [
    `KubeVirt ${kv.ref} Deployed at ${kv.expected ?? 'its target version'} (today: ${kv.found ? `${kv.phase || '?'} at ${kv.observed || '?'}` : 'not found'})`,
    `no outdated VMI that KubeVirt can still move by itself (today: ${poll.outdated.length} outdated, ${moving} it would move)${impact.length ? `; the plan predicts ${fate('live-migrate')} live migration(s), ${fate('evict')} eviction(s) and ${fate('restart')} VM(s) needing a restart` : ''}`,
    `no migration in flight (today: ${poll.inFlight})`,
    `polling every ${formatDuration(params.interval)}; a stall is reported after ${formatDuration(params.stallAfter)} without progress, a migration Running longer than ${formatDuration(params.migrationLimit)}, or a VMI whose migrations failed ${params.failureLimit} time(s)`,
  ];
}

/** The plan's estimate of this hop's migration phase (issue 27). */
function plannedOf(ctx: StepContext<MigrationsParams>): { planned?: { p50Seconds: number; p90Seconds: number } } {
  const part = currentHop(ctx)?.eta?.parts.find((p) => p.what === 'migrations');
  return part ? { planned: { p50Seconds: part.p50Seconds, p90Seconds: part.p90Seconds } } : {};
}

/** The plan's estimate and what is left of it, rescheduled for the migrations in flight and the VMIs still waiting. */
function windowOf(ctx: StepContext<MigrationsParams>, poll: PollAssessment): Pick<MigrationsLive, 'planned' | 'remaining'> {
  const plan = latestPlan(ctx);
  if (!plan?.window || !plan.impact) return plannedOf(ctx);
  const inFlight = poll.rows.filter((r) => isInFlight(r.phase)).map((r) => ({ vmi: r.vmi, source: r.source, ageMs: r.runningMs ?? 0 }));
  const waiting = poll.outdated.filter((o) => o.willMove && o.migratable).map((o) => ({ vmi: o.vmi, node: o.node }));
  const remaining = remainingEstimate(plan.impact, plan.window.limits, inFlight, waiting);
  return { ...plannedOf(ctx), ...(remaining ? { remaining } : {}) };
}

/**
 * How long the pack rollout took, as the plan predicts it: from the hop's send (its reconcile step
 * began: after the publish, or the apply and any node rebuild approved) to the workload updater's
 * first migration, in the cluster's time.
 */
function rolloutOf(ctx: StepContext<MigrationsParams>, ledger: MovedLedger): { rolloutSeconds?: number } {
  const sent = sentAt(ctx);
  if (sent === undefined || ledger.firstUpdate === undefined) return {};
  const seconds = Math.round((ledger.firstUpdate - sent) / 1000);
  return seconds >= 0 ? { rolloutSeconds: seconds } : {};
}

/**
 * When the hop was sent, in the cluster's time: the last change that set it in motion (the publish
 * on the spec's service; the apply, or a node rebuild approved, on Palette) as journaled, else the
 * start of its wait for the cluster. A resume restarts that wait, not the hop: the journal keeps the send.
 */
function sentAt(ctx: StepContext<MigrationsParams>): number | undefined {
  const { group, hop } = ctx.step;
  if (!group) return undefined;
  const mine = steps(ctx.state()).filter((s) => s.group === group && s.hop?.index === hop?.index);
  const senders = new Set(mine.filter((s) => s.kind === 'publish' || s.kind === 'apply' || s.kind === 'repave').map((s) => s.id));
  const sends = Object.values(ctx.state().mutations)
    .filter((m) => senders.has(m.stepId) && !m.dryRun && m.outcome !== 'failed')
    .map((m) => Date.parse(m.resultAt ?? m.intentAt))
    .filter(Number.isFinite);
  const waits = mine.filter((s) => s.kind === 'reconcile').map((s) => Date.parse(s.startedAt ?? '')).filter(Number.isFinite);
  const at = sends.length ? Math.max(...sends) : waits.length ? Math.min(...waits) : undefined;
  return at === undefined ? undefined : clockTimeOf(ctx.effects.clock, at);
}

/** The plan's estimate of the whole hop and of its pack rollout (the wait for KubeVirt's version is part of it). */
function hopWindow(ctx: StepContext<MigrationsParams>): { hop?: { p50Seconds: number; p90Seconds: number }; rollout?: { p50Seconds: number; p90Seconds: number } } {
  const eta = currentHop(ctx)?.eta;
  const rollout = eta?.parts.find((p) => p.what === 'pack-rollout');
  return { ...(eta ? { hop: { p50Seconds: eta.p50Seconds, p90Seconds: eta.p90Seconds } } : {}), ...(rollout ? { rollout: { p50Seconds: rollout.p50Seconds, p90Seconds: rollout.p90Seconds } } : {}) };
}

/** When this hop began (its first step's start), in the cluster's time: what moved since belongs to it. */
function hopStart(ctx: StepContext<MigrationsParams>): number {
  const { group, hop } = ctx.step;
  const mine = group ? steps(ctx.state()).filter((s) => s.group === group && s.hop?.index === hop?.index) : [];
  const starts = [...mine, ctx.step].map((s) => Date.parse(s.startedAt ?? '')).filter(Number.isFinite);
  return clockTimeOf(ctx.effects.clock, starts.length ? Math.min(...starts) : Date.now());
}

export const migrationsStep = defineStepKind({
  ...migrationsCard,
  async run(ctx) {
    const { clock } = ctx.effects;
    const reader = ctx.effects.kube.reader(ctx.signal);
    const ref = ctx.site?.kubevirt ?? defaultKubevirtRef;
    const expected = currentHop(ctx)?.kubevirtVersion;
    const limits: MonitorLimits = { migrationLimit: ctx.params.migrationLimit, failureLimit: ctx.params.failureLimit };
    const trackOpts = { stallAfter: ctx.params.stallAfter, confirmPolls: ctx.params.confirmPolls, historyPoints: HISTORY_POINTS };
    let state = startTracker(clock.now());
    const ledger = startLedger(hopStart(ctx));
    // The times on screen count from the hop's send, as the migrations' ages do (they began after it).
    const origin = Math.min(sentAt(ctx) ?? state.startedAt, state.startedAt);
    const window = hopWindow(ctx);
    let warnedOverdue = false;
    // When the watch first saw KubeVirt at the hop's version: the workload updater's wait counts from it.
    let deployedSince: number | undefined;
    // The live table shows this session's migrations (and any in flight), not the cluster's history.
    const since = sessionStart(ctx);

    for (;;) {
      const view = await readMigrationView(reader, ref);
      const now = clock.now();
      const poll = assessPoll(view, now, limits, ref, expected, since);
      recordPoll(ledger, view.migrations, poll, clock);
      const judged = track(state, poll, now, trackOpts);
      state = judged.state;
      const stall = judged.verdict.kind === 'stalled' ? judged.verdict.reasons : poll.stall;
      deployedSince ??= poll.kubevirt.settled ? now : undefined;
      const wait = ctx.dryRun || judged.verdict.kind !== 'wait' ? undefined : migrationWait({ kubevirt: poll.kubevirt, movable: poll.movable, inFlight: poll.inFlight, waitedMs: now - origin, deployedForMs: deployedSince === undefined ? 0 : now - deployedSince, ...(window.rollout ? { rollout: window.rollout } : {}) });
      if (wait?.overdue && !warnedOverdue) {
        warnedOverdue = true;
        ctx.log(overdueWarning(wait), 'warn');
      }
      const live: MigrationsLive = {
        ...windowOf(ctx, poll),
        headline: wait ? `${waitHeadline(wait)} · ${migrationsHeadline(poll)}` : migrationsHeadline(poll),
        ...(wait ? { wait } : {}),
        sinceSentMs: now - origin,
        ...(window.hop ? { hop: window.hop } : {}),
        rows: poll.rows,
        counts: poll.counts,
        outdated: poll.outdated.length,
        staying: poll.outdated.filter((o) => !o.willMove).length,
        history: state.history,
        kubevirt: poll.kubevirt,
        stall,
        movable: poll.movable,
        ended: judged.verdict.kind !== 'wait' || ctx.dryRun,
        elapsedMs: now - state.startedAt,
        sinceProgressMs: now - state.lastProgressAt,
        polls: state.polls,
        nextPollInMs: judged.verdict.kind === 'wait' && !ctx.dryRun ? ctx.params.interval : 0,
      };
      ctx.progress(live);

      if (ctx.dryRun) {
        // Nothing was published in a rehearsal: say what it would wait for, and what today already shows.
        const stalledToday = poll.stall.length > 0 && poll.movable === 0;
        const out: MigrationsOutput = { ...outputOf(stalledToday ? 'stalled' : 'rehearsal', poll, state, now, poll.stall, ledger, clock), rehearsal: { wouldWaitFor: wouldWaitFor(poll, ctx.params, ctx) } };
        return succeeded(out, stalledToday ? `rehearsal: today the migrations are already stalled (${poll.stall.length} signal(s))` : `rehearsal: would wait until ${out.rehearsal!.wouldWaitFor.slice(0, 3).join('; ')}`);
      }
      if (judged.verdict.kind === 'completed') {
        const out = { ...outputOf('completed', poll, state, now, [], ledger, clock), ...plannedOf(ctx), ...rolloutOf(ctx, ledger) };
        const rest = out.totals.needsRestart ? `; ${out.totals.needsRestart} VM(s) will not move by themselves and need a restart (recovery)` : '';
        return succeeded(out, `migrations finished after ${formatDuration(out.elapsedMs)}: ${poll.counts.Succeeded ?? 0} succeeded${rest}`);
      }
      if (judged.verdict.kind === 'stalled') {
        const out = { ...outputOf('stalled', poll, state, now, judged.verdict.reasons, ledger, clock), ...plannedOf(ctx), ...rolloutOf(ctx, ledger) };
        for (const r of out.stall.slice(0, 5)) ctx.log(`Migrations stalled: ${r.text}`, 'warn');
        return succeeded(out, `stalled: ${judged.verdict.reasons.length} signal(s), ${poll.outdated.length} VMI(s) still outdated; diagnosis and recovery follow`);
      }
      await clock.sleep(ctx.params.interval, ctx.signal);
    }
  },
});
