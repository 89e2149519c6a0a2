/**
 * How the real kubectl fails against the lab: expired credentials, RBAC refusals, a server that
 * never answers, a server that is gone. The product's kube runner maps these texts to its errors.
 */
import { describe, expect, it } from 'vitest';
import { writeKubeconfig } from '../../../src/lab/kube/kubeconfig.js';
import { startLab } from './lab-fixture.js';
import { seedSmallCluster } from './seed.js';

/** A hang bound: a real kubectl starts slowly on a loaded machine. */
const KUBECTL_TIMEOUT = 120_000;

describe('real kubectl failures', () => {
  it('is told to log in once the token expires, and works again with a renewed one', async () => {
    const lab = await startLab({ seed: seedSmallCluster });
    try {
      expect((await lab.kubectl(['get', 'pods', '-A', '-o', 'name'])).code).toBe(0);
      lab.server.expireToken();
      for (const args of [['get', 'pods', '-A'], ['get', '--raw', '/api/v1/pods']]) {
        const r = await lab.kubectl(args);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split('\n').at(-1)).toBe('error: You must be logged in to the server (Unauthorized)');
      }
      const token = lab.server.renewToken();
      await writeKubeconfig(lab.kubeconfig, { server: lab.server.url, caPem: lab.server.caPem, token, context: 'lab', cluster: 'lab', user: 'operator' });
      expect((await lab.kubectl(['get', 'pods', '-A', '-o', 'name'])).code).toBe(0);
    } finally {
      await lab.close();
    }
  }, KUBECTL_TIMEOUT);

  it('prints the RBAC refusal (and, for -o json, an empty List on stdout)', async () => {
    const lab = await startLab({ seed: seedSmallCluster, forbid: [{ verb: 'list', resource: 'pods' }] });
    try {
      const r = await lab.kubectl(['get', 'pods', '-A', '-o', 'json']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:kube-system:upgrade-pilot" cannot list resource "pods" in API group "" at the cluster scope',
      );
      expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'List', items: [] });
      expect((await lab.kubectl(['get', 'pod', 'crasher-6f9b7', '-n', 'default', '-o', 'name'])).stdout.trim()).toBe('pod/crasher-6f9b7');
    } finally {
      await lab.close();
    }
  }, KUBECTL_TIMEOUT);

  it('times out against a server that accepts and never answers', async () => {
    const lab = await startLab({ seed: seedSmallCluster });
    try {
      expect((await lab.kubectl(['get', 'pods', '-A', '-o', 'name'])).code).toBe(0);
      lab.server.setHung(true);
      const r = await lab.kubectl(['get', 'pods', '-A', '--request-timeout=1s']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Unable to connect to the server: .*(Client\.Timeout exceeded|context deadline exceeded)/m);
      // The dispatcher's /version and kubectl's own call each wait out the 1 s timeout; only a hang
      // (a call without its time-out) would take half a minute, whatever the machine's load.
      expect(r.ms).toBeLessThan(30_000);
    } finally {
      await lab.close();
    }
  }, KUBECTL_TIMEOUT);

  it('reports a refused connection once the server is closed', async () => {
    const lab = await startLab({ seed: seedSmallCluster });
    const port = new URL(lab.server.url).port;
    await lab.server.close();
    const r = await lab.kubectl(['get', 'pods', '-A']);
    await lab.close();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`The connection to the server 127.0.0.1:${port} was refused`);
  }, KUBECTL_TIMEOUT);
});
