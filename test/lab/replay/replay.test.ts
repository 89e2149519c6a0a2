/**
 * A replay's Kubernetes API through the real kubectl, from a capture written here: the captured
 * objects listed with selectors, a captured log tail served for its pod (whichever container the
 * read names), a group the site did not have answered 404 (the reader says it is not installed),
 * the clock at the cluster's time of the capture, and every change refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_FORMAT, CAPTURE_FORMAT_VERSION } from '../../../src/capture/types.js';
import { KubeClient } from '../../../src/kube/client.js';
import { Kubectl } from '../../../src/kube/kubectl.js';
import { startReplay, type ReplayHandle } from '../../../src/lab/replay/index.js';

const pod = (name: string, containers: string[], labels: Record<string, string>, phase = 'Running') => ({
  metadata: { name, namespace: 'kubevirt', labels, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { nodeName: 'n1', containers: containers.map((c) => ({ name: c, image: `quay.io/kubevirt/${c}:v1.4.0` })) },
  status: { phase },
});

const capture = {
  format: CAPTURE_FORMAT,
  formatVersion: CAPTURE_FORMAT_VERSION,
  manifest: {
    tool: { name: 'upgrade-pilot', version: '0.1.0' },
    capturedAt: '2026-03-04T05:06:07.000Z',
    clusterTime: '2026-03-04T05:00:00.000Z',
    cluster: { uid: 'c1', name: 'site-a' },
    kube: { serverVersion: 'v1.30.2' },
    palette: { flavor: 'spec', projectUid: 'p1' },
  },
  params: {
    palette: { baseUrl: 'https://api.example.com', projectUid: 'p1' },
    cluster: { uid: 'c1', name: 'site-a' },
    profiles: { addon: { uid: 'a1' }, infra: { uid: 'i1' } },
    target: '4.6.3',
    site: { blockStorageClass: 'px-vm-block' },
  },
  kube: {
    version: { gitVersion: 'v1.30.2' },
    resources: {
      nodes: { group: '', version: 'v1', resource: 'nodes', objects: [{ metadata: { name: 'n1' } }, { metadata: { name: 'n2', labels: { role: 'worker' } } }] },
      pods: { group: '', version: 'v1', resource: 'pods', objects: [pod('virt-handler-a', ['virt-handler', 'virt-launcher-image-holder'], { 'kubevirt.io': 'virt-handler' }), pod('virt-api-b', ['virt-api'], { 'kubevirt.io': 'virt-api' })] },
    },
    logs: [
      { namespace: 'kubevirt', pod: 'virt-handler-a', container: 'virt-handler', tailLines: 500, text: 'one\nrpc error: code = Unimplemented desc = unknown method GetDomainDirtyRateStats\n' },
      { namespace: 'kubevirt', pod: 'virt-api-b', container: '', text: 'api line\n' },
    ],
    absent: [{ path: '/apis/k8s.cni.cncf.io', failure: 'not-found' }],
  },
  palette: { answers: [] },
  values: {},
};

let replay: ReplayHandle;
let kubectl: Kubectl;
/** Just before the replay started (its clock starts at the capture's time once it is up). */
let replayStarted = 0;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'up-replay-'));
  writeFileSync(join(dir, 'site.json'), JSON.stringify(capture));
  replayStarted = performance.now();
  replay = await startReplay({ file: join(dir, 'site.json'), stateDir: join(dir, 'state') });
  kubectl = new Kubectl({ kubeconfig: replay.kubeconfig, requestTimeoutMs: 20_000, processTimeoutMs: 30_000, cacheDir: mkdtempSync(join(tmpdir(), 'up-replay-kube-')), concurrency: 4, readProxy: true });
}, 60_000);
afterAll(async () => {
  kubectl?.close();
  await replay?.close();
});

describe('a replay’s Kubernetes API', () => {
  it('lists the captured objects, with selectors', async () => {
    const reader = new KubeClient(kubectl).reader();
    expect((await reader.nodes()).map((n) => n.metadata.name)).toEqual(['n1', 'n2']);
    expect((await reader.pods({ namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler' })).map((p) => p.metadata.name)).toEqual(['virt-handler-a']);
  });

  it('serves a captured log tail for the container it was read from, and the single container’s log without a name', async () => {
    const reader = new KubeClient(kubectl).reader();
    expect(await reader.podLog('kubevirt', 'virt-handler-a', 500, 'virt-handler')).toMatch(/Unimplemented/);
    expect(await reader.podLog('kubevirt', 'virt-api-b', 10)).toBe('api line\n');
  });

  it('a group the site did not have is not installed here either', async () => {
    const nads = await new KubeClient(kubectl).reader().networkAttachmentDefinitions();
    expect(nads.items).toEqual([]);
    expect(nads.notInstalled).toMatch(/Multus \(k8s\.cni\.cncf\.io\) is not installed/);
  });

  it('runs on the cluster’s clock from the capture on, and writes the lab’s files for it', async () => {
    const clock = (await (await fetch(replay.labJson.controlUrls.clock, { headers: { ApiKey: replay.apiKey } })).json()) as { now: number; speed: number };
    expect(clock.speed).toBe(1);
    // It starts at the capture's time and runs at the wall's pace: no further on than the time since it started.
    const ran = clock.now - Date.parse('2026-03-04T05:00:00.000Z');
    expect(ran).toBeGreaterThanOrEqual(0);
    expect(ran).toBeLessThanOrEqual(performance.now() - replayStarted);
    expect(replay.labJson).toMatchObject({ scenario: 'replay', clusterUid: 'c1', clusterName: 'site-a', profileUids: { addon: 'a1', infra: 'i1' }, replay: { serverVersion: 'v1.30.2', readOnly: true } });
  });

  it('refuses every change', async () => {
    await expect(kubectl.run(['delete', 'node', 'n1'], { action: 'delete a node' })).rejects.toMatchObject({ code: 'kube.forbidden' });
    expect((await new KubeClient(kubectl).reader().nodes()).map((n) => n.metadata.name)).toEqual(['n1', 'n2']);
  });
});
