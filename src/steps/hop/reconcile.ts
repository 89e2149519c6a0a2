/**
 * The `reconcile` step: wait until the cluster runs the hop's profiles. How that is seen depends on
 * the flavor: the spec's service shows it in the cluster's profiles read (reconcile-spec.ts); a
 * real Palette in the cluster object, pack by pack of the new version (reconcile-palette.ts).
 */
import { z } from 'zod';
import { Duration } from '../../engine/duration-schema.js';
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
export type { RowState, ReconcileRow, ClusterPanel, ReconcileLive, ReconcileOutput } from './types.js';

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
