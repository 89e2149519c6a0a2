/**
 * The `repave` step: right after the apply, a real Palette either starts rolling the change out or,
 * when the change rebuilds nodes (a new Kubernetes or OS pack), waits for a repave approval. This
 * step watches until it knows which, and asks the `repave` gate when Palette waits
 * (`--approve repave`). The spec's service has no such approval: the step says so.
 */
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
import { repaveCard } from '../cards.js';
export type { RepaveOutput, RepaveLive } from './types.js';

export const repaveStep = defineStepKind({
  ...repaveCard,
  async run(ctx) {
    return (await hopFlavor(ctx)).repave(ctx, ctx.params);
  },
});
