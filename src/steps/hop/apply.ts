/**
 * The `apply` step: on a real Palette a published version reaches the cluster only when someone
 * applies it - one request per hop that attaches the new versions in place of the old ones (or
 * resolves the pending update of versions edited in place). Behind its own gate (`--approve apply`),
 * journaled and settled by reading the cluster. The spec's service needs none: the step says so.
 */
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
import { applyCard } from '../cards.js';
export type { ApplyOutput, ApplyLive } from './types.js';

export const applyStep = defineStepKind({
  ...applyCard,
  async run(ctx) {
    return (await hopFlavor(ctx)).apply(ctx);
  },
});
