/** The health judgement preflight and the gates use: one fact per problem, named with its evidence. */
import { describe, expect, it } from 'vitest';
import { judgeHealth, type HealthReads } from '../../../src/domain/checks/upgrade-health.js';
import type { Node, Pod } from '../../../src/kube/schemas.js';

const node = (name: string, ready: string, extra: Partial<Node> = {}): Node => ({ metadata: { name }, status: { conditions: [{ type: 'Ready', status: ready, ...(ready === 'True' ? {} : { reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }) }] }, ...extra });
const pod = (ns: string, name: string, nodeName: string, status: Pod['status']): Pod => ({ metadata: { namespace: ns, name }, spec: { nodeName }, status });
const running = (ready: boolean) => ({ phase: 'Running', containerStatuses: [{ name: 'c', ready, restartCount: 0, state: {} }] }) as Pod['status'];
const crashing = { phase: 'Running', containerStatuses: [{ name: 'ksm', ready: false, restartCount: 37, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } } }] } as Pod['status'];
const kv = (available: string, phase = 'Deployed') => ({ metadata: { namespace: 'kubevirt', name: 'kubevirt' }, status: { phase, conditions: [{ type: 'Available', status: available, message: 'Reconciling KubeVirt resources' }] } });

const cases: Array<{ name: string; reads: HealthReads; facts: string[] }> = [
  { name: 'a healthy cluster has no fact', reads: { nodes: [node('w1', 'True')], pods: [pod('kubevirt', 'virt-handler-a', 'w1', running(true))], services: [], kubevirt: kv('True') }, facts: [] },
  {
    name: 'a NotReady node, with its reason; a cordoned one',
    reads: { nodes: [node('w2', 'Unknown'), node('w3', 'True', { spec: { unschedulable: true } })] },
    facts: ['node w2: NotReady (Ready Unknown, NodeStatusUnknown: Kubelet stopped posting node status.)', 'node w3: cordoned (unschedulable)'],
  },
  {
    name: 'pods not ready on a NotReady node are one fact under its name; a crash loop elsewhere is its own',
    reads: { nodes: [node('w1', 'True'), node('w2', 'Unknown')], pods: [pod('kubevirt', 'virt-handler-b', 'w2', running(false)), pod('portworx', 'px-1', 'w2', running(false))], backOffPods: [pod('monitoring', 'ksm-1', 'w1', crashing)] },
    facts: ['node w2: NotReady (Ready Unknown, NodeStatusUnknown: Kubelet stopped posting node status.)', 'pod monitoring/ksm-1 on w1: CrashLoopBackOff (restarts 37)', '2 pod(s) not ready on the NotReady node w2'],
  },
  { name: 'a pod not ready on a Ready node', reads: { nodes: [node('w1', 'True')], pods: [pod('cdi', 'cdi-apiserver-x', 'w1', running(false))] }, facts: ['pod cdi/cdi-apiserver-x on w1: Running, not Ready (c)'] },
  { name: 'finished pods (a Job that failed, an evicted pod) are the past, not health', reads: { pods: [pod('kube-system', 'etcd-defrag-1', 'w1', { phase: 'Failed', reason: 'Error' }), pod('kube-system', 'done', 'w1', { phase: 'Succeeded' })] }, facts: [] },
  {
    name: 'a load-balancer address on a service outside the expected set',
    reads: { services: [{ metadata: { namespace: 'monitoring', name: 'grafana-external' }, status: { loadBalancer: { ingress: [{ ip: '10.10.100.50' }] } } }, { metadata: { namespace: 'ingress-nginx', name: 'ctl' }, status: { loadBalancer: { ingress: [{ ip: '10.10.100.60' }] } } }] as HealthReads['services'], intendedAddresses: ['ingress-nginx/ctl'] },
    facts: ['service monitoring/grafana-external holds load-balancer address 10.10.100.50, but it is not among the services meant to hold one (site.loadBalancerServices)'],
  },
  { name: 'KubeVirt not Available, CDI not Deployed', reads: { kubevirt: kv('False'), cdi: { metadata: { name: 'cdi' }, status: { phase: 'Deploying' } } }, facts: ['KubeVirt kubevirt/kubevirt: Available False (Reconciling KubeVirt resources)', 'CDI cdi: phase Deploying, not Deployed'] },
  {
    name: 'Portworx: a Degraded StorageCluster with its RuntimeState',
    reads: { storage: { name: 'portworx/px-cluster', kind: 'StorageCluster', cluster: { metadata: { name: 'px-cluster' }, status: { phase: 'Degraded', conditions: [{ type: 'RuntimeState', status: 'Degraded', message: '1 storage node(s) offline (w2)' }] } } } },
    facts: ['storage cluster portworx/px-cluster (StorageCluster): phase Degraded; RuntimeState Degraded (1 storage node(s) offline (w2))'],
  },
  {
    name: 'Rook-Ceph: a CephCluster Ready but HEALTH_WARN, with its checks',
    reads: { storage: { name: 'rook-ceph/rook-ceph', kind: 'CephCluster', cluster: { metadata: { name: 'rook-ceph' }, status: { phase: 'Ready', ceph: { health: 'HEALTH_WARN', details: { OSD_DOWN: { message: '1 osds down', severity: 'HEALTH_WARN' } } } } } } },
    facts: ['storage cluster rook-ceph/rook-ceph (CephCluster): Ceph reports HEALTH_WARN: OSD_DOWN: 1 osds down'],
  },
];

describe('judgeHealth', () => {
  it.each(cases)('$name', ({ reads, facts }) => {
    expect(judgeHealth(reads).map((f) => f.text)).toEqual(facts);
  });

  it('gives each fact a key that stays the same on the next read', () => {
    const reads: HealthReads = { nodes: [node('w2', 'Unknown')], pods: [pod('kubevirt', 'virt-handler-b', 'w2', running(false))] };
    expect(judgeHealth(reads).map((f) => f.key)).toEqual(judgeHealth(structuredClone(reads)).map((f) => f.key));
    expect(judgeHealth(reads).find((f) => f.area === 'pods')?.lines).toEqual(['kubevirt/virt-handler-b']);
  });
});
