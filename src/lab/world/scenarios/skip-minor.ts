/**
 * `skip-minor`: the orchestration pack was already moved two minors at once (4.4.10 → 4.6.3), so
 * KubeVirt 1.4 runs while the VMIs still run the 1.2 launcher: workload-update migrations failed
 * with a closed client socket (web-01, db-01, api-01, api-02, win-sb-01) or hang in Running
 * (web-02, edge-gw-01); every running VMI carries the outdated-launcher label; virt-handler logs
 * the Unimplemented GetDomainDirtyRateStats error and launchers the missing network-info cache.
 * Target 4.6.3: no hop; recovery is cancel + restart per VM (spec 9.1.4). The cancel of web-02's
 * hanging migration fails (virt-handler reports `abortStatus: Failed`): it runs on, held by its
 * finalizer, until the VM's restart ends it.
 */
import { smallNetworks, smallNodes, smallVms, vmSshServices, webFrontendService, pastMigrations } from './small-cluster.js';
import { noFaults, type ScenarioSpec } from './types.js';

export function skipMinorScenario(): ScenarioSpec {
  return {
    name: 'skip-minor',
    summary:
      'VMO 4.6.3 (KubeVirt v1.4.0) was published straight over 4.4.10 while VMIs still run the v1.2.0 launcher: failed and hanging workload-update migrations, every running VMI outdated. Target 4.6.3: recover by cancelling and restarting.',
    deployed: '4.6.3',
    target: '4.6.3',
    launcherFrom: '4.4.10',
    history: ['4.4.10', '4.6.3'],
    nodes: smallNodes,
    vms: smallVms,
    networks: smallNetworks,
    migrations: pastMigrations,
    skippedMinorMigrations: true,
    abortFails: ['virtual-machines/web-02'],
    services: [webFrontendService, ...vmSshServices],
    faults: noFaults(),
  };
}
