/**
 * The `reconcile` step: wait until the cluster runs the hop's profiles. How that is seen depends on
 * the flavor: the spec's service shows it in the cluster's profiles read (reconcile-spec.ts); a
 * real Palette in the cluster object, pack by pack of the new version (reconcile-palette.ts).
 */
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
import { reconcileCard } from '../cards.js';
export type { RowState, ReconcileRow, ClusterPanel, ReconcileLive, ReconcileOutput } from './types.js';

export const reconcileStep = defineStepKind({
  ...reconcileCard,
  async run(ctx) {
    return (await hopFlavor(ctx)).reconcile(ctx, ctx.params);
  },
});
