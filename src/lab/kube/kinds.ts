/**
 * The resource types the Kubernetes API double serves, described as discovery describes them.
 * `fieldLabels` are the field selectors the real apiserver accepts for each type: built-in types
 * support a handful of fields, custom resources only `metadata.name` and `metadata.namespace`.
 * The server refuses the rest exactly as a real cluster does, so a query that works in the lab
 * (say `status.phase` on VMIs) cannot fail for the first time on a real cluster.
 */
import type { ResourceType } from './types.js';

export interface ServedType extends ResourceType {
  /** Field selector paths the server accepts for this type. */
  fieldLabels: readonly string[];
  /** A CustomResourceDefinition's type: tables follow its printer columns. */
  custom: boolean;
}

/** A subresource served under another API group, like KubeVirt's `subresources.kubevirt.io`. */
export interface ForeignSubresource {
  group: string;
  version: string;
  /** The parent type's plural, e.g. `virtualmachines`. */
  resource: string;
  subresource: string;
  namespaced: boolean;
  verbs: string[];
}

const SERVED_VERBS = ['delete', 'get', 'list'];

function builtin(t: Omit<ServedType, 'custom' | 'verbs'> & { verbs?: string[] }): ServedType {
  return { verbs: SERVED_VERBS, ...t, custom: false };
}

/** Custom resources select on `metadata.name`, and on `metadata.namespace` when namespaced. */
function custom(t: Omit<ServedType, 'custom' | 'verbs' | 'fieldLabels'>): ServedType {
  const fieldLabels = t.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name'];
  return { verbs: SERVED_VERBS, fieldLabels, ...t, custom: true };
}

export const SERVED_TYPES: readonly ServedType[] = [
  builtin({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    fieldLabels: ['metadata.name', 'status.phase'],
  }),
  builtin({
    group: '',
    version: 'v1',
    resource: 'nodes',
    kind: 'Node',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    fieldLabels: ['metadata.name', 'spec.unschedulable'],
  }),
  builtin({
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['log'],
    fieldLabels: [
      'metadata.name',
      'metadata.namespace',
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  builtin({
    group: '',
    version: 'v1',
    resource: 'services',
    kind: 'Service',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    fieldLabels: ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'],
  }),
  builtin({
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    fieldLabels: [
      'metadata.name',
      'metadata.namespace',
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    fieldLabels: ['metadata.name', 'metadata.namespace'],
  }),
  builtin({
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'storageclasses',
    kind: 'StorageClass',
    singular: 'storageclass',
    namespaced: false,
    shortNames: ['sc'],
    fieldLabels: ['metadata.name'],
  }),
  custom({
    group: 'k8s.cni.cncf.io',
    version: 'v1',
    resource: 'network-attachment-definitions',
    kind: 'NetworkAttachmentDefinition',
    singular: 'network-attachment-definition',
    namespaced: true,
    shortNames: ['net-attach-def'],
  }),
  // virt-operator installs the MigrationPolicy CRD with KubeVirt (kubevirt/api migrations/v1alpha1; cluster-scoped).
  custom({
    group: 'migrations.kubevirt.io',
    version: 'v1alpha1',
    resource: 'migrationpolicies',
    kind: 'MigrationPolicy',
    singular: 'migrationpolicy',
    namespaced: false,
  }),
  custom({
    group: 'kubevirt.io',
    version: 'v1',
    resource: 'kubevirts',
    kind: 'KubeVirt',
    singular: 'kubevirt',
    namespaced: true,
    shortNames: ['kv', 'kvs'],
  }),
  custom({
    group: 'kubevirt.io',
    version: 'v1',
    resource: 'virtualmachines',
    kind: 'VirtualMachine',
    singular: 'virtualmachine',
    namespaced: true,
    shortNames: ['vm', 'vms'],
    categories: ['all'],
    // Served under subresources.kubevirt.io (see FOREIGN_SUBRESOURCES), as KubeVirt's virt-api does.
    subresources: ['restart'],
  }),
  custom({
    group: 'kubevirt.io',
    version: 'v1',
    resource: 'virtualmachineinstances',
    kind: 'VirtualMachineInstance',
    singular: 'virtualmachineinstance',
    namespaced: true,
    shortNames: ['vmi', 'vmis'],
    categories: ['all'],
  }),
  custom({
    group: 'kubevirt.io',
    version: 'v1',
    resource: 'virtualmachineinstancemigrations',
    kind: 'VirtualMachineInstanceMigration',
    singular: 'virtualmachineinstancemigration',
    namespaced: true,
    shortNames: ['vmim', 'vmims'],
    categories: ['all'],
  }),
  custom({
    group: 'cdi.kubevirt.io',
    version: 'v1beta1',
    resource: 'cdis',
    kind: 'CDI',
    singular: 'cdi',
    namespaced: false,
    shortNames: ['cdi', 'cdis'],
  }),
  custom({
    group: 'core.libopenstorage.org',
    version: 'v1',
    resource: 'storageclusters',
    kind: 'StorageCluster',
    singular: 'storagecluster',
    namespaced: true,
    shortNames: ['stc'],
  }),
  custom({
    group: 'ceph.rook.io',
    version: 'v1',
    resource: 'cephclusters',
    kind: 'CephCluster',
    singular: 'cephcluster',
    namespaced: true,
    shortNames: ['ceph'],
  }),
];

export const FOREIGN_SUBRESOURCES: readonly ForeignSubresource[] = [
  { group: 'subresources.kubevirt.io', version: 'v1', resource: 'virtualmachines', subresource: 'restart', namespaced: true, verbs: ['update'] },
];

const byResource = new Map(SERVED_TYPES.map((t) => [t.resource, t]));
const byGroupVersionResource = new Map(SERVED_TYPES.map((t) => [`${t.group}/${t.version}/${t.resource}`, t]));

/** The served type for a plural resource name; throws for names the lab does not serve (a programming error). */
export function servedType(resource: string): ServedType {
  const t = byResource.get(resource);
  if (!t) throw new Error(`The lab's Kubernetes API does not serve "${resource}"; known: ${[...byResource.keys()].join(', ')}`);
  return t;
}

export function findServedType(group: string, version: string, resource: string): ServedType | undefined {
  return byGroupVersionResource.get(`${group}/${version}/${resource}`);
}

export function findForeignSubresource(group: string, version: string, resource: string, subresource: string): ForeignSubresource | undefined {
  return FOREIGN_SUBRESOURCES.find((s) => s.group === group && s.version === version && s.resource === resource && s.subresource === subresource);
}

/** `pods` for the core group, `virtualmachineinstances.kubevirt.io` otherwise: how apiserver messages name a resource. */
export function qualifiedResource(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`;
}

/** Subresources served in the type's own API group (`pods/log`); KubeVirt's live under FOREIGN_SUBRESOURCES. */
export function localSubresources(t: ResourceType): string[] {
  return (t.subresources ?? []).filter((s) => !FOREIGN_SUBRESOURCES.some((f) => f.resource === t.resource && f.subresource === s));
}
