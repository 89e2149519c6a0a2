/**
 * The fleet coordinator: runs the frozen plan stage by stage. Each stage's clusters are its own
 * single-cluster sessions run by stage-run.ts (when each starts, the stage's maxConcurrency, its
 * failure threshold, and what a halt does: no new cluster starts, every applied cluster is watched to
 * a safe point); the coordinator answers each stage's own gate, soaks a stage that asks for it, and
 * says how the fleet ended. A stop comes two ways: `halt` (the operator's `q`, `fleet stop`: start
 * nothing more, carry what is applied) and `signal` (stop now: Ctrl+C, SIGTERM, `fleet stop --now`,
 * a second `q`: every session stops at its next safe point, applied clusters recorded as unwatched).
 *
 * Every start and end is in the fleet journal before the next action, so `fleet resume` after a
 * crash continues each cluster from its own journal and never starts a second session for it.
 */
import { wallOf } from '../engine/clock.js';
import { ExitCode } from '../errors.js';
import { formatDuration } from '../text/duration.js';
import { whoAmI, type CoordinatorOptions } from './run-options.js';
import { soak, SOAK_CHECK_EVERY_MS } from './soak.js';
import { StageRun } from './stage-run.js';
import { failureLimit } from './state.js';
import type { FleetState, StageState } from './types.js';

export { whoAmI, type CoordinatorOptions } from './run-options.js';

const now = () => new Date().toISOString();

export class Coordinator {
  constructor(private readonly o: CoordinatorOptions) {}

  private state(): FleetState {
    const s = this.o.journal.state();
    if (!s) throw new Error('the fleet journal holds no plan');
    return s;
  }

  /** Runs the plan from where the journal stands; the exit code of the fleet. */
  async run(): Promise<ExitCode> {
    let code: ExitCode = ExitCode.ok;
    for (const planned of this.state().stages) {
      const stage = this.state().stages.find((s) => s.name === planned.name)!;
      if (stage.status === 'done') continue;
      code = await this.runStage(stage);
      if (code !== ExitCode.ok) break;
    }
    const req = this.o.stopRequest();
    if (req) {
      this.o.journal.append({ type: 'fleet.stopped', at: now(), reason: req.reason, mode: req.mode, how: req.how, by: req.by });
      this.o.say({ type: 'fleet.stopped', reason: req.reason, mode: req.mode }, `fleet ${this.state().fleet}: stopped (${req.reason}); \`${this.o.resumeCommand}\` goes on`);
      // 130 only for a signal; a stop the operator chose is a stop (3), whatever the stage was doing.
      return req.how === 'signal' ? ExitCode.interrupted : code === ExitCode.failed ? code : ExitCode.gate;
    }
    if (code === ExitCode.ok) this.o.say({ type: 'fleet.done', fleet: this.state().fleet }, `fleet ${this.state().fleet}: every stage done`);
    return code;
  }

  /** The stage's own gate (`stage`): the run's flag, the screen's key, or a stop at it (exit 3). */
  private async approveStage(stage: StageState): Promise<boolean> {
    const { journal, say } = this.o;
    let approved = this.o.approvals.gates.includes('stage') ? { by: whoAmI(), how: 'flag --approve stage' } : undefined;
    if (!approved) {
      const how = this.o.askStage ? 'answer it on the screen' : `continue with \`${this.o.resumeCommand} --approve stage\``;
      say({ type: 'gate', gate: 'stage', stage: stage.name }, `stage ${stage.name} waits for approval: ${how}`);
      approved = await this.o.askStage?.(stage, AbortSignal.any([this.o.signal, this.o.halt]));
      if (!approved) return false;
    }
    journal.append({ type: 'stage.approved', at: now(), stage: stage.name, by: approved.by, how: approved.how });
    say({ type: 'stage.approved', stage: stage.name, by: approved.by }, `stage ${stage.name}: approved (${approved.how})`);
    return true;
  }

  private async runStage(stage: StageState): Promise<ExitCode> {
    const { journal, say } = this.o;
    const limit = failureLimit(stage.failureThreshold, stage.clusters.length);
    const failedBefore = this.state().clusters.filter((c) => c.stage === stage.name && c.status === 'failed');
    if (failedBefore.length >= limit) {
      const names = failedBefore.map((c) => c.name).join(', ');
      say({ type: 'stage.blocked', stage: stage.name, failed: failedBefore.map((c) => c.name) }, `stage ${stage.name}: stopped at its failure threshold (${limit}) by ${names}; \`fleet retry\` or \`fleet skip\` them, then \`fleet resume\``);
      // A halt stops starting, not watching: clusters left mid-change are carried to a safe point.
      const outcome = await new StageRun(this.o, stage).run({ code: ExitCode.failed, why: `stopped at its failure threshold (${limit}) by ${names}` });
      return outcome.code;
    }
    if (stage.approval && !stage.approvedBy && !(await this.approveStage(stage))) {
      return this.o.signal.aborted && this.o.stopRequest()?.how === 'signal' ? ExitCode.interrupted : ExitCode.gate;
    }
    journal.append({ type: 'stage.started', at: now(), stage: stage.name });
    say({ type: 'stage.started', stage: stage.name, clusters: stage.clusters }, `stage ${stage.name}: ${stage.clusters.length} cluster(s), ${stage.maxConcurrency} at a time, stops at ${limit} failure(s)`);
    const outcome = await new StageRun(this.o, stage).run();
    if (outcome.ended) return outcome.code;
    if (stage.soakMs) {
      const code = await this.soakStage(stage.name);
      if (code !== ExitCode.ok) return code;
    }
    journal.append({ type: 'stage.ended', at: now(), stage: stage.name, outcome: 'done' });
    say({ type: 'stage.ended', stage: stage.name, outcome: 'done' }, `stage ${stage.name}: done`);
    return ExitCode.ok;
  }

  private stopStage(stage: StageState, outcome: 'failed' | 'stopped', message: string): void {
    this.o.journal.append({ type: 'stage.ended', at: now(), stage: stage.name, outcome, message });
    this.o.say({ type: 'stage.ended', stage: stage.name, outcome, message }, `stage ${stage.name}: ${outcome}: ${message}`);
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
      signal: AbortSignal.any([this.o.signal, this.o.halt]),
      health: this.o.soakHealth,
      onCheck: (cluster, r) => {
        if (this.o.settings.output === 'json') say({ type: 'soak.check', stage: name, cluster, healthy: r.healthy, evidence: r.evidence, ...(r.unread?.length ? { unread: r.unread } : {}) }, '');
        else if (r.unread?.length) say({ type: 'soak.check' }, `  ${cluster}: health partly unread: ${r.unread.join('; ')}`);
      },
    });
    if (outcome.kind === 'interrupted') {
      const req = this.o.stopRequest();
      this.stopStage(stage, 'stopped', `${req ? `stopped by ${req.reason}` : 'interrupted'} during the soak; \`fleet resume\` soaks what is left`);
      return req?.how === 'signal' ? ExitCode.interrupted : ExitCode.gate;
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
