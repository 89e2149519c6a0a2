/**
 * The Failed pods a cluster keeps from its past: nothing deletes a pod the kubelet evicted, nor the
 * pod of a Job that gave up (the Job keeps it for its logs), so real clusters list them for days.
 * Shapes as Kubernetes 1.32 writes them: an eviction adds a `DisruptionTarget` condition
 * (`TerminationByKubelet`) and sets `reason: Evicted` with the kubelet's message
 * (kubernetes/kubernetes#105467 shows one); a failed Job pod has its container terminated `Error`.
 */
import { podObject, setPodState } from './k8s-objects.js';
import type { World } from './world.js';

const day = 24 * 3_600_000;

/** How many pods seedFailedPods adds: a scenario sized by its pod count (`large`) leaves room for them. */
export const FAILED_POD_COUNT = 2;

export function seedFailedPods(world: World): void {
  const { ctx } = world;
  const node = world.nodes.workers()[1]?.name ?? world.nodes.workers()[0]?.name;
  if (!node) return;
  const now = ctx.clock.now();
  const stamp = (agoMs: number) => new Date(Math.floor((now - agoMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const ips = { hostIP: world.network.nodeIp(node), podIP: world.network.podIp(node) };

  // Evicted a week ago when the node ran short of ephemeral storage; its ReplicaSet made another.
  const evictedAt = stamp(7 * day);
  const evicted = podObject({
    namespace: 'kube-system',
    name: 'coredns-7c65d6cfc9-x2q7r',
    node,
    labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '7c65d6cfc9' },
    owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'coredns-7c65d6cfc9' },
    containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' }],
    priorityClassName: 'system-cluster-critical',
    created: stamp(9 * day),
    state: { kind: 'running' },
    ...ips,
  });
  const message = 'The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 898240Ki. Container coredns was using 3108Ki, request is 0, has larger consumption of ephemeral-storage. ';
  setPodState(evicted, { kind: 'failed', reason: 'Completed', message: '', exitCode: 0 }, evictedAt);
  const st = evicted.status as Record<string, unknown> & { conditions: Array<Record<string, unknown>>; containerStatuses: Array<{ state: { terminated: Record<string, unknown> } }> };
  st.reason = 'Evicted';
  st.message = message;
  st.conditions.unshift({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: evictedAt, reason: 'TerminationByKubelet', message });
  for (const c of st.containerStatuses) delete c.state.terminated.message;
  ctx.store.upsert('pods', evicted);

  // A Job's pod that failed three days ago (restartPolicy Never): the Job keeps it.
  const job = podObject({
    namespace: 'kube-system',
    name: 'etcd-defrag-29012960-8kq4z',
    node,
    labels: { 'batch.kubernetes.io/job-name': 'etcd-defrag-29012960', 'job-name': 'etcd-defrag-29012960' },
    owner: { apiVersion: 'batch/v1', kind: 'Job', name: 'etcd-defrag-29012960' },
    containers: [{ name: 'defrag', image: 'registry.k8s.io/etcd:3.5.16-0' }],
    restartPolicy: 'Never',
    created: stamp(3 * day + 40_000),
    state: { kind: 'running' },
    ...ips,
  });
  setPodState(job, { kind: 'failed', reason: 'Error', message: 'context deadline exceeded', exitCode: 1 }, stamp(3 * day));
  ctx.store.upsert('pods', job);
}
