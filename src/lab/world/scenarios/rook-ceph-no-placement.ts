/**
 * `rook-ceph-no-placement`: a Rook-Ceph site (the public Palette VMO tutorial's storage) that never
 * set storage placement (node affinity), a control-plane toleration or the VM class annotation on
 * its block StorageClass: its control-plane nodes carry no drives, so Ceph runs on the workers with
 * drives and needs neither. It runs VMO 4.9.3 and goes to 4.10.0, which needs 4.9.9 or later first
 * (a stepping stone), moves the console address to VMO Manager, drops `snapshotController`, and
 * introduces the profile variable LOCAL_ADMIN_PASSWORD; Rook-Ceph takes a patch (1.16.4) with it. The rules of the missing settings hold
 * neither before nor after: they must not block, and nothing may add them unasked.
 */
import { quietSmallCluster, smallNodes } from './small-cluster.js';
import type { ScenarioSpec } from './types.js';

export function rookCephNoPlacementScenario(): ScenarioSpec {
  return {
    ...quietSmallCluster(),
    name: 'rook-ceph-no-placement',
    summary:
      'VMO 4.9.3 on a Rook-Ceph site that never set storage placement, tolerations or the VM class annotation; target 4.10.0 through the stepping stone 4.9.9 (two hops). 4.10.0 moves the console address to VMO Manager and asks for LOCAL_ADMIN_PASSWORD. 9 VMs; all live-migrate except ns-packs/build-cache-01 (node-local disk).',
    layout: 'rook-ceph-no-placement',
    deployed: '4.9.3',
    target: '4.10.0',
    launcherFrom: '4.9.3',
    history: ['4.8.4', '4.9.3'],
    // Hop 1 moves only the orchestration pack; hop 2 also takes a Rook-Ceph patch, so the
    // infrastructure profile gets a new version there (where a storage rule's fix can be written).
    referenceTags: { '4.10.0': { 'csi-rook-ceph-helm': '1.16.4' } },
    // Drives only on the workers: Ceph never needed the control-plane nodes here.
    nodes: smallNodes.map((n) => (n.controlPlane ? { ...n, storage: false } : n)),
  };
}
