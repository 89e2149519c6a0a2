/**
 * What happens when a VMI's launcher is two or more KubeVirt minors behind the running components
 * (spec 9.1.1 and 9.1.3): the new virt-handler calls a gRPC method the old launcher's command
 * server does not have (`GetDomainDirtyRateStats`, answered Unimplemented), migrations fail with a
 * closed client socket or hang in Running, and the launcher cannot find its network-info cache.
 * The texts are those KubeVirt and libvirt write.
 */
import { minorOf } from './kubevirt-operator.js';
import { kubevirtLine } from './logs.js';

export const closedSocketReason =
  "Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')";

export const unimplementedDirtyRate = 'rpc error: code = Unimplemented desc = unknown method GetDomainDirtyRateStats for service kubevirt.cmd.v1.Cmd';

export const networkCachePath = (vmiUid: string): string => `/var/run/kubevirt-private/network-info-cache/${vmiUid}/eth0`;

/** The version in an image reference (`.../virt-launcher:v1.2.0` → `v1.2.0`). */
export const imageVersion = (image: string): string => image.slice(image.lastIndexOf(':') + 1);

/** True when the launcher is at least two minors behind the component version (a skipped minor). */
export function skippedMinor(launcherImage: string, componentVersion: string): boolean {
  const from = minorOf(imageVersion(launcherImage));
  const to = minorOf(componentVersion);
  return Number.isFinite(from) && Number.isFinite(to) && to - from >= 2;
}

export interface VmiRef {
  namespace: string;
  name: string;
  uid: string;
}

export function handlerDirtyRateLine(at: number, vmi: VmiRef): string {
  return kubevirtLine(at, 'virt-handler', 'error', 'failed to get domain dirty rate stats', {
    kind: 'VirtualMachineInstance',
    name: vmi.name,
    namespace: vmi.namespace,
    uid: vmi.uid,
    reason: unimplementedDirtyRate,
    pos: 'vm.go:3107',
  });
}

export function launcherMigrationFailedLines(at: number, vmi: VmiRef): string[] {
  const reason = "error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')";
  return [
    kubevirtLine(at, 'virt-launcher', 'error', 'Live migration failed.', { kind: '', name: vmi.name, namespace: vmi.namespace, uid: vmi.uid, reason, pos: 'live-migration-source.go:1003' }),
    kubevirtLine(at, 'virt-launcher', 'info', 'Migration finished with error', { kind: '', name: vmi.name, namespace: vmi.namespace, uid: vmi.uid, pos: 'live-migration-source.go:784' }),
  ];
}

export function launcherNetworkCacheLine(at: number, vmi: VmiRef): string {
  return kubevirtLine(at, 'virt-launcher', 'error', 'failed to read the network info cache of the VMI', {
    kind: '',
    name: vmi.name,
    namespace: vmi.namespace,
    uid: vmi.uid,
    reason: `open ${networkCachePath(vmi.uid)}: no such file or directory`,
    pos: 'podnic.go:212',
  });
}

/**
 * Whether a VMI's migrations under a skipped minor fail or hang in Running: fixed per VMI
 * (`namespace/name`), so every attempt for one VMI behaves alike, as it does on a real cluster.
 */
export function skippedMinorOutcome(vmiKey: string): 'fail' | 'stuck' {
  let h = 0;
  for (let i = 0; i < vmiKey.length; i++) h = (Math.imul(h, 31) + vmiKey.charCodeAt(i)) >>> 0;
  return h % 3 === 0 ? 'stuck' : 'fail';
}
