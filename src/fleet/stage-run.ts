/**
 * One stage's clusters: started in the plan's order, `maxConcurrency` at a time, each its own
 * single-cluster session (cluster-run.ts). A halt (the failure threshold reached, a cluster waiting at
 * a gate no flag answers, the operator's stop) stops *starting*, not watching: no new cluster starts,
 * a cluster whose change is not applied yet stops safely after its step (nothing sent to it after
 * that), and every cluster past its apply is carried to a safe point (motion.ts: its rollout watched
 * until reconciled, its migrations watched, its restarts asked by the flags and the stage's policy or
 * left waiting at their gates, its verification run), so it ends done, failed or at a gate, with why.
 * Only a stop *now* (Ctrl+C, SIGTERM, `fleet stop --now`, a second `q`) leaves an applied cluster
 * before that: it is then recorded as unwatched, with the command that watches it again.
 */
import { formatDuration } from '../text/duration.js';
import { nextEntry } from '../engine/state.js';
import { ExitCode } from '../errors.js';
import { openingText, type RestartWindow } from '../domain/impact/vm-limits.js';
import { stagePolicy } from './approvals.js';
import { runCluster, type ClusterRunResult } from './cluster-run.js';
import type { CoordinatorOptions } from './run-options.js';
import { carries, motionOf, waitingFlags } from './motion.js';
import { failureLimit, isSettled } from './state.js';
import type { ClusterState, FleetState, InMotion, StageState } from './types.js';
import { fitInWindow, stageWindow } from './window.js';

const now = () => new Date().toISOString();
const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;
/** A session's sentence inside a fleet line: "stopped safely after X; the session is saved". */
const sentence = (text: string) => (text.charAt(0).toLowerCase() + text.slice(1)).replace(/\.$/, '');

export interface StageOutcome {
  /** ok: every cluster settled (the soak is the coordinator's); otherwise why the stage stopped. */
  code: ExitCode;
  /** The stage.ended record is written (a halt); undefined when the caller goes on to soak and end it. */
  ended: boolean;
}

interface Halt {
  code: ExitCode;
  why: string;
}

/** Runs a stage's clusters; the stage's gate and soak are the coordinator's. */
export class StageRun {
  private halted: Halt | undefined;
  private readonly stop = new AbortController();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly o: CoordinatorOptions,
    private readonly stage: StageState,
  ) {}

  private state(): FleetState {
    return this.o.journal.state()!;
  }

  private failures(): ClusterState[] {
    return this.state().clusters.filter((c) => c.stage === this.stage.name && c.status === 'failed');
  }

  /** The cluster's change in motion, read from its session as it stands: `rolling` (its rollout still watched) or not yet `settled` (restarts too). */
  private motion(c: ClusterState, until: 'rolling' | 'settled'): InMotion | undefined {
    const s = c.session ? this.o.sessionState(c.session) : undefined;
    const m = s ? motionOf(s) : undefined;
    const open = until === 'rolling' ? m?.rolling : m && !m.settled;
    return m && open ? { hop: m.hop, of: m.of, versions: m.versions, appliedAt: m.appliedAt } : undefined;
  }

  /** Whether a halt carries the cluster on: its session's next step is one `carries` runs (its applied hop's, or past the last hop, verification). */
  private carried(c: ClusterState): boolean {
    const s = c.session ? this.o.sessionState(c.session) : undefined;
    const next = s ? nextEntry(s) : undefined;
    return s !== undefined && next !== undefined && carries(s, next);
  }

  /** Stops starting: journaled with the clusters it carries, and said. */
  private halt(h: Halt): void {
    if (this.halted) return;
    this.halted = h;
    this.stop.abort();
    const carrying = [...this.running.keys()].filter((name) => {
      const c = this.state().clusters.find((x) => x.name === name);
      return c ? this.carried(c) : false;
    });
    this.o.journal.append({ type: 'stage.halting', at: now(), stage: this.stage.name, why: h.why, carrying });
    const others = this.running.size - carrying.length;
    this.o.say(
      { type: 'stage.halting', stage: this.stage.name, why: h.why, carrying },
      `stage ${this.stage.name}: halting (${h.why}): no new cluster starts${carrying.length ? `; ${carrying.join(', ')} applied: watched to a safe point before the stage ends` : ''}${others ? `; ${others} not applied yet: stop after their step` : ''}`,
    );
  }

  private finish(c: ClusterState, got: ClusterRunResult): void {
    const { journal, say } = this.o;
    // Ended: no longer one the stage carries (a halt it causes names only the others).
    this.running.delete(c.name);
    const session = this.state().clusters.find((x) => x.name === c.name)?.session ?? '';
    let result: ClusterRunResult & { motion?: InMotion; flags?: string[] } = got;
    if (got.outcome === 'gate') {
      const s = session ? this.o.sessionState(session) : undefined;
      const flags = s ? waitingFlags(s) : [];
      if (flags.length) result = { ...result, flags };
    }
    const motion = got.outcome === 'interrupted' ? this.motion({ ...c, session }, 'rolling') : undefined;
    if (motion) {
      // Left before its change settled: it goes on in the cluster, and the record says so.
      const since = now();
      result = { ...got, outcome: 'unwatched', motion, message: `applied (hop ${motion.hop} of ${motion.of}, ${motion.versions}, at ${hhmm(motion.appliedAt)}); rollout continues unwatched since ${hhmm(since)}: \`${this.o.resumeCommand}\` watches it again` };
    } else if (got.outcome === 'interrupted' && this.halted && !this.o.signal.aborted) {
      result = { ...got, message: `${sentence(got.message ?? 'Stopped safely; the session is saved.')} (the stage halted: ${this.halted.why})` };
    } else if (this.halted && got.outcome !== 'interrupted' && this.state().stages.find((s) => s.name === this.stage.name)?.halting?.carrying.includes(c.name)) {
      // Carried after the halt: done or failed says so; one left at a gate says its rollout was watched and what answers the gate.
      const note =
        got.outcome === 'gate'
          ? `its rollout watched to the end after the stage halted (${this.halted.why}); it waits at its gate${result.flags?.length ? `: \`${this.o.resumeCommand} ${result.flags.join(' ')}\` answers it` : ''}`
          : `watched to a safe point after the stage halted (${this.halted.why})`;
      result = { ...result, message: got.message ? `${got.message} (${note})` : note };
    }
    journal.append({ type: 'cluster.ended', at: now(), cluster: c.name, session, outcome: result.outcome, exitCode: result.exitCode, ...(result.message ? { message: result.message } : {}), ...(result.motion ? { motion: result.motion } : {}), ...(result.flags ? { flags: result.flags } : {}) });
    say(
      { type: 'cluster.ended', stage: this.stage.name, cluster: c.name, session, outcome: result.outcome, exitCode: result.exitCode, ...(result.message ? { message: result.message } : {}) },
      `  ${c.name}: ${result.outcome}${result.message ? `: ${result.message}` : ''}`,
    );
    if (this.halted) return;
    const limit = failureLimit(this.stage.failureThreshold, this.stage.clusters.length);
    if (result.outcome === 'failed' || result.outcome === 'error') {
      const failures = this.failures().length;
      if (failures >= limit) this.halt({ code: ExitCode.failed, why: `${failures} failure(s) reached the threshold ${limit} (last: ${c.name})` });
    } else if (result.outcome === 'gate') {
      this.halt({ code: ExitCode.gate, why: `${c.name} waits at a gate without an approval` });
    } else if (result.outcome === 'interrupted' && !this.o.signal.aborted) {
      // The operator stopped it at one of its gates ("Not now", "Abort recovery"): a deliberate stop halts the stage as a gate does.
      this.halt({ code: ExitCode.gate, why: `${c.name} was stopped at its gate` });
    }
  }

  /** `attempt`: a retry's (each `fleet retry` is a new attempt of the same session); else the cluster's own. */
  private start(c: ClusterState, attempt = c.attempts + (c.session !== undefined ? 0 : 1)): void {
    const { journal, say } = this.o;
    const resumed = c.session !== undefined;
    const begin = (session: string) => {
      journal.append({ type: 'cluster.started', at: now(), cluster: c.name, session, attempt, resumed });
      say({ type: 'cluster.started', stage: this.stage.name, cluster: c.name, session, resumed, attempt }, `  ${c.name}: ${attempt > c.attempts && resumed ? `retry ${attempt}` : resumed ? 'resuming' : 'started'} (session ${session})`);
    };
    if (resumed) begin(c.session!);
    const policy = stagePolicy(this.state().fleet, this.stage, this.o.approvals.revoked);
    const p = (this.o.runCluster ?? runCluster)({
      name: c.name,
      paramsFile: c.paramsFile,
      stateDir: this.o.stateDir,
      dir: this.o.journal.paths.clusterDir(c.name),
      ...(resumed ? { session: c.session! } : {}),
      settings: this.o.settings,
      approvals: this.o.approvals,
      registry: this.o.registry,
      limiter: this.o.limiter,
      ...(this.o.sharedReads ? { sharedReads: this.o.sharedReads } : {}),
      env: this.o.env,
      signal: this.o.signal,
      stopAfterStep: AbortSignal.any([this.stop.signal, this.o.halt]),
      carry: carries,
      ...(policy ? { policy } : {}),
      onSession: (id) => (resumed ? undefined : begin(id)),
      ...(this.o.attach ? { attach: this.o.attach(c.name) } : {}),
    })
      .then((result) => this.finish(c, result))
      .finally(() => this.running.delete(c.name));
    this.running.set(c.name, p);
  }

  /** Waits for the stage's window to hold the cluster's predicted duration; false when it must not start. */
  private async inWindow(c: ClusterState, window: RestartWindow): Promise<boolean> {
    const { clock, say } = this.o;
    for (;;) {
      const need = this.o.predict(c.name);
      const fit = fitInWindow(window, clock.now(), need?.ms ?? 0);
      if (fit.kind === 'now') return true;
      const predicted = need ? `${formatDuration(need.ms)} (${need.basis})` : 'nothing yet';
      if (fit.kind === 'never') {
        this.halt({ code: ExitCode.failed, why: `${c.name} is predicted to take ${predicted}, longer than any opening of the window ${window.text} (the longest is ${formatDuration(fit.longestMs)}): widen the window or split the hops` });
        return false;
      }
      say(
        { type: 'window.wait', stage: this.stage.name, cluster: c.name, window: window.text, opensAt: new Date(fit.at).toISOString(), why: fit.why, ...(need ? { predictedMs: need.ms, basis: need.basis } : {}) },
        `  ${c.name}: waits for the window ${window.text}: ${fit.why === 'closed' ? 'it is closed' : 'too little of it is left'}; predicted ${predicted}; starts ${openingText(window, fit.at)}`,
      );
      try {
        await clock.sleep(fit.at - clock.now(), AbortSignal.any([this.o.signal, this.o.halt, this.stop.signal]));
      } catch {
        return false;
      }
    }
  }

  /** `fleet retry`: one cluster of the stage run again as a new attempt, outside the stage's own run; its last record. */
  async retry(c: ClusterState): Promise<ClusterState> {
    this.start(c, c.attempts + 1);
    while (this.running.size) await Promise.race(this.running.values());
    return this.state().clusters.find((x) => x.name === c.name)!;
  }

  private stopped(): boolean {
    return this.halted !== undefined || this.o.signal.aborted || this.o.halt.aborted;
  }

  /**
   * `blocked`: the stage is at its failure threshold from an earlier run. Nothing new starts; only
   * clusters left mid-change are run again (resumed, halted from their first step): an unwatched
   * one, one a crash left running, one past its apply waiting at a gate. They are carried to a safe point.
   */
  async run(blocked?: Halt): Promise<StageOutcome> {
    const { journal, say } = this.o;
    const mine = this.state().clusters.filter((c) => c.stage === this.stage.name);
    const queue = blocked
      ? mine.filter((c) => c.session && (c.status === 'unwatched' || c.status === 'running' || ((c.status === 'gate' || c.status === 'stopped') && this.motion(c, 'settled'))))
      : mine.filter((c) => !isSettled(c) && c.status !== 'failed' && c.status !== 'left-out');
    if (blocked) {
      this.halted = blocked;
      this.stop.abort();
      if (queue.length) {
        journal.append({ type: 'stage.halting', at: now(), stage: this.stage.name, why: blocked.why, carrying: queue.map((c) => c.name) });
        say({ type: 'stage.halting', stage: this.stage.name, why: blocked.why, carrying: queue.map((c) => c.name) }, `stage ${this.stage.name}: ${blocked.why}; watching ${queue.map((c) => c.name).join(', ')} again (left mid-change), starting nothing new`);
      }
    }
    const onHalt = () => this.halt(this.o.stopRequest()?.mode === 'halt' ? { code: ExitCode.gate, why: `stopped by ${this.o.stopRequest()!.reason}` } : { code: ExitCode.gate, why: 'stopped' });
    this.o.halt.addEventListener('abort', onHalt, { once: true });
    if (this.o.halt.aborted && !blocked) onHalt();
    try {
      // Until one cluster of the fleet has finished, one runs at a time: the first cluster makes each
      // shared profile's new version (clone, draft, publish) and every later one attaches it; two
      // first clusters at once would both try to make it.
      const cap = () => (this.state().clusters.some((c) => c.status === 'done') ? this.stage.maxConcurrency : 1);
      const window = this.stage.window && !blocked ? (stageWindow(this.stage.window) as RestartWindow) : undefined;
      for (const c of queue) {
        while (this.running.size >= (blocked ? queue.length : cap())) await Promise.race(this.running.values());
        if (!blocked && this.stopped()) break;
        if (window && !(await this.inWindow(c, window))) break;
        if (!blocked && this.stopped()) break;
        if (!blocked && !(await this.o.exists(c.uid))) {
          journal.append({ type: 'cluster.vanished', at: now(), cluster: c.name });
          say({ type: 'cluster.vanished', stage: this.stage.name, cluster: c.name }, `  ${c.name}: vanished: Palette no longer has it (deleted after the plan); not failed, not upgraded`);
          continue;
        }
        this.start(this.state().clusters.find((x) => x.name === c.name)!);
      }
      while (this.running.size) await Promise.race(this.running.values());
    } finally {
      this.o.halt.removeEventListener('abort', onHalt);
    }
    return this.end();
  }

  private end(): StageOutcome {
    const req = this.o.stopRequest();
    if (this.o.signal.aborted && (!this.halted || this.halted.code !== ExitCode.failed)) {
      this.halted = { code: req?.how === 'signal' ? ExitCode.interrupted : ExitCode.gate, why: `stopped by ${req?.reason ?? 'a stop'}` };
    }
    if (this.halted) {
      const untouched = this.state().clusters.filter((c) => c.stage === this.stage.name && c.status === 'pending').map((c) => c.name);
      const unwatched = this.state().clusters.filter((c) => c.stage === this.stage.name && c.status === 'unwatched').map((c) => c.name);
      const message = `${this.halted.why}${unwatched.length ? `; applied and unwatched: ${unwatched.join(', ')}` : ''}${untouched.length ? `; not started: ${untouched.join(', ')}` : ''}`;
      this.endStage(this.halted.code === ExitCode.failed ? 'failed' : 'stopped', message);
      return { code: this.halted.code, ended: true };
    }
    const left = this.state().clusters.filter((c) => c.stage === this.stage.name && !isSettled(c));
    if (left.length > 0) {
      // Failures under the threshold: the stage ran to its end, and they are the operator's to retry or skip.
      this.endStage('failed', `${left.map((c) => `${c.name} ${c.status}`).join(', ')}: retry or skip them, then resume`);
      return { code: ExitCode.failed, ended: true };
    }
    return { code: ExitCode.ok, ended: false };
  }

  private endStage(outcome: 'failed' | 'stopped', message: string): void {
    this.o.journal.append({ type: 'stage.ended', at: now(), stage: this.stage.name, outcome, message });
    this.o.say({ type: 'stage.ended', stage: this.stage.name, outcome, message }, `stage ${this.stage.name}: ${outcome}: ${message}`);
  }
}
