/**
 * The spec's profile service (spec sections 3-4): a version is a label on the one profile object.
 * The draft is written on the deployed profile under the new label, publishing makes every cluster
 * that uses it reconcile by itself, and the cluster's profiles read says when it is done. Nothing
 * to apply, no node rebuild to approve.
 */
import { skipped } from '../../../engine/step-kind.js';
import type { FlavorChoice } from '../../../palette/flavor.js';
import { hopStepWords } from '../../../domain/flavor/hop-steps.js';
import { watchSpecCluster } from '../reconcile-spec.js';
import type { HopFlavor } from './types.js';

export function specHop(choice: FlavorChoice): HopFlavor {
  return {
    choice,
    labelRule: 'new',
    steps: hopStepWords(choice),
    async draftTarget(ctx, plan) {
      const before = await ctx.effects.palette.getProfile(plan.uid, { signal: ctx.signal });
      return {
        uid: plan.uid,
        before,
        label: plan.toVersion,
        source: { uid: plan.uid, version: before.publishedVersion ?? before.version },
        how: 'relabel',
        lines: [`Profile ${plan.name} (${plan.uid}): version label ${before.version} → ${plan.toVersion}.`, 'This writes a draft only: no cluster changes until it is published.'],
        warnings: [],
      };
    },
    async resolveTarget(_ctx, target) {
      return { uid: target.uid, before: target.before };
    },
    publishLines(draft, cluster) {
      return [
        `Publishing makes the draft take effect: every cluster using ${draft.name} (here ${cluster}) reconciles against ${draft.toVersion}.`,
        'New pack versions roll out; KubeVirt then live-migrates every running VM onto the new launcher.',
      ];
    },
    async apply() {
      return skipped("the spec's profile service applies a published profile to the clusters that use it by itself (spec section 3): nothing to apply");
    },
    async repave() {
      return skipped("the spec's profile service asks for no node rebuild approval");
    },
    reconcile: (ctx, params) => watchSpecCluster(ctx, params),
  };
}
