/** What a step handler receives. Screens never see this; they render state. */
import type { Params } from './params.js';
import type { Runbook } from './runbook.js';
import type { Effects } from './effects.js';
import type { Decision, GateRequest } from './gate.js';
import type { MutationOutcome, MutationRequest } from './mutation.js';
import type { SessionState, StepState } from './state.js';

export interface MutationSpec {
  /** Idempotency key, unique in the session (e.g. `hop1.publish-addon/publish`). */
  key: string;
  request: MutationRequest;
  /** The gate decision that approved it (its key), recorded beside the mutation for the report. */
  approvedBy?: string;
  /**
   * After a crash between intent and result (or an ambiguous failure), reads the real state and
   * says whether the mutation already took effect. Without it the engine refuses to send again.
   */
  settle?: () => Promise<'done' | 'not-done'>;
  /** The API's answer to the request when it was sent (a clone's `{uid}`); not called when settled by reading or replayed. */
  onAnswer?: (answer: unknown) => void;
}

export type GateAsk = Omit<GateRequest, 'key'> & { key?: string };

export interface StepContext<P = unknown> {
  readonly step: StepState;
  readonly params: P;
  /** The site parameters (undefined when the runbook runs without a params file, e.g. the demo). */
  readonly site: Params | undefined;
  readonly runbook: Runbook;
  readonly effects: Effects;
  readonly dryRun: boolean;
  readonly signal: AbortSignal;
  readonly sessionId: string;
  state(): SessionState;
  /** Output of an earlier step, by full id (`plan`) or by local id within the same hop (`migrations`). */
  outputOf<T>(id: string): T | undefined;
  /** Outputs of every earlier step of a kind, oldest first. */
  outputsOfKind<T>(kind: string): T[];
  /** Live data for this step's screen (not journaled). */
  progress(live: unknown): void;
  /** A durable fact recorded mid-step (journaled), readable back through `step.notes` on resume. */
  note(key: string, value: unknown): void;
  /**
   * Asks the operator. Journaled. When plain mode has no approval, throws GateStopError (exit 3),
   * unless `deferIfPending`, which returns `pending` so a step can collect several (VM restarts).
   */
  confirm(request: GateAsk, opts?: { deferIfPending?: boolean }): Promise<Decision>;
  /** Sends a mutation through the journaled gateway (recorded only, in a rehearsal). */
  mutate(spec: MutationSpec): Promise<MutationOutcome>;
  /** True when the journal already holds a result for this mutation key. */
  mutationDone(key: string): boolean;
  log(message: string, level?: 'info' | 'warn' | 'error' | 'action'): void;
  /** Writes a file into the session folder (redacted, atomic, 0600); returns its path. */
  writeFile(name: string, text: string): string;
}
