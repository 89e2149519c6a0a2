/**
 * Bridges the engine's `confirm` to the TUI: the runner awaits a decision, the gate screen shows the
 * open request and answers it. One gate at a time (steps run in order). Aborting rejects the wait.
 */
import { GateStopError, InterruptedError } from '../errors.js';
import { pendingOf, type Choice, type ConfirmFn, type Decision, type GateRequest } from '../engine/gate.js';

interface Open {
  request: GateRequest;
  resolve: (d: Decision) => void;
  reject: (err: Error) => void;
}

export class ConfirmQueue {
  private open: Open | undefined;
  private readonly listeners = new Set<(request: GateRequest | undefined) => void>();

  readonly confirm: ConfirmFn = (request, signal) =>
    new Promise<Decision>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const onAbort = () => {
        this.set(undefined);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.set({
        request,
        resolve: (d) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(d);
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      });
    });

  current(): GateRequest | undefined {
    return this.open?.request;
  }

  /** `pressed`: the key the operator used to decide (recorded in the journal and the report). */
  answer(key: string, choice: Choice, data?: unknown, pressed?: string): void {
    const open = this.open;
    if (!open || open.request.key !== key) return;
    this.set(undefined);
    open.resolve({ choice, by: 'operator', at: new Date().toISOString(), ...(data !== undefined ? { data } : {}), ...(pressed !== undefined ? { key: pressed } : {}) });
  }

  /**
   * The operator quit at this gate (a confirmed `q`): the gate is left unanswered, nothing is
   * recorded for it, and the run stops there as at any gate without an approval (exit 3). A resume
   * asks it again.
   */
  leave(key: string): void {
    const open = this.open;
    if (!open || open.request.key !== key) return;
    this.set(undefined);
    open.reject(new GateStopError([pendingOf(open.request)]));
  }

  subscribe(listener: (request: GateRequest | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(open: Open | undefined): void {
    this.open = open;
    for (const l of this.listeners) l(open?.request);
  }
}
