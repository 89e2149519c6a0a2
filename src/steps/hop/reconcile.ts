/**
 * The `reconcile` step: wait until the cluster runs the hop's profiles. How that is seen depends on
 * the flavor: the spec's service shows it in the cluster's profiles read (reconcile-spec.ts); a
 * real Palette in the cluster object, pack by pack of the new version (reconcile-palette.ts).
 */
import { z } from 'zod';
import { Duration } from '../../engine/duration-schema.js';
import { defineStepKind } from '../../engine/step-kind.js';
import type { PackState } from '../../palette/cluster-types.js';
import { hopFlavor } from './flavors/index.js';

export type RowState = 'matches' | 'waiting' | 'not-published' | 'not-attached' | 'error';

export interface ReconcileRow {
  profile: string;
  expected: string;
  /** The version label the cluster shows for this profile (`not deployed` when none). */
  deployed: string;
  state: RowState;
  differences: string[];
}

/** The palette flavor's view of the cluster object: the live panel under the rows. */
export interface ClusterPanel {
  cluster: string;
  state: string;
  /** Each pack of each new version: how far the cluster's agent has got. */
  packs: Array<{ profile: string; version: string; pack: string; tag: string; state: PackState; detail: string }>;
  conditions: Array<{ type: string; status: string; detail: string }>;
  /** The latest events, newest first (already sanitized). */
  events: Array<{ at: string; severity: string; reason: string; message: string }>;
  repave?: string;
}

export interface ReconcileLive {
  headline: string;
  rows: ReconcileRow[];
  elapsedMs: number;
  nextPollInMs: number;
  polls: number;
  cluster?: ClusterPanel;
}

export interface ReconcileOutput {
  rows: ReconcileRow[];
  elapsedMs: number;
  polls: number;
  rehearsal?: { wouldWaitFor: string[] };
  cluster?: ClusterPanel;
}

export const reconcileStep = defineStepKind({
  kind: 'reconcile',
  title: 'Wait for the cluster to pick up the profiles',
  // It reads and waits: the rollout goes on in the cluster whether or not it watches.
  pollsOnly: true,
  description: "Waits until the cluster runs the hop's profiles (the profiles read, or on Palette every pack of the new versions Ready)",
  params: z.strictObject({ interval: Duration.default(10_000), timeout: Duration.default(30 * 60_000) }),
  async run(ctx) {
    return (await hopFlavor(ctx)).reconcile(ctx, ctx.params);
  },
});
