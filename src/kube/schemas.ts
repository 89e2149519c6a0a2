/**
 * The cluster objects as upgrade-pilot reads them: only the fields it uses. Parsing strips the
 * rest, so a 20,000-pod list shrinks to what the checks need as soon as it is read. Every field
 * that kubevirt/api's or k8s.io/api's Go types mark as a pointer or `omitempty` is `opt`: absent
 * and `null` both read as not set (src/io/optional-field.ts).
 */
import { z } from 'zod';
import { opt } from '../io/optional-field.js';
import { SHOWN_TEXT_MAX, sanitizeText } from '../text/sanitize.js';

const str = z.string();
/**
 * Free text the cluster writes (reasons, messages): cut to a length that can be shown. Control
 * characters are already gone (parse-json.ts); a 5 MB condition message is not kept whole.
 */
const text = z.string().transform((s) => (s.length > SHOWN_TEXT_MAX ? sanitizeText(s, { max: SHOWN_TEXT_MAX, multiline: true }) : s));

export const Meta = z.object({
  name: str,
  namespace: opt(str),
  uid: opt(str),
  creationTimestamp: opt(str),
  /** Set once a delete was accepted; a finalizer (a migration's `kubevirt.io/migrationJobFinalize`) keeps the object until it is done. */
  deletionTimestamp: opt(str),
  labels: opt(z.record(str, str)),
  annotations: opt(z.record(str, str)),
});

const Condition = z.object({ type: str, status: str, reason: opt(text), message: opt(text), lastTransitionTime: opt(str) });

/** CPU and memory as a node offers them or a container requests them (resource.Quantity strings). */
const CpuMemory = z.object({ cpu: opt(z.union([str, z.number()])), memory: opt(z.union([str, z.number()])) });

/** `spec.taints[]`: a pod that does not tolerate a NoSchedule / NoExecute taint is not placed there. */
const Taint = z.object({ key: str, value: opt(str), effect: str });

export const NodeSchema = z.object({
  metadata: Meta,
  spec: opt(z.object({ unschedulable: opt(z.boolean()), podCIDR: opt(str), taints: opt(z.array(Taint)) })),
  status: opt(z.object({ conditions: opt(z.array(Condition)), nodeInfo: opt(z.object({ kubeletVersion: opt(str) })), allocatable: opt(CpuMemory) })),
});

const ContainerStatus = z.object({
  name: str,
  ready: z.boolean(),
  restartCount: z.number(),
  state: opt(z.object({ waiting: opt(z.object({ reason: opt(text), message: opt(text) })), terminated: opt(z.object({ reason: opt(text), exitCode: opt(z.number()), finishedAt: opt(str) })) })),
});

/** When a pod condition last changed: the latest one dates a pod's failure (an eviction, a Job's pod that gave up). */
const PodCondition = z.object({ type: str, status: str, lastTransitionTime: opt(str) });

/** Only what the scheduler sums (k8s.io/api core/v1 ResourceRequirements): a container's requests. */
const RequestingContainer = z.object({ resources: opt(z.object({ requests: opt(CpuMemory) })) });
const Toleration = z.object({ key: opt(str), operator: opt(str), value: opt(str), effect: opt(str) });

export const PodSchema = z.object({
  metadata: Meta,
  spec: opt(
    z.object({
      nodeName: opt(str),
      containers: opt(z.array(RequestingContainer)),
      initContainers: opt(z.array(RequestingContainer)),
      /** RuntimeClass overhead the scheduler adds to the pod's requests. */
      overhead: opt(CpuMemory),
      nodeSelector: opt(z.record(str, str)),
      tolerations: opt(z.array(Toleration)),
    }),
  ),
  status: opt(
    z.object({ phase: opt(str), reason: opt(text), message: opt(text), startTime: opt(str), conditions: opt(z.array(PodCondition)), containerStatuses: opt(z.array(ContainerStatus)) }),
  ),
});

export const ServiceSchema = z.object({
  metadata: Meta,
  spec: opt(z.object({ type: opt(str), loadBalancerIP: opt(str), clusterIP: opt(str) })),
  status: opt(z.object({ loadBalancer: opt(z.object({ ingress: opt(z.array(z.object({ ip: opt(str), hostname: opt(str) }))) })) })),
});

export const StorageClassSchema = z.object({ metadata: Meta, provisioner: str, parameters: opt(z.record(str, str)) });

export const NadSchema = z.object({ metadata: Meta });

export const KubeVirtSchema = z.object({
  metadata: Meta,
  spec: opt(
    z.object({
      workloadUpdateStrategy: opt(z.object({ workloadUpdateMethods: opt(z.array(str)), batchEvictionSize: opt(z.number()), batchEvictionInterval: opt(str) })),
      configuration: opt(z.object({ developerConfiguration: opt(z.object({ featureGates: opt(z.array(str)) })) })),
    }),
  ),
  status: opt(
    z.object({
      phase: opt(str),
      observedKubeVirtVersion: opt(str),
      targetKubeVirtVersion: opt(str),
      outdatedVirtualMachineInstanceWorkloads: opt(z.number()),
      conditions: opt(z.array(Condition)),
    }),
  ),
});

export const CdiSchema = z.object({ metadata: Meta, status: opt(z.object({ phase: opt(str), observedVersion: opt(str), targetVersion: opt(str), conditions: opt(z.array(Condition)) })) });

export const VmSchema = z.object({
  metadata: Meta,
  spec: opt(z.object({ runStrategy: opt(str), running: opt(z.boolean()) })),
  status: opt(z.object({ printableStatus: opt(str), ready: opt(z.boolean()) })),
});

export const MigrationState = z.object({
  sourceNode: opt(str),
  targetNode: opt(str),
  startTimestamp: opt(str),
  endTimestamp: opt(str),
  completed: opt(z.boolean()),
  failed: opt(z.boolean()),
  failureReason: opt(text),
  abortRequested: opt(z.boolean()),
  abortStatus: opt(str),
  migrationUid: opt(str),
});

/** Guest memory as KubeVirt writes it: `spec.domain.memory.guest`, else the memory request; `status.memory.guestCurrent` once running. */
const VmiDomain = z.object({
  memory: opt(z.object({ guest: opt(str) })),
  resources: opt(z.object({ requests: opt(z.object({ memory: opt(str), cpu: opt(z.union([str, z.number()])) })) })),
});

export const VmiSchema = z.object({
  metadata: Meta,
  spec: opt(z.object({ evictionStrategy: opt(str), domain: opt(VmiDomain), terminationGracePeriodSeconds: opt(z.number()) })),
  status: opt(
    z.object({
      phase: opt(str),
      /** When each phase began (Pending, Scheduling, Scheduled, Running): how long its last start took. */
      phaseTransitionTimestamps: opt(z.array(z.object({ phase: opt(str), phaseTransitionTimestamp: opt(str) }))),
      memory: opt(z.object({ guestCurrent: opt(str) })),
      nodeName: opt(str),
      conditions: opt(z.array(Condition)),
      migrationState: opt(MigrationState),
      launcherContainerImageVersion: opt(str),
    }),
  ),
});

/**
 * A VM instance as verification reads it (9.3.3): who it is, its labels and its phase. A
 * 5,000-VMI list is the largest read of a round; checking only these fields (the annotations,
 * conditions and migration state go unread) is what keeps verify near the cost of the transfer.
 */
export const VmiPhaseSchema = z.object({
  metadata: z.object({ name: str, namespace: opt(str), creationTimestamp: opt(str), labels: opt(z.record(str, str)) }),
  status: opt(z.object({ phase: opt(str) })),
});

export const VmimSchema = z.object({
  metadata: Meta,
  spec: z.object({ vmiName: str }),
  status: opt(
    z.object({
      phase: opt(str),
      migrationState: opt(MigrationState),
      /** When each phase began (kubevirt/api `VirtualMachineInstanceMigrationPhaseTransitionTimestamp`): how long the target took to start. */
      phaseTransitionTimestamps: opt(z.array(z.object({ phase: opt(str), phaseTransitionTimestamp: opt(str) }))),
    }),
  ),
});

/** Portworx's StorageCluster, or Rook-Ceph's CephCluster (`status.ceph.health`, `status.message`). */
export const StorageClusterSchema = z.object({
  metadata: Meta,
  spec: opt(z.object({ placement: opt(z.record(str, z.unknown())) })),
  status: opt(
    z.object({
      phase: opt(str),
      message: opt(text),
      conditions: opt(z.array(z.object({ type: str, status: str, reason: opt(text), message: opt(text) }))),
      ceph: opt(z.object({ health: opt(str), details: opt(z.record(str, z.object({ message: opt(text), severity: opt(str) }))) })),
    }),
  ),
});

export const EventSchema = z.object({
  metadata: Meta,
  involvedObject: z.object({ kind: opt(str), name: opt(str), namespace: opt(str) }),
  reason: opt(text),
  message: opt(text),
  count: opt(z.number()),
  lastTimestamp: opt(str),
});

/** Namespaces: their labels select MigrationPolicies. */
export const NamespaceSchema = z.object({ metadata: Meta });

/**
 * A MigrationPolicy (kubevirt/api `migrations/v1alpha1`): the settings it overrides and its selectors,
 * maps of labels (`selectors.namespaceSelector`, `selectors.virtualMachineInstanceSelector`).
 */
export const MigrationPolicySchema = z.object({
  metadata: Meta,
  spec: opt(
    z.object({
      allowAutoConverge: opt(z.boolean()),
      allowPostCopy: opt(z.boolean()),
      bandwidthPerMigration: opt(z.union([str, z.number()])),
      completionTimeoutPerGiB: opt(z.number()),
      selectors: opt(z.object({ namespaceSelector: opt(z.record(str, z.unknown())), virtualMachineInstanceSelector: opt(z.record(str, z.unknown())) })),
    }),
  ),
});

export type Namespace = z.infer<typeof NamespaceSchema>;
export type MigrationPolicy = z.infer<typeof MigrationPolicySchema>;
export type Node = z.infer<typeof NodeSchema>;
export type Event = z.infer<typeof EventSchema>;
export type Pod = z.infer<typeof PodSchema>;
export type Service = z.infer<typeof ServiceSchema>;
export type StorageClass = z.infer<typeof StorageClassSchema>;
export type Nad = z.infer<typeof NadSchema>;
export type KubeVirt = z.infer<typeof KubeVirtSchema>;
export type Cdi = z.infer<typeof CdiSchema>;
export type Vm = z.infer<typeof VmSchema>;
export type Vmi = z.infer<typeof VmiSchema>;
export type VmiPhase = z.infer<typeof VmiPhaseSchema>;
export type Vmim = z.infer<typeof VmimSchema>;
export type StorageCluster = z.infer<typeof StorageClusterSchema>;

export const OUTDATED_LABEL = 'kubevirt.io/outdatedLauncherImage';
