/**
 * One implementation per flavor of what a hop's steps really do. The steps (draft, publish, apply,
 * repave, reconcile) do the parts every flavor shares - gates, journaled mutations, read-backs -
 * and ask the session's flavor for the rest: where a draft is written, what a publish means for the
 * cluster, how a version reaches it and how to tell it is done.
 */
import type { StepContext } from '../../../engine/context.js';
import type { PaletteMutation } from '../../../engine/mutation.js';
import type { StepResult } from '../../../engine/step-kind.js';
import type { LabelRule } from '../../../palette/draft-body.js';
import type { FlavorChoice } from '../../../palette/flavor.js';
import type { ProfileDoc } from '../../../palette/types.js';
import type { PlannedProfile } from '../../../domain/plan/planned-hop.js';
import type { HopStepKind } from '../../../domain/flavor/hop-steps.js';
import type { ApplyOutput, DraftOutput, ReconcileOutput, RepaveOutput } from '../types.js';
import type { DraftHow } from '../types.js';
export type { DraftHow } from '../types.js';

export interface DraftTarget {
  /** Where the PUT goes: the version object (a placeholder in a rehearsal, before the clone exists). */
  uid: string;
  /** The object as the PUT finds it (before a clone exists: what the clone will hold). */
  before: ProfileDoc;
  /** The `spec.version` the draft carries. */
  label: string;
  /** The version the cluster runs before this hop (the way back). */
  source: { uid: string; version: string };
  how: DraftHow;
  /** What the draft gate covers in this flavor, in words. */
  lines: string[];
  warnings: string[];
  /** A real Palette's new version: the clone to send before the PUT, and how to tell it was made. */
  clone?: { request: PaletteMutation; settle: () => Promise<'done' | 'not-done'> };
}

export type HopContext = StepContext<unknown>;

export interface HopFlavor {
  readonly choice: FlavorChoice;
  /** How the draft's label relates to its object (the draft guard's rule). */
  readonly labelRule: LabelRule;
  /** One line per hop step: what it really does in this flavor (plan, screens, report). */
  readonly steps: Record<HopStepKind, string>;
  /** Reads only: the object this hop's draft of a profile is written to. */
  draftTarget(ctx: HopContext, plan: PlannedProfile): Promise<DraftTarget>;
  /** After the clone was sent (or found sent): the version object itself. */
  resolveTarget(ctx: HopContext, target: DraftTarget, name: string): Promise<{ uid: string; before: ProfileDoc }>;
  /** What publishing this draft does to the cluster, for the publish gate. */
  publishLines(draft: DraftOutput, cluster: string): string[];
  apply(ctx: HopContext): Promise<StepResult<ApplyOutput>>;
  repave(ctx: HopContext, params: { interval: number; timeout: number }): Promise<StepResult<RepaveOutput>>;
  reconcile(ctx: HopContext, params: { interval: number; timeout: number }): Promise<StepResult<ReconcileOutput>>;
}
