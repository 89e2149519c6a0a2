/**
 * The cluster's baseline as bounded summaries: names and a few short fields per object, never the
 * objects themselves, so a session with 5,000 VMs stays small. Pure: the reads happen elsewhere.
 */
import type { Cdi, KubeVirt, Nad, Node, Service, StorageClass, Vm, Vmi } from '../../kube/schemas.js';
import type { DeployedProfileDoc } from '../../palette/api.js';
import type { SnapshotContract } from '../contracts.js';

export type Baseline = SnapshotContract['baseline'];

export interface BaselineInput {
  vms: Vm[];
  vmis: Vmi[];
  nads: Nad[];
  services: Service[];
  storageClasses: StorageClass[];
  nodes: Node[];
  kubevirt: KubeVirt | undefined;
  cdi: Cdi | undefined;
  deployedProfiles: DeployedProfileDoc[];
}

const key = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `running: true|false` is the older spelling of a run strategy. */
function runStrategyOf(vm: Vm): string | undefined {
  if (vm.spec?.runStrategy) return vm.spec.runStrategy;
  if (vm.spec?.running === true) return 'Always';
  if (vm.spec?.running === false) return 'Halted';
  return undefined;
}

/** A class's own annotations: Helm's bookkeeping and kubectl's last-applied copy say nothing about the site. */
function ownAnnotations(a: Record<string, string> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(a ?? {}).filter(([k]) => !k.startsWith('meta.helm.sh/') && k !== 'kubectl.kubernetes.io/last-applied-configuration'));
}

export function summarizeBaseline(input: BaselineInput): Baseline {
  const vmis = new Map(input.vmis.map((v) => [key(v.metadata), v]));
  const vms: Baseline['vms'] = [];
  const seen = new Set<string>();
  for (const vm of input.vms) {
    const name = key(vm.metadata);
    seen.add(name);
    const vmi = vmis.get(name);
    const runStrategy = runStrategyOf(vm);
    const phase = vmi?.status?.phase ?? vm.status?.printableStatus;
    const node = vmi?.status?.nodeName;
    vms.push({ vm: name, ...(runStrategy ? { runStrategy } : {}), ...(phase ? { phase } : {}), ...(node ? { node } : {}) });
  }
  // A VMI without a VM (started on its own) is a workload too.
  for (const [name, vmi] of vmis) {
    if (seen.has(name)) continue;
    vms.push({ vm: name, ...(vmi.status?.phase ? { phase: vmi.status.phase } : {}), ...(vmi.status?.nodeName ? { node: vmi.status.nodeName } : {}) });
  }
  vms.sort((a, b) => byName(a.vm, b.vm));

  const loadBalancerServices = input.services
    .map((s) => ({ service: key(s.metadata), addresses: (s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname ?? '').filter(Boolean) }))
    .filter((s) => s.addresses.length > 0)
    .sort((a, b) => byName(a.service, b.service));

  const notReady = input.nodes.filter((n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True').map((n) => n.metadata.name);
  const kubevirtVersion = input.kubevirt?.status?.observedKubeVirtVersion;
  const cdiVersion = input.cdi?.status?.observedVersion;
  return {
    runningVmis: input.vmis.filter((v) => v.status?.phase === 'Running').map((v) => key(v.metadata)).sort(byName),
    nads: input.nads.map((n) => key(n.metadata)).sort(byName),
    vms,
    loadBalancerServices,
    storageClasses: input.storageClasses.map((s) => s.metadata.name).sort(byName),
    storageClassAnnotations: Object.fromEntries(input.storageClasses.map((s) => [s.metadata.name, ownAnnotations(s.metadata.annotations)])),
    nodes: { total: input.nodes.length, notReady: notReady.sort(byName) },
    ...(kubevirtVersion ? { kubevirtVersion } : {}),
    ...(cdiVersion ? { cdiVersion } : {}),
    deployedProfiles: input.deployedProfiles.map((p) => ({ name: p.name, version: p.version, packs: p.packs.map((k) => ({ name: k.name, tag: k.tag })) })),
  };
}

export interface BaselineCounts {
  vms: number;
  runningVmis: number;
  notRunning: number;
  nads: number;
  loadBalancerServices: number;
  storageClasses: number;
  nodes: number;
  notReadyNodes: number;
}

export function countBaseline(b: Baseline): BaselineCounts {
  return {
    vms: b.vms.length,
    runningVmis: b.runningVmis.length,
    notRunning: b.vms.filter((v) => v.phase !== 'Running').length,
    nads: b.nads.length,
    loadBalancerServices: b.loadBalancerServices.length,
    storageClasses: b.storageClasses.length,
    nodes: b.nodes.total,
    notReadyNodes: b.nodes.notReady.length,
  };
}
