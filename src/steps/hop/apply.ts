/**
 * The `apply` step: on a real Palette a published version reaches the cluster only when someone
 * applies it - one request per hop that attaches the new versions in place of the old ones (or
 * resolves the pending update of versions edited in place). Behind its own gate (`--approve apply`),
 * journaled and settled by reading the cluster. The spec's service needs none: the step says so.
 */
import { z } from 'zod';
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
export type { ApplyOutput, ApplyLive } from './types.js';

export const applyStep = defineStepKind({
  kind: 'apply',
  title: 'Apply the new versions to the cluster',
  description: "On a real Palette: attaches the hop's published versions to the cluster (replaceWithProfile) or applies the pending update; nothing to do on the spec's service",
  gate: 'apply',
  params: z.strictObject({}),
  async run(ctx) {
    return (await hopFlavor(ctx)).apply(ctx);
  },
});
