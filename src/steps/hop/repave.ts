/**
 * The `repave` step: right after the apply, a real Palette either starts rolling the change out or,
 * when the change rebuilds nodes (a new Kubernetes or OS pack), waits for a repave approval. This
 * step watches until it knows which, and asks the `repave` gate when Palette waits
 * (`--approve repave`). The spec's service has no such approval: the step says so.
 */
import { z } from 'zod';
import { Duration } from '../../engine/duration-schema.js';
import { defineStepKind } from '../../engine/step-kind.js';
import { hopFlavor } from './flavors/index.js';
export type { RepaveOutput, RepaveLive } from './types.js';

export const repaveStep = defineStepKind({
  kind: 'repave',
  title: 'Approve the node rebuild, if Palette asks',
  description: 'On a real Palette: when the applied change rebuilds nodes, asks before approving the repave (nodes drained one at a time; VMs move or restart)',
  gate: 'repave',
  params: z.strictObject({ interval: Duration.default(5_000), timeout: Duration.default(5 * 60_000) }),
  async run(ctx) {
    return (await hopFlavor(ctx)).repave(ctx, ctx.params);
  },
});
