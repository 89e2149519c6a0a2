/**
 * The pack versions the lab's scenarios use, with their default values: what a Palette pack
 * registry would hand out for each tag. One "stack" per orchestration pack (VMO) minor: the VMO tag
 * plus the tags of every other pack published with it, so each hop changes both profiles.
 *
 * Documents are the real Palette values files (copied from the shared fixtures) or realistic authored
 * ones. Tags the fixtures do not cover are derived from a neighbouring document: version strings
 * replaced, keys that a release added or changed put back as they were (listed below per tag).
 */
import { createHash } from 'node:crypto';
import type { Document } from 'yaml';
import { readAsset } from './assets.js';
import { deleteValue, parseValues, printValues, setValue } from './yaml-edit.js';

/**
 * 4.4.10 and 4.6.3 come from real values documents; the others are derived from those (below).
 * 4.9.3 and 4.9.9 are two patches of one minor: 4.10.0 needs 4.9.9 or later first (Palette docs).
 */
export const vmoVersions = ['4.4.10', '4.5.4', '4.6.3', '4.7.2', '4.8.4', '4.9.3', '4.9.9', '4.10.0'] as const;
export type VmoVersion = (typeof vmoVersions)[number];

export type PackType = 'spectro' | 'helm' | 'manifest';

export interface PackManifestDefaults {
  name: string;
  content: string;
}

export interface PackDefaults {
  name: string;
  tag: string;
  /** Palette layer: `os`, `k8s`, `cni`, `csi` for infra packs, `addon` for add-ons. */
  layer: string;
  type: PackType;
  /** Registry uid of this pack version (the same in every profile that uses it). */
  uid: string;
  values: string;
  manifests: PackManifestDefaults[];
}

/**
 * Which packs a site's profiles hold. `standard`: the VMO reference site (ingress, monitoring,
 * Portworx). `rook-ceph`: the public VMO tutorial's choice of storage, and a lean add-on profile
 * (only the load balancer beside the orchestration pack: no ingress, no monitoring).
 */
export const siteLayouts = ['standard', 'rook-ceph', 'rook-ceph-no-placement'] as const;
export type SiteLayout = (typeof siteLayouts)[number];

const layoutPacks: Record<SiteLayout, { addon: string[]; infra: string[] }> = {
  standard: { addon: ['lb-metallb-helm', 'nginx', 'virtual-machine-orchestrator', 'prometheus-operator'], infra: ['ubuntu-maas', 'kubernetes', 'cni-cilium-oss', 'csi-portworx-generic'] },
  'rook-ceph': { addon: ['lb-metallb-helm', 'virtual-machine-orchestrator'], infra: ['ubuntu-maas', 'kubernetes', 'cni-cilium-oss', 'csi-rook-ceph-helm'] },
  // The same packs; the site set fewer storage settings (site.ts says which).
  'rook-ceph-no-placement': { addon: ['lb-metallb-helm', 'virtual-machine-orchestrator'], infra: ['ubuntu-maas', 'kubernetes', 'cni-cilium-oss', 'csi-rook-ceph-helm'] },
};

export interface PackStack {
  vmo: VmoVersion;
  /** KubeVirt and CDI versions the VMO tag deploys. */
  kubevirt: string;
  cdi: string;
  addon: PackDefaults[];
  infra: PackDefaults[];
}

interface Variant {
  tag: string;
  /** File in src/lab/data/packs. */
  asset: string;
  /** Plain text replacements (image tags, chart versions). */
  replace?: Array<[string, string]>;
  /** Structural differences from the asset, applied through the Document API. */
  edit?: (doc: Document) => void;
}

interface PackLine {
  name: string;
  layer: string;
  type: PackType;
  /** A version without an entry keeps the pack of the closest earlier version that has one. */
  byStack: { '4.4.10': Variant } & Partial<Record<VmoVersion, Variant>>;
}

/** The pack a line publishes with a VMO version: its own entry, else the closest earlier one's. */
function variantFor(line: PackLine, vmo: VmoVersion): Variant {
  for (let i = vmoVersions.indexOf(vmo); i >= 0; i--) {
    const v = line.byStack[vmoVersions[i]!];
    if (v) return v;
  }
  return line.byStack['4.4.10'];
}

/**
 * VMO 4.7 to 4.9 have the 4.6.3 layout, plus `snapshotController.installCRDs`, which the 4.10.0
 * upgrade page names among the 4.9.x parameters (and says 4.10.0 removed).
 */
const vmoDashboardLayout = (doc: Document): void => {
  setValue(doc, ['charts', 'virtual-machine-orchestrator', 'snapshotController', 'installCRDs'], true);
};

/**
 * VMO 4.10.0 (Palette docs, vm-management/vmo-pack/upgrade-vmo-pack.md): VMO Manager replaces the VM
 * Dashboard (its image and service settings go; the vmo-manager sub-chart comes, vmo-manager-4.10.0.yaml),
 * `snapshotController.installCRDs` is removed, VLAN filtering is off by default (vmo-pack-parameters.md).
 * The console address stays at appConfig.clusterInfo as well (configure-console-base-address.md).
 */
const vmoManagerLayout = (doc: Document): void => {
  const chart = ['charts', 'virtual-machine-orchestrator'];
  deleteValue(doc, [...chart, 'image']);
  deleteValue(doc, [...chart, 'service']);
  deleteValue(doc, [...chart, 'snapshotController']);
  setValue(doc, [...chart, 'vlanFiltering', 'enabled'], false);
  const manager = parseValues(readAsset('vmo-manager-4.10.0.yaml'));
  for (const key of ['vmo-manager', 'vmo-manager-crds', 'cleanup']) doc.setIn([...chart, key], manager.get(key, true));
};

const nginxOlder = (doc: Document): void => {
  // Topology aware routing arrived with controller 1.12
  deleteValue(doc, ['charts', 'ingress-nginx', 'controller', 'enableTopologyAwareRouting']);
};

const portworxOlder = (doc: Document): void => {
  const chart = ['charts', 'portworx-generic'];
  // Portworx 3.2 renamed the default class and added an I/O profile and the default-class annotation
  setValue(doc, [...chart, 'storageClass', 'name'], 'px-csi-db');
  deleteValue(doc, [...chart, 'storageClass', 'parameters', 'io_profile']);
  setValue(doc, [...chart, 'storageClass', 'annotations'], {});
  // ...and the preflight-check annotation and the snapshot controller switch
  deleteValue(doc, [...chart, 'storageCluster', 'annotations', 'portworx.io/preflight-check']);
  deleteValue(doc, [...chart, 'storageCluster', 'spec', 'csi', 'installSnapshotController']);
};

const prometheusOlder = (doc: Document): void => {
  // The CRD upgrade job and the alertmanager datasource switch came with chart 63+
  deleteValue(doc, ['charts', 'kube-prometheus-stack', 'crds', 'upgradeJob']);
  deleteValue(doc, ['charts', 'kube-prometheus-stack', 'grafana', 'sidecar', 'datasources', 'alertmanager']);
};

const packLines: PackLine[] = [
  {
    name: 'lb-metallb-helm',
    layer: 'addon',
    type: 'helm',
    byStack: {
      '4.4.10': { tag: '0.14.8', asset: 'lb-metallb-helm-0.14.9.yaml', replace: [['0.14.9', '0.14.8']] },
      '4.5.4': { tag: '0.14.9', asset: 'lb-metallb-helm-0.14.9.yaml' },
      '4.6.3': {
        tag: '0.15.2',
        asset: 'lb-metallb-helm-0.14.9.yaml',
        replace: [['0.14.9', '0.15.2']],
        edit: (doc) => setValue(doc, ['charts', 'metallb-full', 'metallb', 'frrk8s', 'namespace'], ''),
      },
    },
  },
  {
    name: 'nginx',
    layer: 'addon',
    type: 'helm',
    byStack: {
      '4.4.10': { tag: '1.10.1', asset: 'nginx-1.12.1.yaml', replace: [['1.12.1', '1.10.1'], ['4.12.1', '4.10.1'], ['v1.5.2', 'v1.4.1']], edit: nginxOlder },
      '4.5.4': { tag: '1.11.3', asset: 'nginx-1.12.1.yaml', replace: [['1.12.1', '1.11.3'], ['4.12.1', '4.11.3'], ['v1.5.2', 'v1.4.4']], edit: nginxOlder },
      '4.6.3': { tag: '1.12.1', asset: 'nginx-1.12.1.yaml' },
    },
  },
  {
    name: 'virtual-machine-orchestrator',
    layer: 'addon',
    type: 'spectro',
    byStack: {
      '4.4.10': { tag: '4.4.10', asset: 'virtual-machine-orchestrator-4.4.10.yaml' },
      // No fixture for 4.5: the 4.6.3 document with KubeVirt v1.3.1, CDI v1.60.3 and dashboard 4.5.4
      '4.5.4': { tag: '4.5.4', asset: 'virtual-machine-orchestrator-4.6.3.yaml', replace: [['v1.4.0', 'v1.3.1'], ['v1.61.0', 'v1.60.3'], ['4.6.3', '4.5.4']] },
      '4.6.3': { tag: '4.6.3', asset: 'virtual-machine-orchestrator-4.6.3.yaml' },
      // No public document names the KubeVirt and CDI versions of 4.7 to 4.10: the lab assumes one
      // KubeVirt minor at most per VMO minor (see packs/README.md).
      '4.7.2': { tag: '4.7.2', asset: 'virtual-machine-orchestrator-4.6.3.yaml', replace: [['v1.4.0', 'v1.5.0'], ['v1.61.0', 'v1.62.0'], ['4.6.3', '4.7.2']], edit: vmoDashboardLayout },
      '4.8.4': { tag: '4.8.4', asset: 'virtual-machine-orchestrator-4.6.3.yaml', replace: [['v1.4.0', 'v1.5.2'], ['v1.61.0', 'v1.62.0'], ['4.6.3', '4.8.4']], edit: vmoDashboardLayout },
      '4.9.3': { tag: '4.9.3', asset: 'virtual-machine-orchestrator-4.6.3.yaml', replace: [['v1.4.0', 'v1.6.0'], ['v1.61.0', 'v1.63.0'], ['4.6.3', '4.9.3']], edit: vmoDashboardLayout },
      '4.9.9': { tag: '4.9.9', asset: 'virtual-machine-orchestrator-4.6.3.yaml', replace: [['v1.4.0', 'v1.6.2'], ['v1.61.0', 'v1.63.1'], ['4.6.3', '4.9.9']], edit: vmoDashboardLayout },
      '4.10.0': {
        tag: '4.10.0',
        asset: 'virtual-machine-orchestrator-4.6.3.yaml',
        replace: [['v1.4.0', 'v1.7.0'], ['v1.61.0', 'v1.64.0'], ['palette/spectro-vm-dashboard:4.6.3', 'palette/vmo-manager:4.10.0'], ['4.6.3', '4.10.0']],
        edit: vmoManagerLayout,
      },
    },
  },
  {
    name: 'prometheus-operator',
    layer: 'addon',
    type: 'helm',
    byStack: {
      '4.4.10': {
        tag: '58.7.2',
        asset: 'prometheus-operator-66.2.2.yaml',
        replace: [['66.2.2', '58.7.2'], ['v0.78.2', 'v0.73.2'], ['v2.55.1', 'v2.52.0'], ['v2.14.0', 'v2.12.0'], ['11.3.1', '10.4.1'], ['1.28.0', '1.26.1']],
        edit: prometheusOlder,
      },
      '4.5.4': {
        tag: '62.3.1',
        asset: 'prometheus-operator-66.2.2.yaml',
        replace: [['66.2.2', '62.3.1'], ['v0.78.2', 'v0.76.0'], ['v2.55.1', 'v2.54.1'], ['v2.14.0', 'v2.13.0'], ['11.3.1', '11.1.5'], ['1.28.0', '1.27.4']],
        edit: prometheusOlder,
      },
      '4.6.3': { tag: '66.2.2', asset: 'prometheus-operator-66.2.2.yaml' },
    },
  },
  {
    name: 'ubuntu-maas',
    layer: 'os',
    type: 'spectro',
    byStack: {
      '4.4.10': { tag: '22.04', asset: 'ubuntu-maas-22.04.yaml' },
      '4.5.4': { tag: '22.04', asset: 'ubuntu-maas-22.04.yaml' },
      '4.6.3': { tag: '22.04', asset: 'ubuntu-maas-22.04.yaml' },
    },
  },
  {
    // Kubernetes stays on one tag: a Kubernetes change repaves every node, which is not part of a VMO hop
    name: 'kubernetes',
    layer: 'k8s',
    type: 'spectro',
    byStack: {
      '4.4.10': { tag: '1.32.2', asset: 'kubernetes-1.32.2.yaml' },
      '4.5.4': { tag: '1.32.2', asset: 'kubernetes-1.32.2.yaml' },
      '4.6.3': { tag: '1.32.2', asset: 'kubernetes-1.32.2.yaml' },
    },
  },
  {
    name: 'cni-cilium-oss',
    layer: 'cni',
    type: 'spectro',
    byStack: {
      '4.4.10': { tag: '1.16.6', asset: 'cni-cilium-oss-1.17.1.yaml', replace: [['1.17.1', '1.16.6']] },
      '4.5.4': { tag: '1.16.9', asset: 'cni-cilium-oss-1.17.1.yaml', replace: [['1.17.1', '1.16.9']] },
      '4.6.3': { tag: '1.17.1', asset: 'cni-cilium-oss-1.17.1.yaml' },
    },
  },
  {
    name: 'csi-portworx-generic',
    layer: 'csi',
    type: 'spectro',
    byStack: {
      '4.4.10': {
        tag: '3.1.4',
        asset: 'csi-portworx-generic-3.2.1.yaml',
        replace: [['3.2.1', '3.1.4'], ['24.2.2', '23.10.5'], ['24.3.3', '23.11.0']],
        edit: portworxOlder,
      },
      '4.5.4': {
        tag: '3.1.8',
        asset: 'csi-portworx-generic-3.2.1.yaml',
        replace: [['3.2.1', '3.1.8'], ['24.2.2', '24.1.3'], ['24.3.3', '24.2.0']],
        edit: portworxOlder,
      },
      '4.6.3': { tag: '3.2.1', asset: 'csi-portworx-generic-3.2.1.yaml' },
    },
  },
  {
    // The fixture is the 1.16.3 pack; the older tags differ in their version strings only
    name: 'csi-rook-ceph-helm',
    layer: 'csi',
    type: 'spectro',
    byStack: {
      '4.4.10': { tag: '1.15.9', asset: 'csi-rook-ceph-helm-1.16.3.yaml', replace: [['1.16.3', '1.15.9'], ['v3.13.0', 'v3.12.3'], ['v19.2.0', 'v18.2.4']] },
      '4.5.4': { tag: '1.16.1', asset: 'csi-rook-ceph-helm-1.16.3.yaml', replace: [['1.16.3', '1.16.1']] },
      '4.6.3': { tag: '1.16.3', asset: 'csi-rook-ceph-helm-1.16.3.yaml' },
    },
  },
];

const componentVersions: Record<VmoVersion, { kubevirt: string; cdi: string }> = {
  '4.4.10': { kubevirt: 'v1.2.0', cdi: 'v1.58.0' },
  '4.5.4': { kubevirt: 'v1.3.1', cdi: 'v1.60.3' },
  '4.6.3': { kubevirt: 'v1.4.0', cdi: 'v1.61.0' },
  '4.7.2': { kubevirt: 'v1.5.0', cdi: 'v1.62.0' },
  '4.8.4': { kubevirt: 'v1.5.2', cdi: 'v1.62.0' },
  '4.9.3': { kubevirt: 'v1.6.0', cdi: 'v1.63.0' },
  '4.9.9': { kubevirt: 'v1.6.2', cdi: 'v1.63.1' },
  '4.10.0': { kubevirt: 'v1.7.0', cdi: 'v1.64.0' },
};

/** A registry pack uid: 24 hex digits, stable for a pack name and tag. */
export const registryPackUid = (name: string, tag: string): string => createHash('sha1').update(`${name}@${tag}`).digest('hex').slice(0, 24);

const valuesCache = new Map<string, string>();

function variantValues(line: PackLine, v: Variant): string {
  const key = `${line.name}@${v.tag}`;
  const cached = valuesCache.get(key);
  if (cached !== undefined) return cached;
  let text = readAsset(v.asset);
  for (const [from, to] of v.replace ?? []) text = text.split(from).join(to);
  if (v.edit) {
    const doc = parseValues(text);
    v.edit(doc);
    text = printValues(doc, text);
  }
  valuesCache.set(key, text);
  return text;
}

export function isVmoVersion(v: string): v is VmoVersion {
  return (vmoVersions as readonly string[]).includes(v);
}

function packVersion(line: PackLine, v: Variant): PackDefaults {
  return { name: line.name, tag: v.tag, layer: line.layer, type: line.type, uid: registryPackUid(line.name, v.tag), values: variantValues(line, v), manifests: [] };
}

/** The pack versions and default values published with one VMO version, for a site's layout. */
export function packStack(vmo: VmoVersion, layout: SiteLayout = 'standard'): PackStack {
  const { addon, infra } = layoutPacks[layout];
  const pick = (names: string[]) => names.map((name) => packLines.find((l) => l.name === name)!).map((line) => packVersion(line, variantFor(line, vmo)));
  return { vmo, ...componentVersions[vmo], addon: pick(addon), infra: pick(infra) };
}

/** Every pack version the scenarios use, once each: what the lab's pack registry holds. */
export function catalogVersions(): PackDefaults[] {
  const seen = new Map<string, PackDefaults>();
  for (const line of packLines) {
    for (const vmo of vmoVersions) {
      const v = variantFor(line, vmo);
      if (!seen.has(`${line.name}@${v.tag}`)) seen.set(`${line.name}@${v.tag}`, packVersion(line, v));
    }
  }
  return [...seen.values()];
}

/** The KubeVirt version a VMO tag deploys (`v1.3.1` for 4.5.4). */
export function kubevirtVersionOf(vmo: VmoVersion): string {
  return componentVersions[vmo].kubevirt;
}
