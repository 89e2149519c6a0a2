/**
 * Links a running fleet to its screen: the coordinator's events become the screen's event lines,
 * each cluster's session (attached as it starts) is kept for its row and its own screens, and the
 * stage gate `stage` waits in a queue the screen answers by a key. This is the fleet TUI's whole
 * connection to the coordinator: two hooks (`attach`, `askStage`) and `say`.
 */
import type { AppController } from '../screens/App.js';
import { approveOrDecline, type GateRequest } from '../engine/gate.js';
import { whoAmI } from '../fleet/coordinator.js';
import type { FleetJournal } from '../fleet/journal.js';
import { approvalsText, noRunApprovals, stagePolicyText } from '../fleet/approvals.js';
import { failureLimit } from '../fleet/state.js';
import type { StageState } from '../fleet/types.js';
import type { WatchedLimiter } from '../fleet/watched-limiter.js';
import { ConfirmQueue } from '../screens/confirm-queue.js';
import { sanitizeText } from '../text/sanitize.js';
import type { FleetScreenController } from './types.js';

const EVENTS_KEPT = 50;

export class FleetLink {
  readonly stageQueue = new ConfirmQueue();
  private readonly clusters = new Map<string, AppController>();
  private readonly listeners = new Set<() => void>();
  private readonly lines: string[] = [];

  constructor(
    private readonly journal: FleetJournal,
    private readonly limiter: WatchedLimiter,
  ) {
    this.stageQueue.subscribe(() => this.changed());
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** The coordinator's `say`: the line for the screen's event line. */
  say(line: string): void {
    this.lines.push(`${new Date().toISOString().slice(11, 19)} ${sanitizeText(line, { max: 500 })}`);
    if (this.lines.length > EVENTS_KEPT) this.lines.shift();
    this.changed();
  }

  /** The coordinator's `attach`: a cluster's session as it starts. */
  attach(cluster: string, controller: AppController): void {
    this.clusters.set(cluster, controller);
    controller.source.subscribe(() => this.changed());
    controller.queue.subscribe(() => this.changed());
    this.changed();
  }

  /** The coordinator's `askStage`: the gate `stage` on the screen, answered by a key. */
  async askStage(stage: StageState, signal: AbortSignal): Promise<{ by: string; how: string } | undefined> {
    const limit = failureLimit(stage.failureThreshold, stage.clusters.length);
    const request: GateRequest = {
      gate: 'stage',
      key: `stage/${stage.name}`,
      title: `Start stage ${stage.name}: ${stage.clusters.length} cluster(s)?`,
      lines: [
        `Each cluster runs its own upgrade session, ${stage.maxConcurrency} at a time; at ${limit} failure(s) the stage halts: no new cluster starts, those not yet applied stop after their step, applied ones are watched to a safe point, and no later stage starts.`,
        `Every change inside each cluster still waits at its own gates unless the run's approvals answer it (${approvalsText(this.journal.state()?.approvals ?? noRunApprovals)}) or the stage's policy does (${stagePolicyText(stage, this.journal.state()?.approvals?.revoked ?? [])}).`,
      ],
      items: stage.clusters,
      options: approveOrDecline('Start the stage'),
      safeChoice: 'abort',
    };
    try {
      const d = await this.stageQueue.confirm(request, signal);
      return d.choice === 'approve' ? { by: whoAmI(), how: `key ${d.key ?? 'Enter'}` } : undefined;
    } catch {
      return undefined; // the fleet was stopped while the gate waited
    }
  }

  controller(o: Pick<FleetScreenController, 'outcome' | 'halt' | 'interrupt' | 'stopping' | 'resumeCommand'> & { gateGuardMs?: number; reportPath?: () => string | undefined }): FleetScreenController {
    return {
      state: () => this.journal.state()!,
      subscribe: (l) => (this.listeners.add(l), () => void this.listeners.delete(l)),
      cluster: (name) => this.clusters.get(name),
      stageQueue: this.stageQueue,
      rateWaiting: () => this.limiter.waiting(),
      events: () => this.lines,
      outcome: o.outcome,
      halt: o.halt,
      interrupt: o.interrupt,
      stopping: o.stopping,
      resumeCommand: o.resumeCommand,
      ...(o.reportPath ? { reportPath: o.reportPath } : {}),
      ...(o.gateGuardMs !== undefined ? { gateGuardMs: o.gateGuardMs } : {}),
    };
  }
}
