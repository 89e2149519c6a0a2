/**
 * The lab site: its fixed addresses and names, and the twelve customizations of spec 9.2 that its
 * deployed profiles carry on top of each pack version's defaults. Each customization edits the
 * values document through the Document API, at the path the values library and the runbook's
 * rules use, so comments and macros stay as they were.
 */
import { isMap, isScalar, type Document } from 'yaml';
import type { PackDefaults, PackManifestDefaults, SiteLayout } from './pack-catalog.js';
import { appendUnique, parseValues, printValues, setMapEntry, setQuoted, setValue } from './yaml-edit.js';

export const labSite = {
  clusterName: 'vmo-prod-east',
  /** The fixed ingress address (DNS records point at it). */
  ingressIP: '10.10.100.60',
  ingressService: 'ingress-nginx/ingress-nginx-controller',
  /** Value of the `${metallb-ip-pool}` profile variable on this cluster. */
  loadBalancerPool: '10.10.100.50-10.10.100.99',
  /** Services meant to hold a load-balancer address (each asks for its own). */
  intendedLoadBalancerServices: ['ingress-nginx/ingress-nginx-controller', 'virtual-machines/web-frontend-lb'] as string[],
  webFrontendIP: '10.10.100.61',
  blockStorageClass: 'px-vm-block',
  storageClassParameters: { repl: '3', io_profile: 'db_remote', priority_io: 'high' } as Record<string, string>,
  storageCluster: 'portworx/px-cluster',
  pvcControllerPort: '10261',
  pvcControllerSecurePort: '10262',
  /** The platform-managed pod CIDR: a macro the platform fills in, never a literal. */
  podCidrMacro: '{{ .spectro.system.kubernetes.podCIDR }}',
  /** What the macro resolves to on this cluster (the kubernetes pack's `pack.podCIDR`). */
  podCidr: '100.64.0.0/18',
  nodeNetwork: '10.10.8.0/21',
  secureBootFeatureGate: 'SMM',
  /** Values of the other profile variables the packs use. */
  profileVariables: {
    'metallb-ip-pool': '10.10.100.50-10.10.100.99',
    'vmo-network-interface': 'br0',
    'vm-vlans': '128,129',
    'host-vlans': '128,129',
    'grafana-admin-password': 'lab-only-not-a-secret',
  } as Record<string, string>,
} as const;

/**
 * The Rook-Ceph site (scenario `rook-ceph`): the same cluster, with Rook-Ceph for block storage
 * (the public Palette VMO tutorial's choice) and a lean add-on profile without ingress or monitoring.
 */
export const labRookSite = {
  blockStorageClass: 'ceph-vm-block',
  /** `rxbounce` keeps Windows guests on RBD free of CRC errors; the extra image features speed up snapshots and clones. */
  storageClassParameters: { imageFeatures: 'layering,exclusive-lock,object-map,fast-diff', mapOptions: 'krbd:rxbounce' } as Record<string, string>,
  storageCluster: 'rook-ceph/rook-ceph',
  intendedLoadBalancerServices: ['virtual-machines/web-frontend-lb'] as string[],
} as const;

/** Rook-Ceph runs where the drives are, and may run on the control-plane nodes (which carry drives here). */
export const rookPlacement = {
  nodeAffinity: storageNodeAffinityFor('px/enabled'),
  tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
};

export const issuerManifest: PackManifestDefaults = {
  name: 'issuer-selfsigned',
  content: [
    '# Self-signed issuer for internal TLS (Grafana, webhooks); added by the site',
    'apiVersion: cert-manager.io/v1',
    'kind: ClusterIssuer',
    'metadata:',
    '  name: selfsigned',
    'spec:',
    '  selfSigned: {}',
    '',
  ].join('\n'),
};

/** Nodes labelled `<label>=false` (compute-only workers without drives) run no storage. */
function storageNodeAffinityFor(label: string) {
  return {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: label, operator: 'NotIn', values: ['false'] }] }],
    },
  };
}

/** Nodes labelled `px/enabled=false` (compute-only workers without drives) run no storage. */
export const storageNodeAffinity = storageNodeAffinityFor('px/enabled');

export type CustomizationId =
  | 'metallb-auto-assign'
  | 'ingress-load-balancer-ip'
  | 'kubevirt-smm-feature-gate'
  | 'monitoring-issuer-selfsigned'
  | 'cilium-pod-cidr-macro'
  | 'storage-class-name'
  | 'storage-class-parameters'
  | 'storage-class-virt-annotation'
  | 'storage-node-affinity'
  | 'storage-run-on-master'
  | 'storage-pvc-controller-ports'
  | 'storage-activate-license';

export type RookCustomizationId = 'rook-storage-class-name' | 'rook-storage-class-parameters' | 'rook-storage-class-virt-annotation' | 'rook-storage-placement' | 'rook-storage-control-plane';

export interface Customization<Id extends string = CustomizationId> {
  id: Id;
  role: 'addon' | 'infra';
  pack: string;
  /** The values path (rule syntax) or `manifest:<name>`. */
  setting: string;
  /** Changes the pack's values document (or manifests) from the default to the site's setting. */
  applyValues?: (doc: Document) => void;
  manifest?: PackManifestDefaults;
}

const px = ['charts', 'portworx-generic'];
const vmoGates = ['charts', 'virtual-machine-orchestrator', 'kubevirt', 'kubevirtResource', 'additionalFeatureGates'];

export const customizations: Customization[] = [
  {
    id: 'metallb-auto-assign',
    role: 'addon',
    pack: 'lb-metallb-helm',
    setting: 'charts.metallb-full.configuration.ipaddresspools.*.spec.autoAssign',
    applyValues: (doc) => {
      const poolsPath = ['charts', 'metallb-full', 'configuration', 'ipaddresspools'];
      const pools = doc.getIn(poolsPath, true);
      if (!isMap(pools)) return;
      for (const item of pools.items) {
        const name = isScalar(item.key) ? String(item.key.value) : String(item.key);
        setValue(doc, [...poolsPath, name, 'spec', 'autoAssign'], false);
      }
    },
  },
  {
    id: 'ingress-load-balancer-ip',
    role: 'addon',
    pack: 'nginx',
    setting: 'charts.ingress-nginx.controller.service.loadBalancerIP',
    applyValues: (doc) => setQuoted(doc, ['charts', 'ingress-nginx', 'controller', 'service', 'loadBalancerIP'], labSite.ingressIP),
  },
  {
    id: 'kubevirt-smm-feature-gate',
    role: 'addon',
    pack: 'virtual-machine-orchestrator',
    setting: 'charts.virtual-machine-orchestrator.kubevirt.kubevirtResource.additionalFeatureGates',
    applyValues: (doc) => appendUnique(doc, vmoGates, labSite.secureBootFeatureGate),
  },
  {
    id: 'monitoring-issuer-selfsigned',
    role: 'addon',
    pack: 'prometheus-operator',
    setting: 'manifest:issuer-selfsigned',
    manifest: issuerManifest,
  },
  {
    id: 'cilium-pod-cidr-macro',
    role: 'infra',
    pack: 'cni-cilium-oss',
    setting: 'charts.cilium.ipam.operator.clusterPoolIPv4PodCIDRList',
    applyValues: (doc) => setQuoted(doc, ['charts', 'cilium', 'ipam', 'operator', 'clusterPoolIPv4PodCIDRList', 0], labSite.podCidrMacro),
  },
  {
    id: 'storage-class-name',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageClass.name',
    applyValues: (doc) => setValue(doc, [...px, 'storageClass', 'name'], labSite.blockStorageClass),
  },
  {
    id: 'storage-class-parameters',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageClass.parameters',
    applyValues: (doc) => setValue(doc, [...px, 'storageClass', 'parameters'], { ...labSite.storageClassParameters }),
  },
  {
    id: 'storage-class-virt-annotation',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageClass.annotations["storageclass.kubevirt.io/is-default-virt-class"]',
    applyValues: (doc) => setMapEntry(doc, [...px, 'storageClass', 'annotations'], 'storageclass.kubevirt.io/is-default-virt-class', 'true'),
  },
  {
    id: 'storage-node-affinity',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageCluster.spec.placement.nodeAffinity',
    applyValues: (doc) => setValue(doc, [...px, 'storageCluster', 'spec', 'placement', 'nodeAffinity'], storageNodeAffinity),
  },
  {
    id: 'storage-run-on-master',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageCluster.annotations["portworx.io/run-on-master"]',
    applyValues: (doc) => setMapEntry(doc, [...px, 'storageCluster', 'annotations'], 'portworx.io/run-on-master', 'true'),
  },
  {
    id: 'storage-pvc-controller-ports',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.storageCluster.annotations["portworx.io/pvc-controller-port"]',
    applyValues: (doc) => {
      setMapEntry(doc, [...px, 'storageCluster', 'annotations'], 'portworx.io/pvc-controller-port', labSite.pvcControllerPort);
      setMapEntry(doc, [...px, 'storageCluster', 'annotations'], 'portworx.io/pvc-controller-secure-port', labSite.pvcControllerSecurePort);
    },
  },
  {
    id: 'storage-activate-license',
    role: 'infra',
    pack: 'csi-portworx-generic',
    setting: 'charts.portworx-generic.activateLicense',
    applyValues: (doc) => setValue(doc, [...px, 'activateLicense'], false),
  },
];

const pool = ['charts', 'rook-ceph-cluster', 'cephBlockPools', 0, 'storageClass'];
const rookAll = ['charts', 'rook-ceph-cluster', 'cephClusterSpec', 'placement', 'all'];

/** The Rook-Ceph site's storage settings (spec 9.2's storage rows that apply to Rook-Ceph). */
export const rookCustomizations: Array<Customization<RookCustomizationId>> = [
  { id: 'rook-storage-class-name', role: 'infra', pack: 'csi-rook-ceph-helm', setting: 'charts.rook-ceph-cluster.cephBlockPools[0].storageClass.name', applyValues: (doc) => setValue(doc, [...pool, 'name'], labRookSite.blockStorageClass) },
  {
    id: 'rook-storage-class-parameters',
    role: 'infra',
    pack: 'csi-rook-ceph-helm',
    setting: 'charts.rook-ceph-cluster.cephBlockPools[0].storageClass.parameters',
    applyValues: (doc) => {
      for (const [k, v] of Object.entries(labRookSite.storageClassParameters)) setMapEntry(doc, [...pool, 'parameters'], k, v);
    },
  },
  {
    id: 'rook-storage-class-virt-annotation',
    role: 'infra',
    pack: 'csi-rook-ceph-helm',
    setting: 'charts.rook-ceph-cluster.cephBlockPools[0].storageClass.annotations["storageclass.kubevirt.io/is-default-virt-class"]',
    applyValues: (doc) => setMapEntry(doc, [...pool, 'annotations'], 'storageclass.kubevirt.io/is-default-virt-class', 'true'),
  },
  { id: 'rook-storage-placement', role: 'infra', pack: 'csi-rook-ceph-helm', setting: 'charts.rook-ceph-cluster.cephClusterSpec.placement.all.nodeAffinity', applyValues: (doc) => setValue(doc, [...rookAll, 'nodeAffinity'], rookPlacement.nodeAffinity) },
  { id: 'rook-storage-control-plane', role: 'infra', pack: 'csi-rook-ceph-helm', setting: 'charts.rook-ceph-cluster.cephClusterSpec.placement.all.tolerations', applyValues: (doc) => setValue(doc, [...rookAll, 'tolerations'], rookPlacement.tolerations) },
];

export type VmoAccessCustomizationId = 'vmo-console-address' | 'vmo-snapshot-crds';

/**
 * The `rook-ceph-no-placement` site reaches its VM dashboard directly (Palette docs,
 * vm-management/vmo-pack/configure-console-base-address.md: the address goes into
 * `appConfig.clusterInfo.consoleBaseAddress`), and its CSI brings its own snapshot CRDs (so the VMO
 * pack installs none: `snapshotController.installCRDs`, a 4.9.x parameter that 4.10.0 removed).
 */
export const vmoAccessCustomizations: Array<Customization<VmoAccessCustomizationId>> = [
  {
    id: 'vmo-console-address',
    role: 'addon',
    pack: 'virtual-machine-orchestrator',
    setting: 'charts.virtual-machine-orchestrator.appConfig.clusterInfo.consoleBaseAddress',
    applyValues: (doc) => setQuoted(doc, ['charts', 'virtual-machine-orchestrator', 'appConfig', 'clusterInfo', 'consoleBaseAddress'], labNoPlacementSite.consoleBaseAddress),
  },
  {
    id: 'vmo-snapshot-crds',
    role: 'addon',
    pack: 'virtual-machine-orchestrator',
    setting: 'charts.virtual-machine-orchestrator.snapshotController.installCRDs',
    applyValues: (doc) => setValue(doc, ['charts', 'virtual-machine-orchestrator', 'snapshotController', 'installCRDs'], false),
  },
];

/** The Rook-Ceph site that never set storage placement, a control-plane toleration or the VM class annotation. */
export const labNoPlacementSite = {
  consoleBaseAddress: 'https://vmo.dc1.example.internal',
  never: new Set<RookCustomizationId>(['rook-storage-placement', 'rook-storage-control-plane', 'rook-storage-class-virt-annotation']),
} as const;

type AnyCustomizationId = CustomizationId | RookCustomizationId | VmoAccessCustomizationId;

/**
 * The values with the customizations' edits, once per distinct values and edits in a process: every
 * lab (a fleet's worlds, a test worker's labs) customizes the same pack versions, and parsing and
 * printing a 3,000-line document with its comments is most of a lab's start.
 */
const edited = new Map<string, string>();

function customizedValues(values: string, editors: ReadonlyArray<Customization<AnyCustomizationId>>): string {
  const key = `${editors.map((c) => c.id).join(',')}\u0000${values}`;
  let text = edited.get(key);
  if (text === undefined) {
    const doc = parseValues(values);
    for (const c of editors) c.applyValues!(doc);
    text = printValues(doc, values);
    if (edited.size >= 256) edited.clear();
    edited.set(key, text);
  }
  return text;
}

/** What a site layout sets beyond the shared customizations, and what it never set. */
function layoutCustomizations(layout: SiteLayout): Array<Customization<AnyCustomizationId>> {
  const all: Array<Customization<AnyCustomizationId>> = [...customizations, ...rookCustomizations];
  if (layout !== 'rook-ceph-no-placement') return all;
  return [...all.filter((c) => !labNoPlacementSite.never.has(c.id as RookCustomizationId)), ...vmoAccessCustomizations];
}

/**
 * A pack as the site runs it: the version's defaults with every customization for that pack
 * applied (those of the site's layout), except those listed in `without` (to reproduce a profile that lost them).
 */
export function customizePack(pack: PackDefaults, without: ReadonlySet<AnyCustomizationId> = new Set(), layout: SiteLayout = 'standard'): PackDefaults {
  const mine = layoutCustomizations(layout).filter((c) => c.pack === pack.name && !without.has(c.id));
  if (mine.length === 0) return pack;
  const editors = mine.filter((c) => c.applyValues);
  const values = editors.length > 0 ? customizedValues(pack.values, editors) : pack.values;
  const manifests = [...pack.manifests, ...mine.flatMap((c) => (c.manifest ? [c.manifest] : []))];
  return { ...pack, values, manifests };
}
