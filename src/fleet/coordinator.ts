/**
 * The fleet coordinator: runs the frozen plan stage by stage. Each cluster is its own single-cluster
 * session (cluster-run.ts); the coordinator decides when each starts (the stage's maxConcurrency),
 * answers the stage's own gate, and stops a stage at its failure threshold: the failed cluster stays
 * where it stopped (session saved), the clusters in flight finish the step they are in and stop
 * safely before the next (a step that only polls, such as the reconcile wait, stops at its next
 * poll: see RunnerOptions.stopAfterStep), nothing new starts, no later stage runs. Ctrl+C of the
 * fleet stops every session at once, as Ctrl+C stops one.
 *
 * Every start and end is in the fleet journal before the next action, so `fleet resume` after a
 * crash continues each cluster from its own journal and never starts a second session for it.
 */
import { hostname, userInfo } from 'node:os';
import type { CliOptions } from '../cli/args.js';
import { wallOf, type Clock } from '../engine/clock.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode } from '../errors.js';
import type { Limiter } from '../palette/rate-limit.js';
import { runCluster, stagePolicy, type ClusterRunRequest, type ClusterRunResult } from './cluster-run.js';
import type { FleetJournal } from './journal.js';
import { soak, SOAK_CHECK_EVERY_MS, type SoakHealth } from './soak.js';
import { fitInWindow, stageWindow } from './window.js';
import { openingText, type RestartWindow } from '../steps/plan/eta/vm-limits.js';
import type { Prediction } from './predicted.js';
import { failureLimit, isSettled } from './state.js';
import type { ClusterState, FleetState, StageState } from './types.js';
import { formatDuration } from '../text/duration.js';

export interface CoordinatorOptions {
  journal: FleetJournal;
  stateDir: string;
  options: CliOptions;
  registry: StepRegistry;
  limiter: Limiter;
  env: NodeJS.ProcessEnv;
  /** Ctrl+C of the fleet: no new cluster starts; the sessions stop themselves on the same signal. */
  signal: AbortSignal;
  /** The fleet's clock for soaks (the lab's accelerated one against a lab, as the sessions' is). */
  clock: Clock;
  /** Reads a done cluster's health during its stage's soak. */
  soakHealth: SoakHealth;
  /** A cluster's predicted duration for its stage's window (predicted.ts); undefined when nothing predicts it yet. */
  predict(cluster: string): Prediction | undefined;
  /** Whether Palette still has the cluster (a cluster deleted after the plan is reported vanished, not failed). */
  exists(uid: string): Promise<boolean>;
  /** One line (or JSON object) per fleet event, for the operator. */
  say(event: Record<string, unknown> & { type: string }, line: string): void;
  /**
   * The fleet screen (screens/fleet): each cluster's session shown there, its gates answered there
   * by a key instead of stopping the cluster. Without it a gate no flag answers stops the cluster.
   */
  attach?(cluster: string): ClusterRunRequest['attach'];
  /**
   * The fleet screen asks for a stage's approval (the gate `stage`) when no flag gave it: who approved
   * and how, or undefined when the operator did not (the fleet stops there, exit 3, as without it).
   */
  askStage?(stage: StageState, signal: AbortSignal): Promise<{ by: string; how: string } | undefined>;
}

export function whoAmI(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return `unknown@${hostname()}`;
  }
}

const now = () => new Date().toISOString();
/** A session's sentence inside a fleet line: "stopped safely after X; the session is saved". */
const sentence = (text: string) => (text.charAt(0).toLowerCase() + text.slice(1)).replace(/\.$/, '');

/** Clusters of a stage the coordinator may run now: not finished, not failed (a failed one runs again only by `fleet retry`). */
const runnable = (c: ClusterState) => !isSettled(c) && c.status !== 'failed' && c.status !== 'left-out';

export class Coordinator {
  constructor(private readonly o: CoordinatorOptions) {}

  private state(): FleetState {
    const s = this.o.journal.state();
    if (!s) throw new Error('the fleet journal holds no plan');
    return s;
  }

  /** Runs the plan from where the journal stands; the exit code of the fleet. */
  async run(): Promise<ExitCode> {
    for (const planned of this.state().stages) {
      const stage = this.state().stages.find((s) => s.name === planned.name)!;
      if (stage.status === 'done') continue;
      const code = await this.runStage(stage);
      if (code !== ExitCode.ok) return code;
    }
    this.o.say({ type: 'fleet.done', fleet: this.state().fleet }, `fleet ${this.state().fleet}: every stage done`);
    return ExitCode.ok;
  }

  private failuresIn(stage: StageState): ClusterState[] {
    return this.state().clusters.filter((c) => c.stage === stage.name && c.status === 'failed');
  }

  private stopStage(stage: StageState, outcome: 'failed' | 'stopped', message: string): void {
    this.o.journal.append({ type: 'stage.ended', at: now(), stage: stage.name, outcome, message });
    this.o.say({ type: 'stage.ended', stage: stage.name, outcome, message }, `stage ${stage.name}: ${outcome}: ${message}`);
  }

  private async runStage(stage: StageState): Promise<ExitCode> {
    const { journal, say } = this.o;
    const limit = failureLimit(stage.failureThreshold, stage.clusters.length);
    const failedBefore = this.failuresIn(stage);
    if (failedBefore.length >= limit) {
      const names = failedBefore.map((c) => c.name).join(', ');
      say({ type: 'stage.blocked', stage: stage.name, failed: failedBefore.map((c) => c.name) }, `stage ${stage.name}: stopped at its failure threshold (${limit}) by ${names}; \`fleet retry\` or \`fleet skip\` them, then \`fleet resume\``);
      return ExitCode.failed;
    }
    if (stage.approval && !stage.approvedBy) {
      let approved = this.o.options.approve.includes('stage') ? { by: whoAmI(), how: 'flag --approve stage' } : undefined;
      if (!approved) {
        const how = this.o.askStage ? 'answer it on the screen' : 'continue with `fleet resume --approve stage`';
        say({ type: 'gate', gate: 'stage', stage: stage.name }, `stage ${stage.name} waits for approval: ${how}`);
        approved = await this.o.askStage?.(stage, this.o.signal);
        if (!approved) return this.o.signal.aborted ? ExitCode.interrupted : ExitCode.gate;
      }
      journal.append({ type: 'stage.approved', at: now(), stage: stage.name, by: approved.by, how: approved.how });
      say({ type: 'stage.approved', stage: stage.name, by: approved.by }, `stage ${stage.name}: approved (${approved.how})`);
    }
    journal.append({ type: 'stage.started', at: now(), stage: stage.name });
    say({ type: 'stage.started', stage: stage.name, clusters: stage.clusters }, `stage ${stage.name}: ${stage.clusters.length} cluster(s), ${stage.maxConcurrency} at a time, stops at ${limit} failure(s)`);

    // The stage halting asks its clusters in flight to stop after their step; Ctrl+C stops them at once.
    const stop = new AbortController();
    const signal = this.o.signal;
    let halted: { code: ExitCode; why: string } | undefined;
    const queue = this.state().clusters.filter((c) => c.stage === stage.name && runnable(c));
    const running = new Set<Promise<void>>();

    const finish = (c: ClusterState, got: ClusterRunResult) => {
      // A cluster the stage stopped says why; its own session holds the step it stopped in.
      const result = got.outcome === 'interrupted' && halted && !this.o.signal.aborted ? { ...got, message: `${sentence(got.message ?? 'Stopped safely; the session is saved.')} (the stage halted: ${halted.why})` } : got;
      const session = this.state().clusters.find((x) => x.name === c.name)?.session ?? '';
      journal.append({ type: 'cluster.ended', at: now(), cluster: c.name, session, outcome: result.outcome, exitCode: result.exitCode, ...(result.message ? { message: result.message } : {}) });
      say(
        { type: 'cluster.ended', stage: stage.name, cluster: c.name, session, outcome: result.outcome, exitCode: result.exitCode, ...(result.message ? { message: result.message } : {}) },
        `  ${c.name}: ${result.outcome}${result.message ? `: ${result.message}` : ''}`,
      );
      if (halted) return;
      if (result.outcome === 'failed' || result.outcome === 'error') {
        const failures = this.failuresIn(stage).length;
        if (failures >= limit) {
          halted = { code: ExitCode.failed, why: `${failures} failure(s) reached the threshold ${limit} (last: ${c.name})` };
          stop.abort();
        }
      } else if (result.outcome === 'gate') {
        halted = { code: ExitCode.gate, why: `${c.name} waits at a gate without an approval` };
        stop.abort();
      } else if (result.outcome === 'interrupted' && this.o.signal.aborted) {
        halted = { code: ExitCode.interrupted, why: 'interrupted' };
      }
    };

    const policy = stagePolicy(this.state().fleet, stage);
    const start = (c: ClusterState) => {
      const resumed = c.session !== undefined;
      const begin = (session: string) => {
        journal.append({ type: 'cluster.started', at: now(), cluster: c.name, session, attempt: c.attempts + (resumed ? 0 : 1), resumed });
        say({ type: 'cluster.started', stage: stage.name, cluster: c.name, session, resumed }, `  ${c.name}: ${resumed ? 'resuming' : 'started'} (session ${session})`);
      };
      if (resumed) begin(c.session!);
      const p = runCluster({
        name: c.name,
        paramsFile: c.paramsFile,
        stateDir: this.o.stateDir,
        dir: this.o.journal.paths.clusterDir(c.name),
        ...(resumed ? { session: c.session! } : {}),
        options: this.o.options,
        registry: this.o.registry,
        limiter: this.o.limiter,
        env: this.o.env,
        signal,
        stopAfterStep: stop.signal,
        ...(policy ? { policy } : {}),
        onSession: (id) => (resumed ? undefined : begin(id)),
        ...(this.o.attach ? { attach: this.o.attach(c.name) } : {}),
      }).then((result) => finish(c, result));
      const tracked = p.finally(() => running.delete(tracked));
      running.add(tracked);
    };

    // Until one cluster of the fleet has finished, one runs at a time: the first cluster makes each
    // shared profile's new version (clone, draft, publish) and every later one attaches it; two
    // first clusters at once would both try to make it.
    const cap = () => (this.state().clusters.some((c) => c.status === 'done') ? stage.maxConcurrency : 1);
    // Waits for the stage's window to hold the cluster's predicted duration; false when it must not start.
    const window = stage.window ? (stageWindow(stage.window) as RestartWindow) : undefined;
    const inWindow = async (c: ClusterState): Promise<boolean> => {
      const { clock } = this.o;
      for (;;) {
        const need = this.o.predict(c.name);
        const fit = fitInWindow(window!, clock.now(), need?.ms ?? 0);
        if (fit.kind === 'now') return true;
        const predicted = need ? `${formatDuration(need.ms)} (${need.basis})` : 'nothing yet';
        if (fit.kind === 'never') {
          halted = { code: ExitCode.failed, why: `${c.name} is predicted to take ${predicted}, longer than any opening of the window ${window!.text} (the longest is ${formatDuration(fit.longestMs)}): widen the window or split the hops` };
          return false;
        }
        const opens = openingText(window!, fit.at);
        say(
          { type: 'window.wait', stage: stage.name, cluster: c.name, window: window!.text, opensAt: new Date(fit.at).toISOString(), why: fit.why, ...(need ? { predictedMs: need.ms, basis: need.basis } : {}) },
          `  ${c.name}: waits for the window ${window!.text}: ${fit.why === 'closed' ? 'it is closed' : 'too little of it is left'}; predicted ${predicted}; starts ${opens}`,
        );
        try {
          await clock.sleep(fit.at - clock.now(), AbortSignal.any([signal, stop.signal]));
        } catch {
          return false;
        }
      }
    };
    for (const c of queue) {
      while (running.size >= cap()) await Promise.race(running);
      if (halted || signal.aborted) break;
      if (window && !(await inWindow(c))) break;
      if (halted || signal.aborted) break;
      if (!(await this.o.exists(c.uid))) {
        journal.append({ type: 'cluster.vanished', at: now(), cluster: c.name });
        say({ type: 'cluster.vanished', stage: stage.name, cluster: c.name }, `  ${c.name}: vanished: Palette no longer has it (deleted after the plan); not failed, not upgraded`);
        continue;
      }
      start(c);
    }
    await Promise.all(running);

    if (this.o.signal.aborted && !halted) halted = { code: ExitCode.interrupted, why: 'interrupted' };
    if (halted) {
      const untouched = this.state().clusters.filter((c) => c.stage === stage.name && c.status === 'pending').map((c) => c.name);
      this.stopStage(stage, halted.code === ExitCode.failed ? 'failed' : 'stopped', `${halted.why}${untouched.length ? `; not started: ${untouched.join(', ')}` : ''}`);
      return halted.code;
    }
    const left = this.state().clusters.filter((c) => c.stage === stage.name && !isSettled(c));
    if (left.length > 0) {
      // Failures under the threshold: the stage ran to its end, and they are the operator's to retry or skip.
      this.stopStage(stage, 'failed', `${left.map((c) => `${c.name} ${c.status}`).join(', ')}: retry or skip them, then resume`);
      return ExitCode.failed;
    }
    if (stage.soakMs) {
      const code = await this.soakStage(stage.name);
      if (code !== ExitCode.ok) return code;
    }
    journal.append({ type: 'stage.ended', at: now(), stage: stage.name, outcome: 'done' });
    say({ type: 'stage.ended', stage: stage.name, outcome: 'done' }, `stage ${stage.name}: done`);
    return ExitCode.ok;
  }

  /** The stage's soak, from its journaled end when one began before (a resume soaks only what is left). */
  private async soakStage(name: string): Promise<ExitCode> {
    const { journal, say, clock } = this.o;
    const stage = this.state().stages.find((s) => s.name === name)!;
    const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;
    let until: number;
    if (stage.soak) {
      until = Date.parse(stage.soak.until);
      say({ type: 'soak.resumed', stage: name, until: stage.soak.until, untilWall: stage.soak.untilWall }, `stage ${name}: soak resumed, ${formatDuration(Math.max(0, until - clock.now()))} left (until ${hhmm(stage.soak.untilWall)})`);
    } else {
      until = clock.now() + stage.soakMs!;
      const event = { stage: name, until: new Date(until).toISOString(), untilWall: new Date(wallOf(clock, until)).toISOString() };
      journal.append({ type: 'stage.soak.started', at: now(), ...event });
      // Against a lab the soak runs on its faster clock: both times, or "30m until 19:39" reads wrong.
      const lab = clock.simulated ? ` (${clock.simulated.label} ${hhmm(event.until)})` : '';
      say({ type: 'soak.started', ...event }, `stage ${name}: soaking ${formatDuration(stage.soakMs!)} until ${hhmm(event.untilWall)}${lab}, reading each cluster's health every ${formatDuration(SOAK_CHECK_EVERY_MS)}`);
    }
    const clusters = this.state().clusters.filter((c) => c.stage === name && c.status === 'done');
    const outcome = await soak({
      clusters,
      until,
      clock,
      signal: this.o.signal,
      health: this.o.soakHealth,
      onCheck: (cluster, r) => {
        if (this.o.options.json) say({ type: 'soak.check', stage: name, cluster, healthy: r.healthy, evidence: r.evidence, ...(r.unread?.length ? { unread: r.unread } : {}) }, '');
        else if (r.unread?.length) say({ type: 'soak.check' }, `  ${cluster}: health partly unread: ${r.unread.join('; ')}`);
      },
    });
    if (outcome.kind === 'interrupted') {
      this.stopStage(stage, 'stopped', 'interrupted during the soak; `fleet resume` soaks what is left');
      return ExitCode.interrupted;
    }
    if (outcome.kind === 'unhealthy') {
      journal.append({ type: 'cluster.unhealthy', at: now(), cluster: outcome.cluster, stage: name, evidence: outcome.evidence });
      say({ type: 'cluster.unhealthy', stage: name, cluster: outcome.cluster, evidence: outcome.evidence }, `  ${outcome.cluster}: unhealthy during the soak: ${outcome.evidence.join('; ')}`);
      const shown = outcome.evidence.slice(0, 3).join('; ') + (outcome.evidence.length > 3 ? `; and ${outcome.evidence.length - 3} more` : '');
      this.stopStage(stage, 'failed', `${outcome.cluster} turned unhealthy during the soak: ${shown}; fix it, then \`fleet resume\` soaks the stage again`);
      return ExitCode.failed;
    }
    say({ type: 'soak.done', stage: name, checks: outcome.checks }, `stage ${name}: soaked, every cluster healthy in ${outcome.checks} read(s)`);
    return ExitCode.ok;
  }
}
