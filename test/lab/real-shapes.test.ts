/**
 * The lab serves what a real cluster serves, seen through the real kubectl: null condition
 * timestamps, a virt-handler with two containers (a log read must name one), the cluster's past
 * (superseded failed migrations, an evicted pod, a failed Job's pod), a deleted migration held by
 * its finalizer, and, without Multus, a network attachment definitions group that does not exist.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type LabHandle } from '../../src/lab/index.js';

const run = promisify(execFile);

function labKubectl(lab: () => LabHandle, cache: string) {
  return async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const r = await run('kubectl', ['--kubeconfig', lab().kubeconfig, '--request-timeout=20s', ...args], { env: { ...process.env, KUBECACHEDIR: cache }, timeout: 30_000 });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };
}

describe('the lab’s real shapes (healthy)', () => {
  let lab: LabHandle;
  let dir: string;
  const kubectl = labKubectl(() => lab, mkdtempSync(join(tmpdir(), 'shapes-kubecache-')));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shapes-'));
    lab = await startLab({ scenario: 'healthy', stateDir: dir, speed: 1, seed: 5 });
  });
  afterAll(async () => {
    await lab?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('running VMIs carry LiveMigratable with null timestamps, AgentConnected with a probe time and a null transition', async () => {
    const r = await kubectl('get', 'vmi', '-n', 'virtual-machines', 'web-01', '-o', 'json');
    const conditions = (JSON.parse(r.stdout) as { status: { conditions: Array<Record<string, unknown>> } }).status.conditions;
    expect(conditions.find((c) => c.type === 'LiveMigratable')).toEqual({ type: 'LiveMigratable', status: 'True', lastProbeTime: null, lastTransitionTime: null });
    expect(conditions.find((c) => c.type === 'AgentConnected')).toMatchObject({ status: 'True', lastProbeTime: expect.any(String), lastTransitionTime: null });
  });

  it('virt-handler has a second container: a log read without a container is refused as the apiserver refuses it', async () => {
    const pod = (await kubectl('get', 'pods', '-n', 'kubevirt', '-l', 'kubevirt.io=virt-handler', '-o', 'name')).stdout.split('\n')[0]!.replace('pod/', '');
    const raw = await kubectl('get', '--raw', `/api/v1/namespaces/kubevirt/pods/${pod}/log?tailLines=1`);
    expect(raw.code).toBe(1);
    expect(raw.stderr).toContain(`a container name must be specified for pod ${pod}, choose one of: [virt-handler virt-launcher-image-holder] or one of the init containers: [virt-launcher]`);
    expect((await kubectl('get', '--raw', `/api/v1/namespaces/kubevirt/pods/${pod}/log?tailLines=1&container=virt-handler`)).code).toBe(0);
  });

  it('keeps its past: db-01’s failed migrations superseded by a success, an evicted pod and a failed Job’s pod from days ago', async () => {
    const migs = JSON.parse((await kubectl('get', 'vmim', '-n', 'virtual-machines', '-o', 'json')).stdout) as { items: Array<{ metadata: { creationTimestamp: string }; spec: { vmiName: string }; status: { phase: string; migrationState: Record<string, unknown> } }> };
    const db = migs.items.filter((m) => m.spec.vmiName === 'db-01').sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp));
    expect(db.map((m) => m.status.phase)).toEqual(['Failed', 'Failed', 'Succeeded']);
    expect(migs.items.find((m) => m.status.phase === 'Failed')?.status.migrationState).toMatchObject({ failed: true, abortStatus: 'Succeeded', failureReason: 'Live migration stuck for 150 seconds and has been aborted' });
    const failed = await kubectl('get', 'pods', '-A', '--field-selector', 'status.phase=Failed', '-o', 'custom-columns=NAME:.metadata.name,REASON:.status.reason', '--no-headers');
    expect(failed.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).join(' '))).toEqual(['coredns-7c65d6cfc9-x2q7r Evicted', 'etcd-defrag-29012960-8kq4z <none>']);
  });

  it('field selectors on custom resources: only metadata.name and metadata.namespace, as a real apiserver', async () => {
    const r = await kubectl('get', 'vmim', '-A', '--field-selector', 'status.phase=Failed');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('field label not supported: status.phase');
  });

  // (One in flight stays with its finalizer while it aborts: test/lab/world/skip-minor.test.ts.)
  it('a finished migration deleted goes at once: its controller drops the finalizer as soon as it sees the delete', async () => {
    const name = JSON.parse((await kubectl('get', 'vmim', '-n', 'virtual-machines', '-o', 'json')).stdout).items[0].metadata.name as string;
    expect((await kubectl('delete', 'vmim', '-n', 'virtual-machines', name, '--wait=false')).stdout).toContain(`"${name}" deleted`);
    expect((await kubectl('get', 'vmim', '-n', 'virtual-machines', name)).code).toBe(1);
  });
});

describe('the lab without Multus (no-multus)', () => {
  let lab: LabHandle;
  let dir: string;
  const kubectl = labKubectl(() => lab, mkdtempSync(join(tmpdir(), 'shapes-kubecache-')));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shapes-nomultus-'));
    lab = await startLab({ scenario: 'no-multus', stateDir: dir, speed: 1, seed: 5 });
  });
  afterAll(async () => {
    await lab?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the group is not in discovery, and its paths answer 404 page not found, as for any group nothing serves', async () => {
    expect((await kubectl('api-resources', '--api-group', 'k8s.cni.cncf.io', '--no-headers')).stdout.trim()).toBe('');
    const list = await kubectl('get', '--raw', '/apis/k8s.cni.cncf.io/v1/network-attachment-definitions');
    expect(list.code).toBe(1);
    expect(list.stderr.trim()).toBe('Error from server (NotFound): the server could not find the requested resource');
    expect((await kubectl('get', 'network-attachment-definitions', '-A')).stderr).toContain('the server doesn\'t have a resource type "network-attachment-definitions"');
    // The VMs run on the pod network only.
    const vmi = JSON.parse((await kubectl('get', 'vmi', '-n', 'virtual-machines', 'web-01', '-o', 'json')).stdout) as { spec: { networks: unknown[] } };
    expect(vmi.spec.networks).toEqual([{ name: 'default', pod: {} }]);
  });
});
