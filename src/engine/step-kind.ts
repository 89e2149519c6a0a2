/**
 * A step kind is code (src/steps/*); the runbook composes kinds into steps. Kinds register into a
 * registry passed around explicitly, so tests can build their own set.
 */
import type { z } from 'zod';
import type { PilotError } from '../errors.js';
import type { StepContext } from './context.js';

export type StepResult<O> =
  | { status: 'succeeded'; output?: O; summary?: string }
  | { status: 'skipped'; reason: string; output?: O }
  | { status: 'failed'; error: PilotError; output?: O };

/**
 * What the engine and a runbook need to know of a step kind without its code: its name, its
 * parameters, its gate. Checking a runbook reads only cards, so a command that checks one and runs
 * none of its steps (verify, plan, diff) loads no step's code (see lazyStepKind).
 */
export interface StepCard<P = unknown> {
  kind: string;
  /** Default title when the runbook gives none. */
  title: string;
  /** One line for `--help` and the report. */
  description: string;
  /** Schema of the step's `with:` parameters in the runbook. */
  params: z.ZodType<P>;
  /** Gate name the step asks for, as used by `--approve` (none if it never asks). */
  gate?: string;
  /**
   * The step only reads and waits between polls; it sends nothing (the wait for the cluster to
   * reconcile, the watch over live migrations). Asked to stop after the step in progress (a fleet
   * stage halting), such a step stops at its next poll instead of running to its end, which may take
   * many minutes: what it waits for goes on in the cluster, and a resume re-enters it and reads the
   * cluster afresh. Any other step runs to its end first.
   */
  pollsOnly?: boolean;
}

export interface StepKind<P = unknown, O = unknown> extends StepCard<P> {
  run(ctx: StepContext<P>): Promise<StepResult<O>>;
  /**
   * Re-checked on resume for a step that already succeeded: does the world still match what the
   * step recorded? Returns one line per difference (empty: no drift).
   */
  precondition?(ctx: StepContext<P>, output: O): Promise<string[]>;
}

// A registry holds kinds of many parameter and output types; the runner treats them uniformly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStepKind = StepKind<any, any>;

export class StepRegistry {
  private readonly kinds = new Map<string, AnyStepKind>();

  register(...kinds: AnyStepKind[]): this {
    for (const kind of kinds) {
      if (this.kinds.has(kind.kind)) throw new Error(`step kind ${kind.kind} is registered twice`);
      this.kinds.set(kind.kind, kind);
    }
    return this;
  }

  get(kind: string): AnyStepKind | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  all(): AnyStepKind[] {
    return [...this.kinds.values()];
  }
}

export function defineStepKind<P, O>(kind: StepKind<P, O>): StepKind<P, O> {
  return kind;
}

/** A card as the catalogue writes it: `rechecks` says the kind's code has a precondition. */
export interface CatalogueCard<P = unknown> extends StepCard<P> {
  /** The kind's code re-checks a finished step on resume (has a `precondition`). */
  rechecks?: boolean;
}

export function stepCard<P>(card: CatalogueCard<P>): CatalogueCard<P> {
  return card;
}

/**
 * A step kind whose code is loaded when a step of it first runs (or re-checks). The card answers
 * everything asked before that: the runbook's checks, titles, gates, `--approve` completion.
 * A failed load is tried again at the next run rather than remembered.
 */
export function lazyStepKind(card: CatalogueCard, load: () => Promise<AnyStepKind>): AnyStepKind {
  let loading: Promise<AnyStepKind> | undefined;
  const code = (): Promise<AnyStepKind> =>
    (loading ??= load().then(
      (kind) => {
        if (kind.kind !== card.kind) throw new Error(`the code loaded for step kind ${card.kind} is kind ${kind.kind}`);
        return kind;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const { rechecks, ...meta } = card;
  return {
    ...meta,
    run: async (ctx) => (await code()).run(ctx),
    ...(rechecks ? { precondition: async (ctx: StepContext<unknown>, output: unknown) => ((await code()).precondition?.(ctx, output) ?? []) } : {}),
  };
}

export const succeeded = <O>(output?: O, summary?: string): StepResult<O> => ({
  status: 'succeeded',
  ...(output !== undefined ? { output } : {}),
  ...(summary ? { summary } : {}),
});
export const skipped = <O>(reason: string, output?: O): StepResult<O> => ({ status: 'skipped', reason, ...(output !== undefined ? { output } : {}) });
export const failed = <O>(error: PilotError, output?: O): StepResult<O> => ({ status: 'failed', error, ...(output !== undefined ? { output } : {}) });
