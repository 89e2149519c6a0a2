/**
 * The runner walks the session's steps in order, calls each step kind with injected effects, and
 * turns everything that happens into events: reduced (illegal ones rejected), journaled durably,
 * then published to whoever renders them (TUI or plain printer).
 */
import { GateStopError, InterruptedError, PilotError, StepFailedError, StoppedError, toErrorInfo, type ErrorInfo } from '../errors.js';
import type { GateAsk, MutationSpec, StepContext } from './context.js';
import { continued } from './continuation.js';
import { driftGate, stopAtPoll, stoppedSafely } from './stops.js';
import { expandGroup, plannedHops } from './expand.js';
import { withDryRun, type Effects } from './effects.js';
import { sendWithDeferrals, type DeferredBudget } from './deferred-send.js';
import { displaySafe } from '../text/display-safe.js';
import { decisionSourceText, pendingOf, type Decision, type GateRequest } from './gate.js';
import { describeRequest, type MutationOutcome } from './mutation.js';
import type { Params } from './params.js';
import { reduce } from './reducer.js';
import type { Runbook } from './runbook.js';
import {
  ephemeralEvents,
  isPlaceholder,
  nextEntry,
  steps,
  type Entry,
  type GroupPlaceholder,
  type SessionEvent,
  type SessionState,
  type StepState,
} from './state.js';
import type { StepRegistry } from './step-kind.js';
import type { RunStatus } from './types.js';

/** Where events go to become durable. `append` returns the record's sequence number once it is written (on disk by `durable`). */
export interface JournalSink {
  append(event: SessionEvent): number;
  /** Resolves once every record appended so far is on disk (a change is sent only after its intent is). */
  durable?(): Promise<void>;
  snapshot(state: SessionState): void;
  /** Writes a file into the session folder (reports); returns its path. */
  writeFile(name: string, text: string): string;
}

export type RunOutcome =
  | { status: 'done' }
  | { status: EndStatus; error: PilotError | ErrorInfo };

/** How a run that did not finish ended: a failure, a gate awaiting approval, the operator's stop, a signal. */
export type EndStatus = Exclude<RunStatus, 'running' | 'done'>;

export interface RunnerOptions {
  state: SessionState;
  registry: StepRegistry;
  runbook: Runbook;
  site: Params | undefined;
  effects: Effects;
  journal: JournalSink;
  dryRun: boolean;
  signal: AbortSignal;
  resuming?: boolean;
  /** Who resumes and with which approval flags (recorded in the session's timeline for the report). */
  resumedBy?: { by?: string; with?: string };
  /** The command that continues this session as it works when pasted (hints of a stop at a gate name it). */
  resumeCommand?: string;
  /**
   * Set when the session cannot be resumed (the embedded lab ran inside the process and ends with
   * it): why, and what to do instead. A stop's hint then says this and offers no resume.
   */
  noResume?: string;
  /** Resends of a mutation the API deferred (429, 503 with Retry-After); default DEFAULT_DEFERRED_BUDGET. */
  deferredBudget?: DeferredBudget;
  /**
   * A request to stop after the step in progress, distinct from `signal` (which stops at once, as
   * Ctrl+C): a fleet stage that halts lets its clusters in flight finish what they are doing. The
   * step in progress runs to its end (a gate, a mutation and what the step waits for after it, such
   * as a restarted VM coming back), then the session stops, saved, before the next step. A step that
   * only polls (`pollsOnly`: the reconcile wait, the migration watch) stops at its next poll, since
   * its end may be many minutes away and nothing of it is lost: a resume re-enters it.
   */
  stopAfterStep?: AbortSignal;
  /**
   * Under a `stopAfterStep` request, the steps this says yes to still run, to their end (a poll
   * does not stop them): a fleet's cluster whose change was applied is watched until it settles
   * instead of being left mid-rollout. Asked before each step with the state as it stands.
   */
  carry?: (state: SessionState, next: Entry) => boolean;
}

type Listener = (state: SessionState, event: SessionEvent) => void;

export class Runner {
  private state: SessionState;
  private readonly listeners = new Set<Listener>();

  private readonly opts: RunnerOptions;

  constructor(opts: RunnerOptions) {
    // A rehearsal wraps the effects itself, so no caller can forget to: nothing is ever sent.
    this.opts = opts.dryRun ? { ...opts, effects: withDryRun(opts.effects, []) } : opts;
    this.state = opts.state;
  }

  getState(): SessionState {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Journal times are wall-clock times (the effects' clock may be a lab's simulated one). */
  private now(): string {
    return new Date().toISOString();
  }

  /** Reduce (throws on an illegal transition), journal durably unless ephemeral, then publish. */
  dispatch(event: SessionEvent): void {
    const next = reduce(this.state, event);
    if (!ephemeralEvents.has(event.type)) next.seq = this.opts.journal.append(event);
    this.state = next;
    for (const listener of this.listeners) listener(next, event);
  }

  private log(message: string, level: 'info' | 'warn' | 'error' | 'action' = 'info', stepId?: string): void {
    const line = { level, message, ...(stepId ? { stepId } : {}) };
    this.dispatch({ type: 'log', at: this.now(), line: { at: this.now(), ...line } });
    this.opts.effects.log(line);
  }

  async run(): Promise<RunOutcome> {
    const { signal } = this.opts;
    if (this.opts.resuming) {
      this.dispatch({ type: 'session.resumed', at: this.now(), ...this.opts.resumedBy });
      // The operator may quit at the drift gate: the run stops there, unanswered, as at any gate.
      const drift = await this.checkDrift().catch((err: unknown) => {
        if (err instanceof GateStopError) return this.stop('awaitingApproval', err);
        throw err;
      });
      if (drift) return drift;
    }
    let last: StepState | undefined;
    for (;;) {
      if (signal.aborted) return this.aborted();
      const entry = nextEntry(this.state);
      if (!entry) break;
      if (this.opts.stopAfterStep?.aborted && !this.carried(entry)) return this.stop('interrupted', stoppedSafely(last, entry));
      if (isPlaceholder(entry)) {
        this.expand(entry);
        continue;
      }
      const outcome = await this.runStep(entry);
      if (outcome) return outcome;
      last = this.current(entry.id);
    }
    this.dispatch({ type: 'session.done', at: this.now() });
    this.opts.journal.snapshot(this.state);
    return { status: 'done' };
  }

  private carried(entry: Entry): boolean {
    return this.opts.carry?.(this.state, entry) ?? false;
  }

  /** The signal fired: Ctrl+C or SIGTERM is an interruption (130); `q` aborts with a StoppedError, the operator's stop (3). */
  private aborted(err?: unknown): RunOutcome {
    const reason: unknown = this.opts.signal.reason;
    if (reason instanceof StoppedError) return this.stop('stopped', reason);
    return this.stop('interrupted', err instanceof InterruptedError ? err : new InterruptedError());
  }

  private stop(status: EndStatus, stopError: PilotError): RunOutcome {
    const { noResume, resumeCommand } = this.opts;
    const error = continued(stopError, noResume !== undefined ? { ended: noResume } : resumeCommand ? { resume: resumeCommand } : undefined);
    const info = 'toInfo' in error ? error.toInfo() : error;
    this.dispatch({ type: 'session.stopped', at: this.now(), status, reason: info.message, error: info });
    this.opts.journal.snapshot(this.state);
    return { status, error };
  }

  /** Hop groups become concrete steps once the plan is known (expand.ts). */
  private expand(group: GroupPlaceholder): void {
    const hops = plannedHops(this.state);
    this.dispatch({ type: 'group.expanded', at: this.now(), group: group.id, steps: expandGroup(group, hops) });
    this.log(hops.length ? `Planned ${hops.length} hop(s): ${hops.map((h) => `${h.from} → ${h.to}`).join(', ')}` : 'No hops: the pack is already at the target', 'info');
  }

  private async runStep(step: StepState): Promise<RunOutcome | undefined> {
    const kind = this.opts.registry.get(step.kind);
    if (!kind) {
      return this.failStep(step.id, new StepFailedError('engine.unknown-kind', `No step kind "${step.kind}" is available.`, { hint: `Known kinds: ${this.opts.registry.names().join(', ')}` }));
    }
    this.dispatch({ type: 'step.started', at: this.now(), id: step.id });
    // A carried step runs to its end even when asked to stop: its polls are what watches the change settle.
    const drain = this.carried(step) ? undefined : this.opts.stopAfterStep;
    const effects = kind.pollsOnly && drain ? { ...this.opts.effects, clock: stopAtPoll(this.opts.effects.clock, drain, step) } : this.opts.effects;
    const ctx = this.context(this.current(step.id), kind.params.parse(step.with), effects);
    try {
      const result = await kind.run(ctx);
      if (result.status === 'succeeded') {
        this.dispatch({ type: 'step.succeeded', at: this.now(), id: step.id, ...(result.output !== undefined ? { output: result.output } : {}), ...(result.summary ? { summary: result.summary } : {}) });
      } else if (result.status === 'skipped') {
        this.dispatch({ type: 'step.skipped', at: this.now(), id: step.id, reason: result.reason, ...(result.output !== undefined ? { output: result.output } : {}) });
      } else {
        return this.failStep(step.id, result.error, result.output);
      }
      this.opts.journal.snapshot(this.state);
      return undefined;
    } catch (err) {
      return this.handleThrow(step.id, err);
    }
  }

  private handleThrow(id: string, err: unknown): RunOutcome {
    if (err instanceof GateStopError) {
      const step = this.current(id);
      if (step.status === 'running') {
        const gate: GateRequest = {
          gate: err.pending[0]?.gate ?? 'approval',
          key: `${id}/pending`,
          title: `Awaiting approval: ${err.pending.map((p) => p.title).join('; ')}`,
          lines: err.pending.map((p) => `${p.title}  (${p.flag})`),
          options: [],
          safeChoice: 'abort',
        };
        this.dispatch({ type: 'step.awaiting', at: this.now(), id, gate });
      }
      return this.stop('awaitingApproval', err);
    }
    // The operator's own stop (a declined gate, "stop here") ends the run here, the step left to run again.
    if (err instanceof StoppedError) return this.stop('stopped', err);
    if (err instanceof InterruptedError || this.opts.signal.aborted) return this.aborted(err);
    const error = err instanceof PilotError ? err : new StepFailedError('internal', err instanceof Error ? err.message : String(err), { hint: toErrorInfo(err).hint ?? '' });
    return this.failStep(id, error);
  }

  private failStep(id: string, error: PilotError, output?: unknown): RunOutcome {
    const step = this.current(id);
    if (step.status === 'pending') this.dispatch({ type: 'step.started', at: this.now(), id });
    // The step's screen shows its error: its hint offers no resume where none can work.
    const shown = this.opts.noResume !== undefined ? continued(error, { ended: this.opts.noResume }) : error;
    this.dispatch({ type: 'step.failed', at: this.now(), id, error: 'toInfo' in shown ? shown.toInfo() : shown, ...(output !== undefined ? { output } : {}) });
    // An operator's abort (e.g. "Abort recovery") ends the step with its output kept, but it is a stop, not a failure.
    return this.stop(error.kind === 'stopped' ? 'stopped' : error.kind === 'interrupted' ? 'interrupted' : 'failed', error);
  }

  private current(id: string): StepState {
    const step = steps(this.state).find((s) => s.id === id);
    if (!step) throw new Error(`step ${id} vanished`);
    return step;
  }

  /** On resume: each finished step whose kind can re-check its pre-condition does so. */
  private async checkDrift(): Promise<RunOutcome | undefined> {
    const findings: string[] = [];
    for (const step of steps(this.state)) {
      const kind = this.opts.registry.get(step.kind);
      if (step.status !== 'succeeded' || !kind?.precondition) continue;
      const ctx = this.context(step, kind.params.parse(step.with));
      let lines: string[];
      try {
        lines = await kind.precondition(ctx, step.output);
      } catch (err) {
        if (err instanceof PilotError && err.kind === 'environment') return this.stop('failed', err);
        lines = [`could not re-check: ${toErrorInfo(err).message}`];
      }
      this.dispatch({ type: 'step.drift', at: this.now(), id: step.id, report: { at: this.now(), ok: lines.length === 0, findings: lines } });
      findings.push(...lines.map((l) => `${step.title}: ${l}`));
    }
    if (findings.length === 0) return undefined;
    for (const f of findings) this.log(`Drift: ${f}`, 'warn');
    const request = driftGate(findings, this.state.run.resumes);
    const decision = await this.opts.effects.confirm(request, this.opts.signal);
    if (decision.choice !== 'pending') this.dispatch({ type: 'session.decided', at: this.now(), gate: request, decision });
    if (decision.choice === 'approve') return undefined;
    if (decision.choice === 'pending') return this.stop('awaitingApproval', new GateStopError([pendingOf(request)], this.state.meta.id));
    return this.stop('stopped', new StoppedError('Stopped at the drift gate: the cluster changed since the session was saved, and the operator chose not to continue.', { next: 'Start a new session to plan from the current state.' }, 'stopped.drift'));
  }

  private context<P>(step: StepState, params: P, effects: Effects = this.opts.effects): StepContext<P> {
    const runner = this;
    const { dryRun, signal, runbook, site } = this.opts;
    return {
      step,
      params,
      site,
      runbook,
      effects,
      dryRun,
      signal,
      sessionId: this.state.meta.id,
      state: () => runner.state,
      outputOf<T>(id: string): T | undefined {
        const all = steps(runner.state);
        const sameHop = step.group ? all.find((s) => s.group === step.group && s.hop?.index === step.hop?.index && s.localId === id) : undefined;
        return (sameHop ?? all.find((s) => s.id === id))?.output as T | undefined;
      },
      outputsOfKind<T>(kind: string): T[] {
        return steps(runner.state)
          .filter((s) => s.kind === kind && s.output !== undefined && s.id !== step.id)
          .map((s) => s.output as T);
      },
      progress(live: unknown) {
        runner.dispatch({ type: 'step.progress', at: runner.now(), id: step.id, live });
      },
      note(key: string, value: unknown) {
        runner.dispatch({ type: 'step.note', at: runner.now(), id: step.id, key, value });
      },
      confirm: (ask, opts) => runner.confirm(step.id, ask, opts),
      mutate: (spec) => runner.mutate(step.id, spec),
      mutationDone: (key) => {
        const m = runner.state.mutations[key];
        return m?.outcome !== undefined && m.outcome !== 'failed';
      },
      log: (message, level = 'info') => runner.log(message, level, step.id),
      writeFile: (name, text) => runner.opts.journal.writeFile(name, text),
    };
  }

  private async confirm(stepId: string, ask: GateAsk, opts: { deferIfPending?: boolean } = {}): Promise<Decision> {
    // What the gate shows quotes names and reasons from the network: no control characters (the key stays as built).
    const request: GateRequest = { ...displaySafe(ask), key: ask.key ?? `${stepId}/${ask.gate}` };
    this.dispatch({ type: 'step.awaiting', at: this.now(), id: stepId, gate: request });
    const decision = await this.opts.effects.confirm(request, this.opts.signal);
    if (decision.choice === 'pending' && !opts.deferIfPending) {
      throw new GateStopError([pendingOf(request)], this.state.meta.id);
    }
    this.dispatch({ type: 'step.decided', at: this.now(), id: stepId, key: request.key, decision });
    this.log(`${request.title}: ${decision.choice} (${decisionSourceText(decision)})`, 'info', stepId);
    return decision;
  }

  private async mutate(stepId: string, spec: MutationSpec): Promise<MutationOutcome> {
    const { dryRun } = this.opts;
    const prior = this.state.mutations[spec.key];
    if (prior?.outcome && prior.outcome !== 'failed') {
      this.log(`Already done before the interruption, not sent again: ${spec.request.summary}`, 'info', stepId);
      return 'replayed';
    }
    if (prior && !dryRun) {
      // An intent without a result (a crash) or an ambiguous failure: find out before sending again.
      if (!spec.settle) {
        throw new StepFailedError('mutation.unsettled', `Cannot tell whether "${spec.request.summary}" took effect before the interruption.`, {
          hint: `Check by hand (${describeRequest(spec.request)}), then resume.`,
        });
      }
      const settled = await spec.settle();
      if (settled === 'done') {
        if (prior.outcome === 'failed') this.dispatch({ type: 'mutation.intent', at: this.now(), key: spec.key, stepId, request: spec.request, dryRun });
        this.dispatch({ type: 'mutation.result', at: this.now(), key: spec.key, outcome: 'settled' });
        this.log(`Found already applied: ${spec.request.summary}`, 'info', stepId);
        return 'settled';
      }
    }
    const step = this.current(stepId);
    const decision = spec.approvedBy ? step.decisions[spec.approvedBy] : undefined;
    const approval = spec.approvedBy && decision
      ? { gateKey: spec.approvedBy, by: decision.by, at: decision.at, ...(decision.key ? { key: decision.key } : {}), ...(decision.flag ? { flag: decision.flag } : {}) }
      : undefined;
    this.dispatch({ type: 'mutation.intent', at: this.now(), key: spec.key, stepId, request: spec.request, dryRun, ...(approval ? { approval } : {}) });
    const { effects } = this.opts;
    let sent: 'sent' | 'settled';
    // The intent (and every decision before it) on disk before anything goes out: a change is never sent unrecorded.
    await this.opts.journal.durable?.();
    try {
      // A 429 (or 503 with Retry-After) is "not applied, later": read back, wait, send again (deferred-send.ts).
      sent = await sendWithDeferrals({
        summary: spec.request.summary,
        send: async () => {
          if (spec.request.target === 'kube') return effects.kube.execute(spec.request, this.opts.signal);
          // Sent first, whether or not the step wants the answer (an optional call would skip its argument).
          const answer = await effects.palette.execute(spec.request, this.opts.signal);
          spec.onAnswer?.(answer);
        },
        settle: spec.settle,
        clock: effects.clock,
        signal: this.opts.signal,
        ...(this.opts.deferredBudget ? { budget: this.opts.deferredBudget } : {}),
        onDeferred: ({ send, of, waitMs, reason }) =>
          this.log(`${spec.request.summary}: not applied, the API answered ${reason}; reading it back, then sending again in ${Math.ceil(waitMs / 1000)}s (send ${send + 1} of ${of}).`, 'warn', stepId),
      });
    } catch (err) {
      this.dispatch({ type: 'mutation.result', at: this.now(), key: spec.key, outcome: 'failed', error: toErrorInfo(err).message });
      throw err;
    }
    if (sent === 'settled') {
      this.dispatch({ type: 'mutation.result', at: this.now(), key: spec.key, outcome: 'settled' });
      this.log(`Found already applied: ${spec.request.summary}`, 'info', stepId);
      return 'settled';
    }
    const outcome: MutationOutcome = dryRun ? 'recorded' : 'sent';
    this.dispatch({ type: 'mutation.result', at: this.now(), key: spec.key, outcome });
    this.log(`${dryRun ? 'Would send' : 'Sent'}: ${spec.request.summary} (${describeRequest(spec.request)})`, 'action', stepId);
    return outcome;
  }
}
