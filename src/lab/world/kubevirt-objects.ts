/**
 * Builders for KubeVirt and CDI objects (KubeVirt and CDI CRs, VMs, VMIs, migrations, launcher
 * pods) with the fields real KubeVirt 1.2–1.4 writes and the tool reads.
 */
import type { KubeObject } from '../kube/types.js';
import { podObject, type PodState } from './k8s-objects.js';

export const outdatedLabel = 'kubevirt.io/outdatedLauncherImage';
export const workloadUpdateAnnotation = 'kubevirt.io/workloadUpdateMigration';

export type RunStrategy = 'Always' | 'Halted' | 'RerunOnFailure' | 'Manual' | 'Once';

export interface VmDefinition {
  namespace: string;
  name: string;
  runStrategy: RunStrategy;
  cores: number;
  memoryGi: number;
  os: 'ubuntu' | 'windows' | 'rhel' | 'fedora';
  /** EFI secure boot (a VM migrated from another hypervisor): needs the SMM feature gate. */
  secureBoot?: boolean;
  /** A disk on a node-local volume: the VMI cannot live-migrate. */
  localDisk?: boolean;
  /** Node its VMI runs on (local-disk VMs stay there). */
  node?: string;
  /** Secondary networks (NetworkAttachmentDefinitions, `namespace/name`). */
  networks?: string[];
  labels?: Record<string, string>;
  /** The VM's own annotations (an owner's limits: upgrade-pilot.io/max-downtime, restart-window). */
  annotations?: Record<string, string>;
  /** How fast the guest dirties its memory (MiB/s): served as `kubevirt_vmi_dirty_rate_bytes_per_second`; above the bandwidth a migration cannot converge. */
  dirtyRateMiBps?: number;
}

const osImages: Record<VmDefinition['os'], string> = {
  ubuntu: 'template-ubuntu-2204',
  windows: 'template-windows-2022',
  rhel: 'template-rhel-9',
  fedora: 'template-fedora-37',
};

export function vmTemplateSpec(vm: VmDefinition): Record<string, unknown> {
  const secondary = vm.networks ?? [];
  return {
    architecture: 'amd64',
    domain: {
      cpu: { cores: vm.cores, sockets: 1, threads: 1 },
      memory: { guest: `${vm.memoryGi}Gi` },
      devices: {
        disks: [{ name: 'rootdisk', disk: { bus: vm.os === 'windows' ? 'sata' : 'virtio' }, bootOrder: 1 }, ...(vm.os === 'windows' ? [] : [{ name: 'cloudinitdisk', disk: { bus: 'virtio' } }])],
        interfaces: [{ name: 'default', masquerade: {} }, ...secondary.map((_, i) => ({ name: `net${i + 1}`, bridge: {} }))],
        ...(vm.secureBoot ? { tpm: { persistent: true } } : {}),
      },
      ...(vm.secureBoot ? { firmware: { bootloader: { efi: { secureBoot: true, persistent: true } } }, features: { smm: { enabled: true }, acpi: { enabled: true } } } : {}),
      machine: { type: 'q35' },
      resources: { requests: { memory: `${vm.memoryGi}Gi` } },
    },
    evictionStrategy: vm.localDisk ? 'None' : 'LiveMigrate',
    networks: [{ name: 'default', pod: {} }, ...secondary.map((nad, i) => ({ name: `net${i + 1}`, multus: { networkName: nad } }))],
    terminationGracePeriodSeconds: 180,
    volumes: [
      { name: 'rootdisk', dataVolume: { name: `${vm.name}-rootdisk` } },
      ...(vm.os === 'windows' ? [] : [{ name: 'cloudinitdisk', cloudInitNoCloud: { userData: '#cloud-config\nssh_pwauth: false\n' } }]),
    ],
    ...(vm.localDisk && vm.node ? { nodeSelector: { 'kubernetes.io/hostname': vm.node } } : {}),
  };
}

export function vmObject(vm: VmDefinition, blockStorageClass: string, created: string): KubeObject {
  const template = vmTemplateSpec(vm);
  // A node-local disk sits on a local volume; every other VM disk on the site's block class
  const storageClassName = vm.localDisk ? 'local-storage' : blockStorageClass;
  const domainLabels = { 'kubevirt.io/domain': vm.name, 'kubevirt.io/size': vm.cores >= 8 ? 'large' : vm.cores >= 4 ? 'medium' : 'small', ...vm.labels };
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: {
      name: vm.name,
      namespace: vm.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'vm-dashboard', ...vm.labels },
      annotations: { 'kubevirt.io/latest-observed-api-version': 'v1', 'kubevirt.io/storage-observed-api-version': 'v1', ...vm.annotations },
      finalizers: ['kubevirt.io/virtualMachineControllerFinalize'],
      generation: 1,
      creationTimestamp: created,
    },
    spec: {
      runStrategy: vm.runStrategy,
      dataVolumeTemplates: [
        {
          metadata: { name: `${vm.name}-rootdisk` },
          spec: {
            source: { pvc: { namespace: 'vmo-golden-images', name: osImages[vm.os] } },
            storage: {
              accessModes: [vm.localDisk ? 'ReadWriteOnce' : 'ReadWriteMany'],
              volumeMode: vm.localDisk ? 'Filesystem' : 'Block',
              storageClassName,
              resources: { requests: { storage: vm.os === 'windows' ? '120Gi' : '50Gi' } },
            },
          },
        },
      ],
      template: { metadata: { labels: domainLabels }, spec: template },
    },
    status: vm.runStrategy === 'Halted' ? vmStatus('Stopped', false, created) : vmStatus('Starting', false, created),
  };
}

export function vmStatus(printable: string, ready: boolean, at: string, failure?: { reason: string; message: string }): Record<string, unknown> {
  return {
    created: printable !== 'Stopped',
    ready,
    printableStatus: printable,
    desiredGeneration: 1,
    observedGeneration: 1,
    conditions: [
      { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at, ...(ready ? {} : { reason: printable === 'Stopped' ? 'VMINotExists' : 'VMINotReady', message: printable === 'Stopped' ? 'VMI does not exist' : 'VMI is not ready' }) },
      ...(failure ? [{ type: 'Failure', status: 'True', lastProbeTime: null, lastTransitionTime: at, reason: failure.reason, message: failure.message }] : []),
    ],
    volumeSnapshotStatuses: [{ name: 'rootdisk', enabled: true }],
  };
}

export interface VmiRuntime {
  uid: string;
  node: string;
  launcherImage: string;
  podIP: string | undefined;
  created: string;
  phase: 'Pending' | 'Scheduling' | 'Scheduled' | 'Running' | 'Failed' | 'Succeeded';
  outdated?: boolean;
  launcherPodUid?: string;
  /**
   * Each phase the VMI went through and when (KubeVirt's virt-controller appends one entry per
   * phase change: Pending, Scheduling, Scheduled, Running); by default only its current phase.
   */
  transitions?: Array<{ phase: string; at: string }>;
}

/**
 * virt-handler builds LiveMigratable without times, so both serialise as null on every running
 * VMI (kubevirt pkg/virt-handler/vm.go `newNonMigratableCondition`; runbook VMCannotBeEvicted).
 */
export function liveMigratableCondition(vm: VmDefinition): Record<string, unknown> {
  return vm.localDisk
    ? {
        type: 'LiveMigratable',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: null,
        reason: 'DisksNotLiveMigratable',
        message: `cannot migrate VMI: PVC ${vm.name}-rootdisk is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)`,
      }
    : { type: 'LiveMigratable', status: 'True', lastProbeTime: null, lastTransitionTime: null };
}

export function vmiObject(vm: VmDefinition, vmUid: string, template: Record<string, unknown>, templateLabels: Record<string, string>, rt: VmiRuntime): KubeObject {
  const running = rt.phase === 'Running';
  const secondary = vm.networks ?? [];
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: {
      name: vm.name,
      namespace: vm.namespace,
      uid: rt.uid,
      creationTimestamp: rt.created,
      labels: { ...templateLabels, 'kubevirt.io/nodeName': rt.node, ...(rt.outdated ? { [outdatedLabel]: '' } : {}) },
      annotations: {
        'kubevirt.io/latest-observed-api-version': 'v1',
        'kubevirt.io/storage-observed-api-version': 'v1',
        'kubevirt.io/vm-generation': '1',
      },
      finalizers: ['kubevirt.io/virtualMachineControllerFinalize', 'foregroundDeleteVirtualMachine'],
      ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: vm.name, uid: vmUid, controller: true, blockOwnerDeletion: true }],
      generation: 1,
    },
    spec: template,
    status: {
      phase: rt.phase,
      nodeName: rt.phase === 'Pending' || rt.phase === 'Scheduling' ? undefined : rt.node,
      launcherContainerImageVersion: rt.launcherImage,
      conditions: [
        { type: 'Ready', status: running ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: rt.created, ...(running ? {} : { reason: 'PodNotReady' }) },
        liveMigratableCondition(vm),
        // A new AgentConnected gets a probe time and no transition time (vm.go `updateGuestAgentConditions`).
        ...(running ? [{ type: 'AgentConnected', status: 'True', lastProbeTime: rt.created, lastTransitionTime: null }] : []),
      ],
      guestOSInfo: running ? guestInfo(vm) : {},
      interfaces: running
        ? [
            { name: 'default', interfaceName: 'eth0', ipAddress: rt.podIP, ipAddresses: rt.podIP ? [rt.podIP] : [], mac: macFor(rt.uid, 0), infoSource: 'domain, guest-agent', queueCount: 1 },
            ...secondary.map((_, i) => ({ name: `net${i + 1}`, interfaceName: `eth${i + 1}`, mac: macFor(rt.uid, i + 1), infoSource: 'domain, guest-agent', queueCount: 1 })),
          ]
        : [],
      migrationMethod: vm.localDisk ? 'BlockMigration' : 'LiveMigration',
      migrationTransport: 'Unix',
      qosClass: 'Burstable',
      machine: { type: 'pc-q35-rhel9.4.0' },
      currentCPUTopology: { cores: vm.cores, sockets: 1, threads: 1 },
      memory: { guestAtBoot: `${vm.memoryGi}Gi`, guestCurrent: `${vm.memoryGi}Gi`, guestRequested: `${vm.memoryGi}Gi` },
      activePods: rt.launcherPodUid ? { [rt.launcherPodUid]: rt.node } : {},
      phaseTransitionTimestamps: (rt.transitions ?? [{ phase: rt.phase, at: rt.created }]).map((t) => ({ phase: t.phase, phaseTransitionTimestamp: t.at })),
      selinuxContext: 'none',
      volumeStatus: [
        { name: 'rootdisk', target: vm.os === 'windows' ? 'sda' : 'vda', persistentVolumeClaimInfo: { claimName: `${vm.name}-rootdisk`, accessModes: [vm.localDisk ? 'ReadWriteOnce' : 'ReadWriteMany'], volumeMode: vm.localDisk ? 'Filesystem' : 'Block' } },
      ],
    },
  };
}

function guestInfo(vm: VmDefinition): Record<string, unknown> {
  switch (vm.os) {
    case 'windows':
      return { id: 'mswindows', name: 'Microsoft Windows Server 2022 Standard', prettyName: 'Windows Server 2022 Standard', version: '2022', kernelRelease: '20348', machine: 'x86_64' };
    case 'rhel':
      return { id: 'rhel', name: 'Red Hat Enterprise Linux', prettyName: 'Red Hat Enterprise Linux 9.4 (Plow)', version: '9.4', kernelRelease: '5.14.0-427.13.1.el9_4.x86_64', machine: 'x86_64' };
    case 'fedora':
      return { id: 'fedora', name: 'Fedora Linux', prettyName: 'Fedora Linux 37 (Cloud Edition)', version: '37', kernelRelease: '6.0.7-301.fc37.x86_64', machine: 'x86_64' };
    default:
      return { id: 'ubuntu', name: 'Ubuntu', prettyName: 'Ubuntu 22.04.4 LTS', version: '22.04', kernelRelease: '5.15.0-105-generic', machine: 'x86_64' };
  }
}

function macFor(uid: string, index: number): string {
  const hex = uid.replace(/-/g, '');
  return `02:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}:${(index + 0x10).toString(16).padStart(2, '0')}`;
}

const Mi = 2 ** 20;

/**
 * What KubeVirt v1.4 puts on a launcher's `compute` container (pkg/virt-controller/services/
 * renderresources.go `GetMemoryOverhead`, constants in template.go): the guest memory plus its
 * overhead - page tables (guest / 512), virt-launcher-monitor 25Mi, virt-launcher 100Mi, virtlogd
 * 25Mi, virtqemud 40Mi, qemu 30Mi, 8Mi per vCPU and 8Mi for the IOThread, 32Mi of video RAM (a
 * graphics device is attached by default) - and a CPU request of the vCPUs over
 * `cpuAllocationRatio` (10 by default: 100m per vCPU, as the copied fedora02 launcher shows for one).
 * The device and ephemeral-storage requests as that copied pod has them.
 */
export function launcherComputeResources(vm: Pick<VmDefinition, 'cores' | 'memoryGi'>): { requests: Record<string, string>; limits: Record<string, string> } {
  const guest = vm.memoryGi * 1024 * Mi;
  const overhead = guest / 512 + (25 + 100 + 25 + 40 + 30) * Mi + vm.cores * 8 * Mi + 8 * Mi + 32 * Mi;
  const devices = { 'devices.kubevirt.io/kvm': '1', 'devices.kubevirt.io/tun': '1', 'devices.kubevirt.io/vhost-net': '1' };
  return { requests: { cpu: `${vm.cores * 100}m`, ...devices, 'ephemeral-storage': '50M', memory: `${Math.ceil((guest + overhead) / Mi)}Mi` }, limits: devices };
}

export interface LauncherPodInput {
  vm: VmDefinition;
  vmiUid: string;
  name: string;
  node: string;
  image: string;
  podIP: string | undefined;
  hostIP: string | undefined;
  created: string;
  state: PodState;
  /** A migration target pod. */
  migrationJobUid?: string;
}

export function launcherPodObject(p: LauncherPodInput): KubeObject {
  const networks = p.vm.networks ?? [];
  return podObject({
    namespace: p.vm.namespace,
    name: p.name,
    node: p.node,
    labels: {
      // KubeVirt copies the VMI's labels onto its launcher pod (services select VMs through them)
      ...p.vm.labels,
      'kubevirt.io': 'virt-launcher',
      'kubevirt.io/created-by': p.vmiUid,
      'kubevirt.io/domain': p.vm.name,
      'vm.kubevirt.io/name': p.vm.name,
      'kubevirt.io/size': p.vm.cores >= 8 ? 'large' : p.vm.cores >= 4 ? 'medium' : 'small',
      ...(p.migrationJobUid ? { 'kubevirt.io/migrationJobUID': p.migrationJobUid } : {}),
    },
    annotations: {
      'kubectl.kubernetes.io/default-container': 'compute',
      'kubevirt.io/domain': p.vm.name,
      'kubevirt.io/migrationTransportUnix': 'true',
      'post.hook.backup.velero.io/command': `["/usr/bin/virt-freezer", "--unfreeze", "--name", "${p.vm.name}", "--namespace", "${p.vm.namespace}"]`,
      ...(networks.length > 0 ? { 'k8s.v1.cni.cncf.io/networks': JSON.stringify(networks.map((n, i) => ({ name: n.split('/')[1], namespace: n.split('/')[0], interface: `pod${i + 1}` }))) } : {}),
    },
    owner: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: p.vm.name, uid: p.vmiUid },
    containers: [
      { name: 'compute', image: p.image, resources: launcherComputeResources(p.vm) },
      { name: 'guest-console-log', image: p.image },
    ],
    // As KubeVirt renders every launcher (the copied fedora02 pod): only nodes virt-handler labelled schedulable.
    // The VMI's own node selector comes along (a VM on a node-local disk is pinned to its node).
    nodeSelector: { 'kubevirt.io/schedulable': 'true', ...(p.vm.localDisk && p.vm.node ? { 'kubernetes.io/hostname': p.vm.node } : {}) },
    extraTolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }],
    podIP: p.podIP,
    hostIP: p.hostIP,
    restartPolicy: 'Never',
    serviceAccountName: 'default',
    created: p.created,
    state: p.state,
  });
}

export interface MigrationStateInput {
  migrationUid: string;
  sourceNode: string;
  targetNode: string;
  sourcePod: string;
  targetPod: string;
  startTimestamp?: string;
  endTimestamp?: string;
  completed: boolean;
  failed: boolean;
  failureReason?: string;
  abortRequested?: boolean;
  abortStatus?: 'Succeeded' | 'Failed' | 'Aborting';
}

/**
 * A VMI's (and its VMIM's) `status.migrationState` as kubevirt/api v1 serialises it: every field is
 * `omitempty`, so `completed`/`failed` appear only once true and empty strings not at all;
 * `migrationConfiguration` is the cluster's migration settings at the time: the lab CR's
 * `spec.configuration.migrations` (kubevirt-operator.ts) over the defaults of pkg/virt-config.
 */
export function migrationState(m: MigrationStateInput): Record<string, unknown> {
  return {
    migrationUid: m.migrationUid,
    sourceNode: m.sourceNode,
    sourcePod: m.sourcePod,
    ...(m.targetNode ? { targetNode: m.targetNode } : {}),
    ...(m.targetPod ? { targetPod: m.targetPod } : {}),
    ...(m.startTimestamp ? { mode: 'PreCopy', startTimestamp: m.startTimestamp } : {}),
    ...(m.endTimestamp ? { endTimestamp: m.endTimestamp } : {}),
    ...(m.completed ? { completed: true } : {}),
    ...(m.failed ? { failed: true } : {}),
    ...(m.failureReason ? { failureReason: m.failureReason } : {}),
    ...(m.abortRequested ? { abortRequested: true } : {}),
    ...(m.abortStatus ? { abortStatus: m.abortStatus } : {}),
    migrationConfiguration: { allowAutoConverge: true, allowPostCopy: false, bandwidthPerMigration: '0Mi', completionTimeoutPerGiB: 800, nodeDrainTaintKey: 'kubevirt.io/drain', parallelMigrationsPerCluster: 5, parallelOutboundMigrationsPerNode: 2, progressTimeout: 150, unsafeMigrationOverride: false },
  };
}

export function migrationObject(namespace: string, name: string, vmiName: string, created: string, workloadUpdate: boolean): KubeObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstanceMigration',
    metadata: {
      name,
      namespace,
      generateName: workloadUpdate ? 'kubevirt-workload-update-' : 'kubevirt-evacuation-',
      labels: { 'kubevirt.io/vmi-name': vmiName },
      annotations: {
        'kubevirt.io/latest-observed-api-version': 'v1',
        'kubevirt.io/storage-observed-api-version': 'v1',
        ...(workloadUpdate ? { [workloadUpdateAnnotation]: '' } : {}),
      },
      finalizers: ['kubevirt.io/migrationJobFinalize'],
      generation: 1,
      creationTimestamp: created,
    },
    spec: { vmiName },
    status: { phase: 'Pending', phaseTransitionTimestamps: [{ phase: 'Pending', phaseTransitionTimestamp: created }] },
  };
}
