/**
 * Whether the cluster is fit to be upgraded, judged the way an upgrade needs it (as kubeadm's and
 * Harvester's pre-checks do): every node Ready and schedulable, the storage cluster healthy, no pod
 * crash-looping anywhere and none not ready where the upgrade works (VM orchestration, storage,
 * network, the platform agent), no load-balancer address on a service that should hold none, and
 * KubeVirt and CDI Deployed and Available. Pure: the reads come in, one fact per problem comes out,
 * each named with its evidence. Preflight, the apply and repave gates and a resume all use it.
 */
import type { Cdi, KubeVirt, Node, Pod, Service, StorageCluster } from '../../kube/schemas.js';
import { podProblem } from './pod-health.js';
import { storageHealth, type StorageClusterKind } from './storage-health.js';
import { capped } from './types.js';
import { nsName } from './verdict.js';

export type HealthArea = 'components' | 'nodes' | 'storage' | 'pods' | 'addresses';

export interface HealthFact {
  area: HealthArea;
  /** Stable across reads of the same problem (a resume tells new facts from known ones by it). */
  key: string;
  /** One line an operator reads: what is unhealthy, with its evidence. */
  text: string;
  /** More evidence (the pods on a NotReady node), capped. */
  lines?: string[];
}

/** What is judged; `undefined` for a read that was not made (its area is then not judged). */
export interface HealthReads {
  kubevirt?: KubeVirt | undefined;
  cdi?: Cdi | undefined;
  nodes?: Node[];
  storage?: { name: string; kind: StorageClusterKind; cluster: StorageCluster | undefined };
  /** Pods of the namespaces where the upgrade works. */
  pods?: Pod[];
  /** Pods the kubelet reports in back-off, anywhere (read back: only current ones). */
  backOffPods?: Pod[];
  services?: Service[];
  /** `namespace/name` of the services meant to hold a load-balancer address. */
  intendedAddresses?: string[];
}

/** Services holding a load-balancer address they should not: `ns/name holds 10.0.0.5`. */
export function strayAddresses(services: Service[], intended: ReadonlySet<string>): Array<{ service: string; addresses: string[] }> {
  return services
    .filter((s) => (s.status?.loadBalancer?.ingress ?? []).length > 0 && !intended.has(nsName(s.metadata)))
    .map((s) => ({ service: nsName(s.metadata), addresses: s.status!.loadBalancer!.ingress!.map((i) => i.ip ?? i.hostname ?? '?') }));
}

const readyOf = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');

function componentFacts(kind: 'KubeVirt' | 'CDI', obj: KubeVirt | Cdi | undefined): HealthFact[] {
  if (!obj) return [];
  const phase = obj.status?.phase ?? 'unknown';
  const available = obj.status?.conditions?.find((c) => c.type === 'Available');
  const problems = [
    ...(phase !== 'Deployed' ? [`phase ${phase}, not Deployed`] : []),
    // Operators set Available with Progressing and Degraded; a status without conditions is judged by its phase.
    ...(available && available.status !== 'True' ? [`Available ${available.status}${available.message ? ` (${available.message})` : ''}`] : []),
  ];
  return problems.length ? [{ area: 'components', key: `component:${kind}`, text: `${kind} ${nsName(obj.metadata)}: ${problems.join('; ')}` }] : [];
}

function nodeFacts(nodes: Node[]): HealthFact[] {
  const facts: HealthFact[] = [];
  for (const n of nodes) {
    const ready = readyOf(n);
    if (ready?.status !== 'True') {
      const why = [ready?.reason, ready?.message].filter(Boolean).join(': ');
      facts.push({ area: 'nodes', key: `node:${n.metadata.name}:not-ready`, text: `node ${n.metadata.name}: NotReady (Ready ${ready?.status ?? 'not reported'}${why ? `, ${why}` : ''})` });
    }
    if (n.spec?.unschedulable) facts.push({ area: 'nodes', key: `node:${n.metadata.name}:cordoned`, text: `node ${n.metadata.name}: cordoned (unschedulable)` });
  }
  return facts;
}

function storageFacts(s: NonNullable<HealthReads['storage']>): HealthFact[] {
  if (!s.cluster) return [];
  const health = storageHealth(s.kind, s.cluster);
  return health.healthy ? [] : [{ area: 'storage', key: `storage:${s.name}`, text: `storage cluster ${s.name} (${s.kind}): ${health.problems.join('; ')}` }];
}

/**
 * Crash-looping pods anywhere, and pods not ready in the upgrade's namespaces. A pod that finished
 * (Succeeded, or Failed: a Job's, an evicted one) is the cluster's past, not its health now. Pods
 * not ready on a NotReady node follow from that node: one fact for them, under the node's name.
 */
function podFacts(pods: Pod[], backOff: Pod[], notReadyNodes: ReadonlySet<string>): HealthFact[] {
  const facts: HealthFact[] = [];
  const byNode = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const pod of [...backOff, ...pods]) {
    const name = nsName(pod.metadata);
    if (seen.has(name)) continue;
    seen.add(name);
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const problem = podProblem(pod);
    if (!problem) continue;
    const crashing = problem.startsWith('CrashLoopBackOff') || backOff.includes(pod);
    const node = pod.spec?.nodeName;
    if (!crashing && node && notReadyNodes.has(node)) {
      byNode.set(node, [...(byNode.get(node) ?? []), name]);
      continue;
    }
    // The kubelet's back-off message only repeats the pod's name; other waits (an image pull) say why.
    const waiting = pod.status?.containerStatuses?.find((c) => c.state?.waiting?.message && c.state.waiting.reason !== 'CrashLoopBackOff')?.state?.waiting?.message;
    facts.push({ area: 'pods', key: `pod:${name}`, text: `pod ${name}${node ? ` on ${node}` : ''}: ${crashing && !problem.startsWith('CrashLoopBackOff') ? `crash-looping (${problem})` : problem}${waiting ? `: ${waiting}` : ''}` });
  }
  for (const [node, names] of byNode) {
    facts.push({ area: 'pods', key: `pods-on:${node}`, text: `${names.length} pod(s) not ready on the NotReady node ${node}`, lines: capped(names, 10) });
  }
  return facts;
}

export function judgeHealth(r: HealthReads): HealthFact[] {
  const notReady = new Set((r.nodes ?? []).filter((n) => readyOf(n)?.status !== 'True').map((n) => n.metadata.name));
  return [
    ...componentFacts('KubeVirt', r.kubevirt),
    ...componentFacts('CDI', r.cdi),
    ...nodeFacts(r.nodes ?? []),
    ...(r.storage ? storageFacts(r.storage) : []),
    ...(r.pods || r.backOffPods ? podFacts(r.pods ?? [], r.backOffPods ?? [], notReady) : []),
    ...strayAddresses(r.services ?? [], new Set(r.intendedAddresses ?? [])).map(
      (s): HealthFact => ({ area: 'addresses', key: `address:${s.service}`, text: `service ${s.service} holds load-balancer address ${s.addresses.join(', ')}, but it is not among the services meant to hold one (site.loadBalancerServices)` }),
    ),
  ];
}

/** A fact as one line with its evidence, for a gate's list. */
export const factLine = (f: HealthFact): string => (f.lines?.length ? `${f.text}: ${f.lines.join(', ')}` : f.text);
