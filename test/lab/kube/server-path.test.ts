/**
 * A Kubernetes API behind a gateway path (Rancher's `/k8s/clusters/<id>`), in the lab
 * (src/lab/kube/server-path.ts) and through the product's kubectl runner: the real kubectl 1.32
 * reaches the cluster under the path by itself, but sends `get --raw` and `replace --raw` paths as
 * given and `kubectl proxy` drops the path unless told; the runner prefixes and tells, so nothing
 * it sends reaches the gateway's root (the lab records every request there).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/lab/audit.js';
import { Kubectl } from '../../../src/kube/kubectl.js';
import { ClusterReader } from '../../../src/kube/reader.js';
import { restartRequest } from '../../../src/steps/migrations/recover-requests.js';
import { startLab, type Lab } from './lab-fixture.js';

const SERVER_PATH = '/k8s/clusters/c-lab';
const audit = new AuditLog();
let lab: Lab;

beforeAll(async () => {
  lab = await startLab({
    audit,
    serverPath: SERVER_PATH,
    hooks: { subresource: (req) => (req.subresource === 'restart' && req.method === 'PUT' ? { status: 202 } : undefined) },
    seed: (s) => {
      s.upsert('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] } });
      s.upsert('virtualmachines', { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'web-01', namespace: 'vms' }, spec: { runStrategy: 'Always' } });
    },
  });
}, 30_000);
afterAll(async () => {
  await lab?.close();
});

const atRoot = () => audit.entries({ api: 'kube' }).filter((e) => !e.path.startsWith(`${SERVER_PATH}/`) && e.note?.startsWith('outside the server path'));
const runner = (readProxy: boolean) => new Kubectl({ kubeconfig: lab.kubeconfig, requestTimeoutMs: 10_000, processTimeoutMs: 15_000, cacheDir: mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-')), concurrency: 4, readProxy });

describe('the lab behind a gateway path', () => {
  it('names the path in the kubeconfig; kubectl works under it; a raw path at the root gets the gateway’s 404, recorded', async () => {
    expect(lab.server.url).toBe(`${lab.server.origin}${SERVER_PATH}`);
    const nodes = await lab.kubectl(['get', 'nodes', '-o', 'name']);
    expect(nodes.stdout.trim()).toBe('node/node-1');
    // kubectl 1.32 sends a raw path as given: the gateway's root.
    const raw = await lab.kubectl(['get', '--raw', '/api/v1/nodes']);
    expect(raw.code).toBe(1);
    expect(raw.stderr).toContain('the server could not find the requested resource');
    expect(atRoot().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/v1/nodes 404']);
  });

  it.each([
    ['through the read proxy', true],
    ['with kubectl get --raw', false],
  ])('the runner reads under the path (%s) and restarts a VM under it: nothing at the root', async (_how, proxy) => {
    const before = atRoot().length;
    const k = runner(proxy);
    try {
      const r = new ClusterReader(k);
      expect((await r.nodes()).map((n) => n.metadata.name)).toEqual(['node-1']);
      expect(await r.ping()).toMatch(/^v1\.\d+/);
      await k.execute(restartRequest('vms', 'web-01', 'kubectl'));
    } finally {
      k.close();
    }
    expect(atRoot().length).toBe(before);
    const restart = audit.entries({ api: 'kube', method: 'PUT' }).at(-1);
    expect(restart).toMatchObject({ path: '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web-01/restart', status: 202, effect: 'applied' });
  });
});
