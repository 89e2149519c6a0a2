/**
 * What each step of a hop really does on the session's profile API, one line per step: on the
 * spec's service a version is a label on the one profile object and a publish reconciles every
 * cluster using it; on a real Palette each version is its own object (cloned, or edited in place)
 * and reaches the cluster by an apply. The plan says it, the hop flavors carry it (screens, report).
 */
import type { FlavorChoice } from '../../palette/flavor.js';

export type HopStepKind = 'draft' | 'publish' | 'apply' | 'repave' | 'reconcile';

export function hopStepWords(choice: FlavorChoice): Record<HopStepKind, string> {
  if (choice.flavor !== 'palette') {
    return {
      draft: 'PUT the draft on the deployed profile under the new version label',
      publish: 'PATCH publish: every cluster using the profile reconciles against it by itself',
      apply: 'nothing to do: the service applies a published profile to its clusters by itself',
      repave: 'nothing to do: the service has no node rebuild approval',
      reconcile: "poll the cluster's profiles read until names, labels and pack tags match the plan",
    };
  }
  return choice.versioning === 'in-place'
    ? {
        draft: 'PUT the draft on the deployed version, under its own label (edited in place)',
        publish: 'PATCH publish: the cluster gets an update notification; nothing changes on it yet',
        apply: "PATCH the cluster's profiles with resolveNotification=true: the cluster takes the update",
        repave: 'if the change rebuilds nodes, Palette waits: approve the repave (nodes drained one at a time)',
        reconcile: 'watch the cluster object until every pack of the edited versions is Ready',
      }
    : {
        draft: 'clone the deployed version to the new label (or find it), then PUT the draft on the clone',
        publish: 'PATCH publish of the new version: no cluster changes yet',
        apply: "PATCH the cluster's profiles: attach the new versions with replaceWithProfile = the old ones",
        repave: 'if the change rebuilds nodes, Palette waits: approve the repave (nodes drained one at a time)',
        reconcile: 'watch the cluster object until every pack of the new versions is Ready',
      };
}
