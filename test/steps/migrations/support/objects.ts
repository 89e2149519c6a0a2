/**
 * KubeVirt objects for the Kubernetes double, with the fields the migration steps read: the
 * outdated-launcher label, LiveMigratable, migrationState, phases and their times.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../../src/lab/kube/types.js';

export const OUTDATED = 'kubevirt.io/outdatedLauncherImage';
export const ago = (ms: number, now = Date.now()): string => new Date(now - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const min = 60_000;

export interface VmiOptions {
  node?: string;
  phase?: string;
  outdated?: boolean;
  migratable?: boolean;
  uid?: string;
  createdAgoMs?: number;
  launcher?: string;
  lastMigration?: { failed: boolean; reason?: string; source: string; target: string };
}

export function vmi(ns: string, name: string, o: VmiOptions = {}): KubeObject {
  const labels: Record<string, string> = { 'kubevirt.io/nodeName': o.node ?? 'node-1' };
  if (o.outdated ?? true) labels[OUTDATED] = '';
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { name, namespace: ns, uid: o.uid ?? randomUUID(), creationTimestamp: ago(o.createdAgoMs ?? 30 * 24 * 60 * min), labels },
    spec: {},
    status: {
      phase: o.phase ?? 'Running',
      nodeName: o.node ?? 'node-1',
      launcherContainerImageVersion: o.launcher ?? 'registry.example/kubevirt/virt-launcher:v1.2.0',
      conditions: [
        { type: 'Ready', status: 'True' },
        o.migratable === false
          ? { type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: `cannot migrate VMI: PVC ${name}-rootdisk is not shared` }
          : { type: 'LiveMigratable', status: 'True' },
      ],
      ...(o.lastMigration
        ? { migrationState: { sourceNode: o.lastMigration.source, targetNode: o.lastMigration.target, completed: true, failed: o.lastMigration.failed, ...(o.lastMigration.reason ? { failureReason: o.lastMigration.reason } : {}) } }
        : {}),
    },
  };
}

export function vm(ns: string, name: string, runStrategy = 'Always'): KubeObject {
  return { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: ns }, spec: { runStrategy }, status: { printableStatus: runStrategy === 'Halted' ? 'Stopped' : 'Running' } };
}

export interface VmimOptions {
  phase?: string;
  ageMs?: number;
  runningForMs?: number;
  source?: string;
  target?: string;
  reason?: string;
}

export function vmim(ns: string, name: string, vmiName: string, o: VmimOptions = {}): KubeObject {
  const phase = o.phase ?? 'Running';
  const started = o.runningForMs !== undefined ? ago(o.runningForMs) : undefined;
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstanceMigration',
    metadata: { name, namespace: ns, creationTimestamp: ago(o.ageMs ?? o.runningForMs ?? min), labels: { 'kubevirt.io/vmi-name': vmiName } },
    spec: { vmiName },
    status: {
      phase,
      ...(phase === 'Pending'
        ? {}
        : {
            migrationState: {
              sourceNode: o.source ?? 'node-1',
              targetNode: o.target ?? 'node-2',
              ...(started ? { startTimestamp: started } : {}),
              completed: phase === 'Succeeded' || phase === 'Failed',
              failed: phase === 'Failed',
              ...(o.reason ? { failureReason: o.reason } : {}),
            },
          }),
    },
  };
}

export function pod(ns: string, name: string, node: string, labels: Record<string, string>, containers = ['main']): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels },
    spec: { nodeName: node, containers: containers.map((c) => ({ name: c, image: `registry.example/${c}:v1` })) },
    status: { phase: 'Running', containerStatuses: containers.map((c) => ({ name: c, ready: true, restartCount: 0 })) },
  };
}

/**
 * A virt-handler pod; `second` adds the container KubeVirt adds beside it: `virt-launcher-image-holder`
 * when image pull secrets are set (daemonsets.go, NewHandlerDaemonSet), `pr-helper` with persistent reservation.
 */
export const handlerPod = (node: string, second?: 'virt-launcher-image-holder' | 'pr-helper') =>
  pod('kubevirt', `virt-handler-${node}`, node, { 'kubevirt.io': 'virt-handler' }, ['virt-handler', ...(second ? [second] : [])]);

export const launcherPod = (ns: string, vmiName: string, vmiUid: string, node: string) =>
  pod(ns, `virt-launcher-${vmiName}-abcde`, node, { 'kubevirt.io': 'virt-launcher', 'kubevirt.io/created-by': vmiUid, 'vm.kubevirt.io/name': vmiName }, ['compute', 'guest-console-log']);

export function kubevirt(observed = 'v1.4.0', phase = 'Deployed', target = observed): KubeObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: 'kubevirt' },
    spec: { workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'] } },
    status: { phase, observedKubeVirtVersion: observed, targetKubeVirtVersion: target, conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: phase === 'Deployed' ? 'False' : 'True' }] },
  };
}

export const closedSocket = "Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')";

export const dirtyRateLine = (ns: string, name: string) =>
  JSON.stringify({ component: 'virt-handler', level: 'error', msg: 'failed to get domain dirty rate stats', name, namespace: ns, reason: 'rpc error: code = Unimplemented desc = unknown method GetDomainDirtyRateStats for service kubevirt.cmd.v1.Cmd', timestamp: '2026-11-22T04:00:00.000000Z' });

export const networkCacheLine = (ns: string, name: string, uid: string) =>
  JSON.stringify({ component: 'virt-launcher', level: 'error', msg: 'failed to read the network info cache of the VMI', name, namespace: ns, reason: `open /var/run/kubevirt-private/network-info-cache/${uid}/eth0: no such file or directory`, timestamp: '2026-11-22T04:00:00.000000Z' });

/** KubeVirt at v1.4.0 and two running VMs still on the old launcher: vms/web-01 on node-1, vms/web-02 on node-2. */
export function twoOutdatedVms(s: { upsert(resource: string, object: KubeObject): unknown }): void {
  s.upsert('kubevirts', kubevirt('v1.4.0'));
  for (const [name, node] of [
    ['web-01', 'node-1'],
    ['web-02', 'node-2'],
  ] as const) {
    s.upsert('virtualmachines', vm('vms', name));
    s.upsert('virtualmachineinstances', vmi('vms', name, { node }));
  }
}
