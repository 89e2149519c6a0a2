/** The hop implementation for the session's flavor (chosen once: see session-flavor.ts). */
import type { FlavorChoice } from '../../../palette/flavor.js';
import { sessionFlavor } from '../session-flavor.js';
import { paletteHop } from './palette.js';
import { specHop } from './spec.js';
import type { HopContext, HopFlavor } from './types.js';

export function hopFlavorFor(choice: FlavorChoice): HopFlavor {
  return choice.flavor === 'palette' ? paletteHop(choice) : specHop(choice);
}

export async function hopFlavor(ctx: HopContext): Promise<HopFlavor> {
  return hopFlavorFor(await sessionFlavor(ctx));
}

export type { DraftTarget, HopFlavor } from './types.js';
