/**
 * `degraded`: what preflight must notice before anything is published, as the Kubernetes API
 * shows it (node conditions, storage phase, a crash-looping pod, an address nobody intended).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labSite } from '../../../src/lab/data/site.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { createHarness, phaseOf, type Harness } from '../support/world-harness.js';

const ready = (n: KubeObject) => ((n.status as { conditions: Array<{ type: string; status: string }> }).conditions.find((c) => c.type === 'Ready')?.status);

describe('degraded scenario', () => {
  let h: Harness;
  beforeAll(() => {
    h = createHarness('degraded');
  });
  afterAll(() => h.close());

  it('has a node whose kubelet stopped reporting, and no VMI was placed on it', () => {
    const node = h.get('nodes', undefined, 'vmo-worker-2')!;
    expect(ready(node)).toBe('Unknown');
    expect((node.spec as { taints: Array<{ key: string }> }).taints.map((t) => t.key)).toContain('node.kubernetes.io/unreachable');
    expect(h.list('nodes').filter((n) => ready(n) !== 'True').map((n) => n.metadata.name)).toEqual(['vmo-worker-2']);
    expect(h.list('virtualmachineinstances').filter((v) => (v.status as { nodeName: string }).nodeName === 'vmo-worker-2')).toHaveLength(0);
    const handler = h.list('pods', { namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler', fieldSelector: 'spec.nodeName=vmo-worker-2' })[0]!;
    expect(JSON.stringify(handler.status)).toContain('"type":"Ready","status":"False"');
  });

  it('has a Degraded storage cluster', () => {
    const stc = h.get('storageclusters', 'portworx', 'px-cluster')!;
    expect(phaseOf(stc)).toBe('Degraded');
    expect(JSON.stringify(stc.status)).toContain('vmo-worker-2');
  });

  it('has a crash-looping pod (phase Running, container waiting in CrashLoopBackOff)', () => {
    const ksm = h.list('pods', { namespace: 'monitoring', labelSelector: 'app.kubernetes.io/name=kube-state-metrics' })[0]!;
    expect(phaseOf(ksm)).toBe('Running');
    const cs = (ksm.status as { containerStatuses: Array<{ restartCount: number; state: { waiting?: { reason: string } } }> }).containerStatuses[0]!;
    expect(cs.state.waiting?.reason).toBe('CrashLoopBackOff');
    const restarts = cs.restartCount;
    h.clock.advance(11 * 60_000);
    const later = h.list('pods', { namespace: 'monitoring', labelSelector: 'app.kubernetes.io/name=kube-state-metrics' })[0]!;
    expect((later.status as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0]!.restartCount).toBeGreaterThan(restarts);
  });

  it('has a leaked load-balancer address besides the intended ones', () => {
    const withAddress = h
      .list('services', { fieldSelector: 'spec.type=LoadBalancer' })
      .filter((s) => ((s.status as { loadBalancer: { ingress?: unknown[] } }).loadBalancer.ingress ?? []).length > 0)
      .map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
    expect(withAddress.filter((s) => !labSite.intendedLoadBalancerServices.includes(s))).toEqual(['monitoring/grafana-external']);
  });
});
