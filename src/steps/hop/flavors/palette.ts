/**
 * A real Palette (domain notes, "How a real Palette applies a profile change"): each version is its
 * own object, a publish changes no cluster, the cluster moves when a version is applied to it, and
 * the cluster object says how far it has got (and whether a node rebuild waits for approval).
 */
import type { FlavorChoice } from '../../../palette/flavor.js';
import { hopStepWords } from '../../../domain/flavor/hop-steps.js';
import { watchPaletteCluster } from '../reconcile-palette.js';
import { paletteApply } from './palette-apply.js';
import { cloneTarget, inPlaceTarget, resolveClone } from './palette-draft.js';
import { paletteRepave } from './palette-repave.js';
import type { HopFlavor } from './types.js';

export function paletteHop(choice: FlavorChoice): HopFlavor {
  const inPlace = choice.versioning === 'in-place';
  return {
    choice,
    labelRule: 'own',
    steps: hopStepWords(choice),
    draftTarget: (ctx, plan) => (inPlace ? inPlaceTarget(ctx, plan) : cloneTarget(ctx, plan)),
    resolveTarget: resolveClone,
    publishLines(draft, cluster) {
      return inPlace
        ? [`Publishing makes the edit of ${draft.name} ${draft.toVersion} final; clusters using it (here ${cluster}) get an update notification.`, `Nothing changes on ${cluster} until the update is applied (the apply step asks).`]
        : [`Publishing makes ${draft.name} ${draft.toVersion} final. No cluster changes: ${cluster} keeps running ${draft.source?.version ?? draft.fromVersion} until ${draft.toVersion} is applied to it (the apply step asks).`];
    },
    apply: (ctx) => paletteApply(ctx, choice),
    repave: paletteRepave,
    reconcile: watchPaletteCluster,
  };
}
