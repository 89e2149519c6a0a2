/**
 * Spec 9.2, row by row: in `lost-customizations` (4.5.4 deployed, target 4.6.3), publishing the 4.6.3
 * packs with every site customization but one shows that one's real effect in the cluster. Then the
 * plain 4.6.3 defaults, which lose all twelve at once.
 */
import { describe, expect, it } from 'vitest';
import { customizations, labSite, type CustomizationId } from '../../../src/lab/data/site.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { createHarness, phaseOf, type Harness } from '../support/world-harness.js';

const min = 60_000;

const addressOf = (svc: KubeObject | undefined): string | undefined => (svc?.status as { loadBalancer?: { ingress?: Array<{ ip: string }> } } | undefined)?.loadBalancer?.ingress?.[0]?.ip;
const holders = (h: Harness) =>
  h
    .list('services', { fieldSelector: 'spec.type=LoadBalancer' })
    .filter((s) => addressOf(s))
    .map((s) => `${s.metadata.namespace}/${s.metadata.name}`)
    .sort();
/** The Failed pods every lab cluster keeps from before (src/lab/world/failed-pods.ts). */
const PAST_PODS = ['kube-system/coredns-7c65d6cfc9-x2q7r', 'kube-system/etcd-defrag-29012960-8kq4z'];
const crashLooping = (pods: KubeObject[]) =>
  pods.filter((p) => (p.status as { containerStatuses?: Array<{ state: { waiting?: { reason: string } } }> }).containerStatuses?.some((c) => c.state.waiting?.reason === 'CrashLoopBackOff'));
const storageCluster = (h: Harness) => h.get('storageclusters', 'portworx', 'px-cluster')!;
const scAnnotations = (h: Harness) => storageCluster(h).metadata.annotations ?? {};
const condition = (o: KubeObject, type: string) => ((o.status as { conditions?: Array<Record<string, string>> }).conditions ?? []).find((c) => c.type === type);
const restart = (h: Harness, namespace: string, name: string) => h.world.kubeHooks.subresource!({ resource: 'virtualmachines', namespace, name, subresource: 'restart', method: 'PUT', body: {} });

/** The site's state before anything is published: what every effect below departs from. */
function assertSiteIntact(h: Harness): void {
  expect(holders(h)).toEqual(['ingress-nginx/ingress-nginx-controller', 'virtual-machines/web-frontend-lb']);
  expect(addressOf(h.get('services', 'ingress-nginx', 'ingress-nginx-controller'))).toBe(labSite.ingressIP);
  expect(h.get('storageclasses', undefined, 'px-vm-block')).toBeDefined();
  expect(phaseOf(storageCluster(h))).toBe('Running');
  // Only the cluster's past is not running: a pod evicted a week ago and a failed Job's pod (failed-pods.ts).
  expect(h.list('pods', { fieldSelector: 'status.phase!=Running,status.phase!=Succeeded' }).map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(PAST_PODS);
  expect(crashLooping(h.list('pods'))).toHaveLength(0);
}

/** What losing each customization does, checked after the hop's reconciliation. */
const effects: Record<CustomizationId, (h: Harness) => void> = {
  'metallb-auto-assign': (h) => {
    // The orchestration pack's LoadBalancer services get addresses nobody wanted
    expect(holders(h)).toEqual(['cdi/cdi-uploadproxy-lb', 'ingress-nginx/ingress-nginx-controller', 'kubevirt/virt-exportproxy-lb', 'virtual-machines/web-frontend-lb']);
    expect(addressOf(h.get('services', 'ingress-nginx', 'ingress-nginx-controller'))).toBe(labSite.ingressIP);
  },
  'ingress-load-balancer-ip': (h) => {
    const ingress = h.get('services', 'ingress-nginx', 'ingress-nginx-controller')!;
    expect((ingress.spec as { loadBalancerIP?: string }).loadBalancerIP).toBeUndefined();
    // autoAssign is still false on this site: the ingress is left without any address
    expect(addressOf(ingress)).toBeUndefined();
  },
  'kubevirt-smm-feature-gate': (h) => {
    expect(JSON.stringify(h.get('kubevirts', 'kubevirt', 'kubevirt')!.spec)).not.toContain('"SMM"');
    restart(h, 'ns-adv', 'win-sb-01');
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'ns-adv', 'win-sb-01')) === 'Failed', 3 * min, 1000)).toBe(true);
    expect((h.get('virtualmachines', 'ns-adv', 'win-sb-01')!.status as { printableStatus: string }).printableStatus).toBe('CrashLoopBackOff');
  },
  'monitoring-issuer-selfsigned': (h) => {
    const grafana = h.list('pods', { namespace: 'monitoring', labelSelector: 'app.kubernetes.io/name=grafana' });
    expect(grafana.map(phaseOf)).toEqual(['Pending']);
    const events = h.list('events', { namespace: 'monitoring', fieldSelector: `involvedObject.name=${grafana[0]!.metadata.name}` });
    expect(events.some((e) => e.reason === 'FailedMount' && String(e.message).includes('grafana-internal-tls'))).toBe(true);
  },
  'cilium-pod-cidr-macro': (h) => {
    const operators = h.list('pods', { namespace: 'kube-system', labelSelector: 'io.cilium/app=operator' });
    expect(crashLooping(operators)).toHaveLength(2);
    expect(JSON.stringify(operators[0]!.status)).toContain('10.0.0.0/8');
  },
  'storage-class-name': (h) => {
    expect(h.get('storageclasses', undefined, 'px-vm-block')).toBeUndefined();
    expect(h.get('storageclasses', undefined, 'px-csi-replicated')).toBeDefined();
  },
  'storage-class-parameters': (h) => {
    expect(h.get('storageclasses', undefined, 'px-vm-block')!.parameters).toEqual({ repl: '2', priority_io: 'medium', io_profile: 'auto' });
  },
  'storage-class-virt-annotation': (h) => {
    const sc = h.get('storageclasses', undefined, 'px-vm-block')!;
    expect(sc.metadata.annotations?.['storageclass.kubevirt.io/is-default-virt-class']).toBeUndefined();
  },
  'storage-node-affinity': (h) => {
    expect((storageCluster(h).spec as { placement: Record<string, unknown> }).placement.nodeAffinity).toBeUndefined();
    const onComputeOnly = h.list('pods', { namespace: 'portworx', labelSelector: 'name=portworx', fieldSelector: 'spec.nodeName=vmo-worker-4' });
    expect(crashLooping(onComputeOnly)).toHaveLength(1);
    expect(phaseOf(storageCluster(h))).toBe('Degraded');
  },
  'storage-run-on-master': (h) => {
    expect(scAnnotations(h)['portworx.io/run-on-master']).toBeUndefined();
    expect(h.list('pods', { namespace: 'portworx', labelSelector: 'name=portworx', fieldSelector: 'spec.nodeName=vmo-cp-1' })).toHaveLength(0);
    expect(phaseOf(storageCluster(h))).toBe('Degraded');
    expect(condition(storageCluster(h), 'RuntimeState')?.message).toContain('vmo-cp-1');
  },
  'storage-pvc-controller-ports': (h) => {
    expect(scAnnotations(h)['portworx.io/pvc-controller-port']).toBeUndefined();
    const pvc = h.list('pods', { namespace: 'portworx', labelSelector: 'name=portworx-pvc-controller' });
    expect(crashLooping(pvc)).toHaveLength(3);
    expect(JSON.stringify(pvc[0]!.status)).toContain('address already in use');
  },
  'storage-activate-license': (h) => {
    expect(condition(storageCluster(h), 'License')).toMatchObject({ status: 'Failed' });
    expect(h.list('pods', { namespace: 'portworx', labelSelector: 'job-name=px-license-activation' }).map(phaseOf)).toEqual(['Failed']);
  },
};

function hopWithout(without: ReadonlySet<CustomizationId>, plainDefaults = false): Harness {
  const h = createHarness('lost-customizations');
  assertSiteIntact(h);
  h.publishHop('4.6.3', { without, plainDefaults });
  expect(h.runUntil(() => !h.world.reconciler.busy(), 40 * min)).toBe(true);
  return h;
}

describe('each 9.2 customization has its real effect when published without it', () => {
  it('lists twelve customizations', () => {
    expect(customizations).toHaveLength(12);
  });

  for (const c of customizations) {
    it(`${c.id} (${c.role} ${c.pack})`, () => {
      const h = hopWithout(new Set([c.id]));
      try {
        effects[c.id](h);
      } finally {
        h.close();
      }
    });
  }

  it('a hop carrying every customization keeps the site intact', () => {
    const h = hopWithout(new Set());
    try {
      h.clock.advance(10 * min);
      assertSiteIntact(h);
    } finally {
      h.close();
    }
  });
});

describe('publishing the plain new defaults', () => {
  it('loses all twelve customizations at once', () => {
    const h = hopWithout(new Set(), true);
    try {
      // autoAssign and loadBalancerIP lost together: the ingress gets some other pool address
      const ingress = addressOf(h.get('services', 'ingress-nginx', 'ingress-nginx-controller'));
      expect(ingress).toBeDefined();
      expect(ingress).not.toBe(labSite.ingressIP);
      expect(holders(h)).toContain('kubevirt/virt-exportproxy-lb');
      for (const id of ['monitoring-issuer-selfsigned', 'cilium-pod-cidr-macro', 'storage-class-name', 'storage-pvc-controller-ports', 'storage-activate-license'] as const) effects[id](h);
      const sc = h.get('storageclasses', undefined, 'px-csi-replicated')!;
      expect(sc.metadata.annotations?.['storageclass.kubevirt.io/is-default-virt-class']).toBeUndefined();
      expect(scAnnotations(h)['portworx.io/run-on-master']).toBeUndefined();
      expect((storageCluster(h).spec as { placement: Record<string, unknown> }).placement.nodeAffinity).toBeUndefined();
      expect(phaseOf(storageCluster(h))).toBe('Degraded');
      effects['kubevirt-smm-feature-gate'](h);
    } finally {
      h.close();
    }
  });
});
