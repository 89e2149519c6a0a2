/**
 * `pack-error`: VMO 4.5.4 deployed, target 4.6.3 (one hop), but the network plugin's upgrade to
 * cni-cilium-oss 1.17.1 fails in the cluster (a helm error on an immutable field): the change stops
 * there. On a real Palette the cluster object reports that pack in `Error` with the message; on the
 * spec's service the new version is simply never picked up.
 */
import { quietSmallCluster } from './small-cluster.js';
import type { ScenarioSpec } from './types.js';

export const ciliumUpgradeError =
  'Error: UPGRADE FAILED: cannot patch "cilium-operator" with kind Deployment: Deployment.apps "cilium-operator" is invalid: spec.selector: Invalid value: {"matchLabels":{"io.cilium/app":"operator"}}: field is immutable';

export function packErrorScenario(): ScenarioSpec {
  return {
    name: 'pack-error',
    summary: 'VMO 4.5.4 deployed, target 4.6.3 (one hop); the upgrade of cni-cilium-oss to 1.17.1 fails in the cluster (a helm error: field is immutable), so the rollout stops there.',
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    packFailures: { 'cni-cilium-oss@1.17.1': ciliumUpgradeError },
    ...quietSmallCluster(),
  };
}
