/**
 * `no-profile-version`: VMO 4.5.4 deployed, target 4.6.3 (one hop), on a Palette whose cluster
 * object leaves `spec.clusterProfileTemplates[].profileVersion` out. The field is optional in
 * palette-sdk-go's `v1ClusterProfileTemplate` (and Go drops an empty one from the JSON), so the label
 * of what the cluster runs has to come from each attached version object, by its uid. On the spec's
 * service nothing differs from a one-hop `healthy`.
 */
import { quietSmallCluster } from './small-cluster.js';
import type { ScenarioSpec } from './types.js';

export function noProfileVersionScenario(): ScenarioSpec {
  return {
    name: 'no-profile-version',
    summary:
      'VMO 4.5.4 deployed, target 4.6.3: one hop. With --flavor palette the cluster object names its attached profile versions by uid only (no profileVersion): their labels come from the version objects.',
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    clusterShape: { emptyProfileVersion: true },
    ...quietSmallCluster(),
  };
}
