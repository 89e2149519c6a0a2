/**
 * `lost-customizations`: VMO 4.5.4 deployed with all twelve site customizations, target 4.6.3 (one
 * hop). The 4.6.3 reference defaults change settings the site overrode (the block StorageClass's
 * name and parameters, its annotations, the StorageCluster's annotations) and add keys, so the
 * customizations must be merged, not copied; publishing the plain defaults loses all twelve, and
 * each loss shows in the cluster.
 */
import { smallNetworks, smallNodes, smallVms, vmSshServices, webFrontendService, pastMigrations } from './small-cluster.js';
import { noFaults, type ScenarioSpec } from './types.js';

export function lostCustomizationsScenario(): ScenarioSpec {
  return {
    name: 'lost-customizations',
    summary:
      'VMO 4.5.4 deployed, target 4.6.3 (one hop). The new reference defaults conflict with the site customizations and add keys: publishing them as they are loses all twelve customizations of spec 9.2, each with a visible effect.',
    deployed: '4.5.4',
    target: '4.6.3',
    launcherFrom: '4.5.4',
    nodes: smallNodes,
    vms: smallVms,
    networks: smallNetworks,
    migrations: pastMigrations,
    skippedMinorMigrations: false,
    services: [webFrontendService, ...vmSshServices],
    faults: noFaults(),
  };
}
