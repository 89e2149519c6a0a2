/**
 * What the applied packs ask of the cluster, read from their values the way the charts would:
 * the settings the world acts on (versions, feature gates, addresses, storage class, storage
 * cluster, pod CIDR, the self-signed issuer). Palette macros and profile variables are resolved
 * first, as Palette does before it hands values to Helm.
 */
import { parse, parseAllDocuments } from 'yaml';
import type { LabPack } from '../palette/types.js';

export interface AddressPool {
  name: string;
  /** Inclusive ranges as numbers. */
  ranges: Array<[number, number]>;
  autoAssign: boolean;
  avoidBuggyIPs: boolean;
}

/** One StorageClass a Rook-Ceph block pool asks for. */
export interface RookStorageClass {
  name: string;
  annotations: Record<string, string>;
  parameters: Record<string, string>;
  isDefault: boolean;
  reclaimPolicy: string;
  volumeBindingMode: string;
  allowVolumeExpansion: boolean;
}

export interface ClusterConfig {
  packTags: Record<string, string>;
  /** Which optional components the applied packs run (a site may have no ingress or monitoring pack). */
  components: { ingress: boolean; monitoring: boolean; storage: 'portworx' | 'rook-ceph' | 'none' };
  /** The block StorageClass VM disks use, whichever storage pack makes it. */
  blockClass: string;
  /** `pack.content.images` of each pack. */
  packImages: Record<string, string[]>;
  loadBalancer: { pools: AddressPool[] };
  ingress: { loadBalancerIP: string; image: string; replicas: number };
  kubevirt: {
    version: string;
    registry: string;
    launcherImage: string;
    featureGates: string[];
    workloadUpdateMethods: string[];
    evictionStrategy: string;
    exportProxyServiceType: string;
  };
  cdi: { version: string; uploadProxyServiceType: string };
  monitoring: { selfSignedIssuer: boolean; grafanaTls: boolean; grafanaIssuer: string; chartVersion: string };
  network: { podCidrs: string[]; ciliumVersion: string };
  storage: {
    version: string;
    className: string;
    classAnnotations: Record<string, string>;
    classParameters: Record<string, string>;
    isDefaultClass: boolean;
    provisioner: string;
    reclaimPolicy: string;
    volumeBindingMode: string;
    allowVolumeExpansion: boolean;
    clusterName: string;
    clusterAnnotations: Record<string, string>;
    clusterSpec: Record<string, unknown>;
    nodeAffinity: Record<string, unknown> | undefined;
    activateLicense: boolean;
    images: string[];
  };
  /** The Rook-Ceph pack's settings (csi-rook-ceph-helm), as far as the lab acts on them. */
  rook: {
    version: string;
    namespace: string;
    clusterName: string;
    classes: RookStorageClass[];
    /** `cephClusterSpec.placement.all`: node affinity and tolerations. */
    placement: Record<string, unknown>;
    images: string[];
  };
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback);
const strMap = (v: unknown): Record<string, string> => (isObj(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : {});
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => str(x)).filter(Boolean) : []);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : fallback);

export interface MacroContext {
  clusterUid: string;
  clusterName: string;
  kubernetesVersion: string;
  podCidr: string;
  variables: Record<string, string>;
  /** Values of the attached versions' profile variables (`{{.spectro.var.NAME}}`), declared ones only. */
  spectroVars?: Record<string, string>;
}

/** Replaces `{{ .spectro.system.* }}` macros, `{{.spectro.var.NAME}}` profile variables and `${variable}` ones in a values text. */
export function resolveMacros(text: string, m: MacroContext): string {
  const system: Record<string, string> = {
    '.spectro.system.cluster.uid': m.clusterUid,
    '.spectro.system.cluster.name': m.clusterName,
    '.spectro.system.kubernetes.version': m.kubernetesVersion,
    '.spectro.system.kubernetes.podCIDR': m.podCidr,
  };
  const withMacros = text.replace(/\{\{\s*(\.spectro\.[A-Za-z0-9_.-]+)\s*(?:\|\s*substr\s+(\d+)\s+(\d+)\s*)?\}\}/g, (whole, name: string, from?: string, to?: string) => {
    const value = name.startsWith('.spectro.var.') ? m.spectroVars?.[name.slice('.spectro.var.'.length)] : system[name];
    if (value === undefined) return whole;
    return from !== undefined && to !== undefined ? value.slice(Number(from), Number(to)) : value;
  });
  return withMacros.replace(/\$\{([A-Za-z0-9_-]+)\}/g, (whole, name: string) => m.variables[name] ?? whole);
}

const parsedCache = new Map<string, unknown>();

/** Values parsed once per distinct text (the cilium document is 170 kB). */
function parseValues(text: string): unknown {
  let v = parsedCache.get(text);
  if (v === undefined) {
    v = parse(text) ?? {};
    if (parsedCache.size > 64) parsedCache.clear();
    parsedCache.set(text, v);
  }
  return v;
}

function rangesOf(entry: string): Array<[number, number]> {
  const toNum = (ip: string) => ip.trim().split('.').reduce((n, p) => n * 256 + Number(p), 0);
  const dash = entry.split('-');
  if (dash.length === 2) return [[toNum(dash[0]!), toNum(dash[1]!)]];
  const [base, bits] = entry.split('/');
  if (base && bits) {
    const size = 2 ** (32 - Number(bits));
    const start = toNum(base);
    return [[start, start + size - 1]];
  }
  return /^\d+\.\d+\.\d+\.\d+$/.test(entry.trim()) ? [[toNum(entry), toNum(entry)]] : [];
}

/** `pack.content.images[].image` of a values document. */
function packImages(doc: unknown): string[] {
  const list = at(doc, ['pack', 'content', 'images']);
  return Array.isArray(list) ? list.map((i) => str(at(i, ['image']))).filter(Boolean) : [];
}

function imageTag(image: string): string {
  return image.slice(image.lastIndexOf(':') + 1);
}

/** Reads the cluster's configuration from the applied packs of both profiles. */
export function readClusterConfig(packs: LabPack[], m: MacroContext): ClusterConfig {
  const byName = new Map(packs.map((p) => [p.name, p]));
  const values = (name: string): unknown => {
    const p = byName.get(name);
    return p ? parseValues(resolveMacros(p.values, m)) : {};
  };

  const metallb = values('lb-metallb-helm');
  const pools: AddressPool[] = Object.entries((at(metallb, ['charts', 'metallb-full', 'configuration', 'ipaddresspools']) as Obj | undefined) ?? {}).map(([name, pool]) => ({
    name,
    ranges: strList(at(pool, ['spec', 'addresses'])).flatMap(rangesOf),
    autoAssign: bool(at(pool, ['spec', 'autoAssign']), true),
    avoidBuggyIPs: bool(at(pool, ['spec', 'avoidBuggyIPs']), false),
  }));

  const nginx = values('nginx');
  const controller = at(nginx, ['charts', 'ingress-nginx', 'controller']);
  const nginxImage = `${str(at(controller, ['image', 'registry']), 'registry.k8s.io')}/${str(at(controller, ['image', 'image']), 'ingress-nginx/controller')}:${str(at(controller, ['image', 'tag']), 'v1.12.1')}`;

  const vmo = values('virtual-machine-orchestrator');
  const kv = at(vmo, ['charts', 'virtual-machine-orchestrator', 'kubevirt']);
  const images = packImages(vmo);
  const operatorRepo = str(at(kv, ['image', 'repository']), 'quay.io/kubevirt/virt-operator');
  const kubevirtVersion = str(at(kv, ['image', 'tag']), 'v1.4.0');
  const registry = operatorRepo.slice(0, operatorRepo.lastIndexOf('/'));
  const launcherImage = images.find((i) => i.includes('/virt-launcher:') && imageTag(i) === kubevirtVersion) ?? `${registry}/virt-launcher:${kubevirtVersion}`;
  const kvResource = at(kv, ['kubevirtResource']);
  const cdi = at(vmo, ['charts', 'virtual-machine-orchestrator', 'cdi']);

  const prom = values('prometheus-operator');
  const promPack = byName.get('prometheus-operator');
  const issuerPresent = (promPack?.manifests ?? []).some((mf) => {
    try {
      return parseAllDocuments(mf.content).some((d) => {
        const doc = d.toJS() as unknown;
        return at(doc, ['kind']) === 'ClusterIssuer' && at(doc, ['metadata', 'name']) === 'selfsigned' && isObj(at(doc, ['spec', 'selfSigned']));
      });
    } catch {
      return false;
    }
  });
  const grafana = at(prom, ['charts', 'kube-prometheus-stack', 'grafana']);

  const cilium = values('cni-cilium-oss');
  const cidrs = at(cilium, ['charts', 'cilium', 'ipam', 'operator', 'clusterPoolIPv4PodCIDRList']);

  const px = at(values('csi-portworx-generic'), ['charts', 'portworx-generic']);
  const sc = at(px, ['storageClass']);
  const stc = at(px, ['storageCluster']);
  const spec = isObj(at(stc, ['spec'])) ? (at(stc, ['spec']) as Obj) : {};
  const affinity = at(spec, ['placement', 'nodeAffinity']);

  const rookValues = values('csi-rook-ceph-helm');
  const rookCluster = at(rookValues, ['charts', 'rook-ceph-cluster']);
  const blockPools = at(rookCluster, ['cephBlockPools']);
  const rookClasses: RookStorageClass[] = (Array.isArray(blockPools) ? blockPools : [])
    .map((pool) => at(pool, ['storageClass']))
    .filter((sc) => isObj(sc) && bool(sc.enabled, true))
    .map((sc) => ({
      name: str(at(sc, ['name']), 'ceph-block'),
      annotations: strMap(at(sc, ['annotations'])),
      parameters: strMap(at(sc, ['parameters'])),
      isDefault: bool(at(sc, ['isDefault']), false),
      reclaimPolicy: str(at(sc, ['reclaimPolicy']), 'Delete'),
      volumeBindingMode: str(at(sc, ['volumeBindingMode']), 'Immediate'),
      allowVolumeExpansion: bool(at(sc, ['allowVolumeExpansion']), true),
    }));
  const rookAll = at(rookCluster, ['cephClusterSpec', 'placement', 'all']);
  const storageKind = byName.has('csi-portworx-generic') ? 'portworx' : byName.has('csi-rook-ceph-helm') ? 'rook-ceph' : 'none';
  const pxClassName = str(at(sc, ['name']), 'px-csi-db');

  return {
    packTags: Object.fromEntries(packs.map((p) => [p.name, p.tag])),
    components: { ingress: byName.has('nginx'), monitoring: byName.has('prometheus-operator'), storage: storageKind },
    blockClass: storageKind === 'rook-ceph' ? (rookClasses[0]?.name ?? 'ceph-block') : pxClassName,
    packImages: Object.fromEntries(packs.map((p) => [p.name, packImages(values(p.name))])),
    loadBalancer: { pools },
    ingress: { loadBalancerIP: str(at(controller, ['service', 'loadBalancerIP'])), image: nginxImage, replicas: Number(at(controller, ['replicaCount']) ?? 1) || 1 },
    kubevirt: {
      version: kubevirtVersion,
      registry,
      launcherImage,
      featureGates: strList(at(kvResource, ['additionalFeatureGates'])),
      workloadUpdateMethods: strList(at(kvResource, ['workloadsUpdateStrategy', 'workloadUpdateMethods'])),
      evictionStrategy: str(at(kvResource, ['config', 'evictionStrategy']), 'LiveMigrate'),
      exportProxyServiceType: str(at(kv, ['service', 'type']), 'ClusterIP'),
    },
    cdi: { version: str(at(cdi, ['image', 'tag']), 'v1.61.0'), uploadProxyServiceType: str(at(cdi, ['service', 'type']), 'ClusterIP') },
    monitoring: {
      selfSignedIssuer: issuerPresent,
      grafanaTls: bool(at(grafana, ['tls', 'enabled']), false),
      grafanaIssuer: str(at(grafana, ['tls', 'issuerRef', 'name']), 'selfsigned'),
      chartVersion: promPack?.tag ?? '',
    },
    network: { podCidrs: Array.isArray(cidrs) ? strList(cidrs) : str(cidrs).split(/[\s,]+/).filter(Boolean), ciliumVersion: byName.get('cni-cilium-oss')?.tag ?? '' },
    storage: {
      version: str(at(px, ['imageVersion']), byName.get('csi-portworx-generic')?.tag ?? ''),
      className: pxClassName,
      classAnnotations: strMap(at(sc, ['annotations'])),
      classParameters: strMap(at(sc, ['parameters'])),
      isDefaultClass: bool(at(sc, ['isDefaultStorageClass']), false),
      provisioner: str(at(sc, ['provisioner']), 'pxd.portworx.com'),
      reclaimPolicy: str(at(sc, ['reclaimPolicy']), 'Delete'),
      volumeBindingMode: str(at(sc, ['volumeBindingMode']), 'Immediate'),
      allowVolumeExpansion: bool(at(sc, ['allowVolumeExpansion']), true),
      clusterName: str(at(stc, ['name']), 'px-cluster'),
      clusterAnnotations: strMap(at(stc, ['annotations'])),
      clusterSpec: spec,
      nodeAffinity: isObj(affinity) && Object.keys(affinity).length > 0 ? affinity : undefined,
      activateLicense: bool(at(px, ['activateLicense']), true),
      images: packImages(values('csi-portworx-generic')),
    },
    rook: {
      version: byName.get('csi-rook-ceph-helm')?.tag ?? '',
      namespace: str(at(rookValues, ['pack', 'namespace']), 'rook-ceph'),
      clusterName: str(at(rookCluster, ['clusterName'])) || 'rook-ceph',
      classes: rookClasses,
      placement: isObj(rookAll) ? rookAll : {},
      images: packImages(rookValues),
    },
  };
}
