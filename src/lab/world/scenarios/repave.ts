/**
 * `repave`: VMO 4.5.4 deployed, target 4.6.3 (one hop) whose infrastructure profile also moves the
 * Kubernetes pack 1.32.2 → 1.32.3. On a real Palette that change waits for a repave approval; once
 * approved every node is drained and rebuilt, one at a time: the VMs live-migrate away from each
 * node, and the one on a node-local disk is shut down until its node is back. On the spec's service
 * the nodes are rebuilt as soon as the change is published.
 */
import { quietSmallCluster } from './small-cluster.js';
import type { ScenarioSpec } from './types.js';

export function repaveScenario(): ScenarioSpec {
  return {
    name: 'repave',
    summary:
      'VMO 4.5.4 deployed, target 4.6.3: one hop whose infra profile also moves Kubernetes 1.32.2 → 1.32.3, so every node is rebuilt (on Palette only after the repave is approved): VMs live-migrate off each draining node; ns-packs/build-cache-01 (node-local disk) is down while vmo-worker-3 is rebuilt.',
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    referenceTags: { '4.6.3': { kubernetes: '1.32.3' } },
    ...quietSmallCluster(),
  };
}
