/**
 * A small cluster for the preflight, snapshot and plan tests, with VMs whose fate is known:
 * web-01/web-02/db-01 live-migrate, build-cache-01 has a node-local disk (LiveMigratable False,
 * evictionStrategy None: needs a restart), legacy-app-01 is Halted.
 */
import type { ResourceStore } from '../../../../src/lab/kube/store.js';
import type { KubeObject } from '../../../../src/lab/kube/types.js';
import { namespace, node, service, vm, vmi, vmim } from '../../../lab/kube/seed.js';

export const KNOWN_VMS = {
  liveMigrate: ['vms/db-01', 'vms/web-01', 'vms/web-02'],
  restart: 'vms/build-cache-01',
  halted: 'vms/legacy-app-01',
} as const;

export function localDiskVmi(ns: string, name: string, nodeName: string): KubeObject {
  const base = vmi(ns, name, { node: nodeName });
  const status = base.status as { conditions: Array<Record<string, string>> };
  return {
    ...base,
    spec: { ...(base.spec as object), evictionStrategy: 'None' },
    status: {
      ...status,
      conditions: [
        { type: 'Ready', status: 'True' },
        {
          type: 'LiveMigratable',
          status: 'False',
          reason: 'DisksNotLiveMigratable',
          message: `cannot migrate VMI: PVC ${name}-rootdisk is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)`,
        },
      ],
    },
  };
}

export function kubevirtCr(opts: { methods?: string[]; version?: string; phase?: string } = {}): KubeObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: 'kubevirt' },
    spec: { configuration: { evictionStrategy: 'LiveMigrate' }, workloadUpdateStrategy: { workloadUpdateMethods: opts.methods ?? ['LiveMigrate'], batchEvictionSize: 10 } },
    status: { phase: opts.phase ?? 'Deployed', observedKubeVirtVersion: opts.version ?? 'v1.2.0', targetKubeVirtVersion: opts.version ?? 'v1.2.0' },
  };
}

export function seedHealthyCluster(store: ResourceStore): void {
  for (const ns of ['kubevirt', 'vms', 'ingress-nginx', 'portworx']) store.upsert('namespaces', namespace(ns));
  store.upsert('nodes', node('node-1', { roles: ['control-plane'], ip: '10.10.0.1' }));
  store.upsert('nodes', node('node-2', { ip: '10.10.0.2' }));
  store.upsert('nodes', node('node-3', { ip: '10.10.0.3' }));
  for (const name of ['web-01', 'web-02', 'db-01', 'build-cache-01']) store.upsert('virtualmachines', vm('vms', name));
  store.upsert('virtualmachines', vm('vms', 'legacy-app-01', { runStrategy: 'Halted', status: 'Stopped' }));
  store.upsert('virtualmachineinstances', vmi('vms', 'web-01', { node: 'node-1' }));
  store.upsert('virtualmachineinstances', vmi('vms', 'web-02', { node: 'node-2' }));
  store.upsert('virtualmachineinstances', vmi('vms', 'db-01', { node: 'node-2' }));
  store.upsert('virtualmachineinstances', localDiskVmi('vms', 'build-cache-01', 'node-3'));
  store.upsert('virtualmachineinstancemigrations', vmim('vms', 'kubevirt-workload-update-old', 'db-01', 'Succeeded'));
  store.upsert('services', service('ingress-nginx', 'ingress-nginx-controller', { type: 'LoadBalancer', lbIp: '10.10.0.50' }));
  store.upsert('services', service('vms', 'db-01-ssh'));
  store.upsert('kubevirts', kubevirtCr());
  store.upsert('cdis', { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'CDI', metadata: { name: 'cdi' }, spec: {}, status: { phase: 'Deployed', observedVersion: 'v1.58.0' } });
  store.upsert('storageclusters', {
    apiVersion: 'core.libopenstorage.org/v1',
    kind: 'StorageCluster',
    metadata: { name: 'px-cluster', namespace: 'portworx' },
    spec: {},
    status: { phase: 'Running', conditions: [{ type: 'RuntimeState', status: 'Online' }] },
  });
  store.upsert('storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'px-vm-block' }, provisioner: 'pxd.portworx.com' });
  store.upsert('network-attachment-definitions', { apiVersion: 'k8s.cni.cncf.io/v1', kind: 'NetworkAttachmentDefinition', metadata: { name: 'vlan-128', namespace: 'vms' }, spec: { config: '{}' } });
}

/** What makes an upgrade harder: a NotReady node, a failed migration, a VMI already outdated. */
export function degrade(store: ResourceStore): void {
  store.upsert('nodes', node('node-3', { ready: false, ip: '10.10.0.3' }));
  const failed = vmim('vms', 'kubevirt-workload-update-x1', 'web-02', 'Failed');
  (failed.status as Record<string, unknown>).migrationState = { failed: true, failureReason: 'client socket is closed' };
  store.upsert('virtualmachineinstancemigrations', failed);
  store.upsert('virtualmachineinstances', vmi('vms', 'db-01', { node: 'node-2', outdated: true }));
}
