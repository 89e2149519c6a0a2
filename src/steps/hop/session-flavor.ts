/**
 * The session's flavor, decided once: preflight records it (from the params, or from its first
 * profile read), and every later step - on resume too - takes that record and hands it to the
 * profile API, so a resumed session keeps the flavor it started with. A runbook without preflight
 * decides on first use.
 */
import type { StepContext } from '../../engine/context.js';
import type { FlavorChoice } from '../../palette/flavor.js';

/** What a step's output carries when it recorded the flavor (preflight). */
export interface FlavorRecord {
  flavor?: FlavorChoice;
}

export function recordedFlavor(ctx: StepContext<unknown>): FlavorChoice | undefined {
  return ctx.outputsOfKind<FlavorRecord>('preflight').flatMap((o) => (o.flavor ? [o.flavor] : [])).at(-1);
}

export async function sessionFlavor(ctx: StepContext<unknown>): Promise<FlavorChoice> {
  const recorded = recordedFlavor(ctx);
  if (recorded) {
    ctx.effects.palette.adoptFlavor(recorded);
    return recorded;
  }
  return ctx.effects.palette.flavor({ signal: ctx.signal });
}
