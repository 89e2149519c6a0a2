/**
 * KubeVirt's reasons for `LiveMigratable=False` (kubevirt/api core/v1 types.go,
 * `VirtualMachineInstanceReason*NotMigratable`; set by virt-handler's
 * `calculateLiveMigrationCondition`), in words an operator acts on: what blocks the move and what
 * would lift it.
 */
const explained: Record<string, string> = {
  DisksNotLiveMigratable: 'a disk cannot follow it to another node (a ReadWriteOnce volume, a hostDisk, or shared and unshared volumes mixed): give it ReadWriteMany storage to let it live-migrate',
  InterfaceNotLiveMigratable: 'a network interface cannot move (e.g. a bridge binding on the pod network): use masquerade on the pod network or a Multus bridge',
  HotplugNotLiveMigratable: 'it has hotplugged devices that cannot move: unplug them, or restart it',
  CPUModeLiveMigratable: 'its CPU model (host-model/host-passthrough) has no other node with the same CPU: pick a named CPU model',
  VirtIOFSNotLiveMigratable: 'it shares a filesystem through virtiofs, which cannot move in this KubeVirt',
  HostDeviceNotLiveMigratable: 'it uses a host device passed through (GPU, PCI, mediated device): it is bound to its node',
  SEVNotLiveMigratable: 'it runs with AMD SEV memory encryption, which cannot move',
  NoTSCFrequencyNotLiveMigratable: 'its invariant TSC needs the same CPU frequency on the target and none is known',
  HypervPassthroughNotLiveMigratable: 'it passes Hyper-V enlightenments through from the host',
  PersistentReservationNotLiveMigratable: 'it holds a SCSI persistent reservation on a disk',
  SecureExecutionNotLiveMigratable: 'it runs in IBM Secure Execution, which cannot move',
};

/** The operator's words for a reason code (unknown codes are named as they are). */
export function reasonText(code: string | undefined, message: string | undefined): string {
  if (!code) return message ?? 'KubeVirt says it cannot live-migrate';
  return explained[code] ?? message ?? `KubeVirt says ${code}`;
}

export const knownReasonCodes = Object.keys(explained);
