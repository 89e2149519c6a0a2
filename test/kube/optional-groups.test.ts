/**
 * An API group that is not installed (Multus' `k8s.cni.cncf.io` on a cluster without Multus)
 * means "none of its objects", said once; it is told apart from what must exist and does not
 * (KubeVirt not installed, the KubeVirt CR deleted), which stays a problem. Against the lab's
 * Kubernetes API with the group left out, through the real kubectl, with and without the proxy.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckSpecSchema } from '../../src/kube/check-schema.js';
import { gatherVerifyData } from '../../src/kube/checks/gather.js';
import { runChecks } from '../../src/domain/checks/run.js';
import { Kubectl } from '../../src/kube/kubectl.js';
import { ClusterReader } from '../../src/kube/reader.js';
import { startLab, type Lab } from '../lab/kube/lab-fixture.js';

let withoutMultus: Lab;
let withoutKubevirt: Lab;
beforeAll(async () => {
  const seed = (s: Lab['store']) => {
    s.upsert('services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default' }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.1' } });
  };
  [withoutMultus, withoutKubevirt] = await Promise.all([
    startLab({ seed, absentGroups: ['k8s.cni.cncf.io'] }),
    startLab({ seed, absentGroups: ['kubevirt.io', 'subresources.kubevirt.io'] }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([withoutMultus?.close(), withoutKubevirt?.close()]);
});

const reader = (lab: Lab, readProxy: boolean) =>
  new ClusterReader(new Kubectl({ kubeconfig: lab.kubeconfig, requestTimeoutMs: 10_000, processTimeoutMs: 15_000, cacheDir: mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-')), concurrency: 4, readProxy }));

describe('an optional API group that is not installed', () => {
  it.each([
    ['through the proxy', true],
    ['with kubectl get --raw', false],
  ])('lists no network attachment definitions and says why (%s)', async (_how, proxy) => {
    const r = reader(withoutMultus, proxy);
    try {
      const nads = await r.networkAttachmentDefinitions();
      expect(nads.items).toEqual([]);
      expect(nads.notInstalled).toBe('Multus (k8s.cni.cncf.io) is not installed on this cluster: no network attachment definitions');
    } finally {
      r.kubectl.close();
    }
  });

  it('the network panel is judged on what there is, with the note in its summary', async () => {
    const r = reader(withoutMultus, true);
    try {
      const specs = [CheckSpecSchema.parse({ id: 'network', kind: 'network', title: 'Network', with: { ingressService: 'ingress-nginx/ingress-nginx-controller', ingressIP: null } })];
      const data = await gatherVerifyData(specs, { reader: r, profiles: async () => [] });
      const [result] = runChecks(specs, data, { baseline: { runningVmis: [], nads: [] } } as never);
      expect(result).toMatchObject({ status: 'pass', summary: expect.stringContaining('Multus (k8s.cni.cncf.io) is not installed on this cluster: no network attachment definitions') });
    } finally {
      r.kubectl.close();
    }
  });

  it('a group that must be there is still a failure: KubeVirt not installed is not "no KubeVirt"', async () => {
    const r = reader(withoutKubevirt, true);
    try {
      await expect(r.kubeVirt('kubevirt', 'kubevirt')).rejects.toMatchObject({ failure: 'missing-crd' });
      await expect(r.vmis()).rejects.toMatchObject({ failure: 'missing-crd' });
      // The group that is there serves its objects as before.
      expect((await r.networkAttachmentDefinitions()).notInstalled).toBeUndefined();
    } finally {
      r.kubectl.close();
    }
  });

  it('a KubeVirt CR that is missing where KubeVirt is installed reads as absent, for the check to flag', async () => {
    const r = reader(withoutMultus, true);
    try {
      expect(await r.kubeVirt('kubevirt', 'kubevirt')).toBeUndefined();
    } finally {
      r.kubectl.close();
    }
  });
});
