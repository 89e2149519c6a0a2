/**
 * Reads through one `kubectl proxy` (src/kube/read-proxy.ts), against the lab with the real
 * kubectl: the same answers as `kubectl get --raw` from one kubectl process; GET only, on a socket
 * only this user can reach; what the proxy does not answer with a 200 fails exactly as a process
 * would; a time-out is reported once, not waited twice; nothing is left running after close, after
 * a normal exit, or after the owner is killed with SIGKILL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeError } from '../../src/kube/errors.js';
import { Kubectl, type KubectlOptions } from '../../src/kube/kubectl.js';
import { ClusterReader } from '../../src/kube/reader.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { bundleChild } from '../support/bundle-child.js';
import { until } from '../support/wait.js';

let lab: LabHandle;
beforeAll(async () => {
  lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up-proxy-lab-')), speed: 1, seed: 5 });
}, 60_000);
afterAll(async () => {
  await lab.close();
});

/** A `kubectl` first on the PATH that logs each call's arguments and runs the real one. */
function loggingKubectl(): { file: string; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'up-proxy-wrap-'));
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const real = process.env.PATH!.split(delimiter).map((p) => join(p, 'kubectl')).find((p) => existsSync(p))!;
  writeFileSync(join(dir, 'kubectl'), `#!/bin/sh\necho "$*" >> ${log}\nexec ${real} "$@"\n`);
  chmodSync(join(dir, 'kubectl'), 0o755);
  return { file: join(dir, 'kubectl'), calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const runner = (extra: Partial<KubectlOptions> = {}) =>
  new Kubectl({ kubeconfig: lab.kubeconfig, requestTimeoutMs: 10_000, processTimeoutMs: 15_000, cacheDir: mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-')), concurrency: 8, ...extra });

/** Processes whose command line holds `text` (zombies aside). */
function processesWith(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(text) && !/^\s*\d+\s+Z/.test(l) && !l.includes('ps -eo'));
}

const paths = ['/api/v1/nodes', '/api/v1/namespaces/kubevirt/pods', '/apis/kubevirt.io/v1/virtualmachineinstances', '/apis/storage.k8s.io/v1/storageclasses', '/api/v1/services'];

describe('reads through one kubectl proxy', () => {
  it('answer what `kubectl get --raw` answers, from one kubectl process for all of them', async () => {
    const wrap = loggingKubectl();
    const viaProxy = runner({ readProxy: true, kubectlPath: wrap.file });
    const viaProcesses = runner();
    try {
      const [a, b] = await Promise.all([Promise.all(paths.map((p) => viaProxy.getRaw(p, 'read'))), Promise.all(paths.map((p) => viaProcesses.getRaw(p, 'read')))]);
      expect(a.map((t) => JSON.parse(t))).toEqual(b.map((t) => JSON.parse(t)));
      expect(wrap.calls()).toHaveLength(1);
      expect(wrap.calls()[0]).toMatch(/ proxy --unix-socket=\S+kubectl-proxy\.sock --reject-methods=/);
      expect(viaProxy.callCount()).toBe(0);
    } finally {
      viaProxy.close();
    }
  });

  it('VM instances come from the server’s table (metadata and phase), the same as from the whole list', async () => {
    const viaProxy = runner({ readProxy: true });
    try {
      const fromTable = await new ClusterReader(viaProxy).vmiPhases();
      const fromList = await new ClusterReader(runner()).vmiPhases();
      const key = (v: { metadata: { namespace?: string | undefined; name: string } }) => `${v.metadata.namespace}/${v.metadata.name}`;
      expect(fromTable.length).toBeGreaterThan(0);
      expect([...fromTable].sort((x, y) => key(x).localeCompare(key(y)))).toEqual([...fromList].sort((x, y) => key(x).localeCompare(key(y))));
    } finally {
      viaProxy.close();
    }
  });

  it('listens on a socket in the run’s private folder and refuses every method but GET', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-'));
    const k = runner({ readProxy: true, cacheDir });
    try {
      await k.getRaw('/api/v1/nodes', 'read');
      const socketPath = join(cacheDir, 'kubectl-proxy.sock');
      expect(statSync(socketPath).isSocket()).toBe(true);
      expect(statSync(cacheDir).mode & 0o077).toBe(0);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request({ socketPath, path: '/api/v1/namespaces/default/pods', method, headers: { host: 'localhost', 'content-type': 'application/json' } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end('{}');
        });
        expect(status, method).toBe(403);
      }
    } finally {
      k.close();
    }
  });

  it('an object that is not there: read again as a process, which says not found (getObject gives undefined)', async () => {
    const wrap = loggingKubectl();
    const k = runner({ readProxy: true, kubectlPath: wrap.file });
    try {
      expect(await k.getObject('/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/missing', 'read the KubeVirt resource')).toBeUndefined();
      expect(wrap.calls().filter((c) => c.includes(' get --raw '))).toHaveLength(1);
    } finally {
      k.close();
    }
  });

  it('lost credentials fail with the words a process gives (the fresh-access advice)', async () => {
    const viaProxy = runner({ readProxy: true });
    lab.expireToken();
    try {
      const err = (await viaProxy.getRaw('/api/v1/nodes', 'list nodes').catch((e: unknown) => e)) as KubeError;
      const plain = (await runner().getRaw('/api/v1/nodes', 'list nodes').catch((e: unknown) => e)) as KubeError;
      expect(err).toBeInstanceOf(KubeError);
      expect(err.failure).toBe('credentials');
      expect(err.message).toBe(plain.message);
    } finally {
      await lab.renewToken();
      viaProxy.close();
    }
  });

  it('a kubeconfig context that does not exist: the proxy does not start, the process says what is wrong', async () => {
    const k = runner({ readProxy: true, context: 'no-such-context' });
    try {
      const err = (await k.getRaw('/api/v1/nodes', 'list nodes').catch((e: unknown) => e)) as KubeError;
      expect(err.failure).toBe('config');
      expect(err.message).toMatch(/no-such-context/);
    } finally {
      k.close();
    }
  });

  it('an API that never answers: a time-out after one limit, not two (no second read as a process)', async () => {
    const wrap = loggingKubectl();
    const k = runner({ readProxy: true, kubectlPath: wrap.file, requestTimeoutMs: 1_500, processTimeoutMs: 3_000 });
    await k.getRaw('/version', 'read the version'); // the proxy is up
    lab.kubeFaults.set([{ route: 'GET /api/v1/nodes', faults: { hang: true } }]);
    try {
      const err = (await k.getRaw('/api/v1/nodes', 'list nodes').catch((e: unknown) => e)) as KubeError;
      expect(err.failure).toBe('timeout');
      // The request's own limit (1.5 s, shown rounded), and no second try as a process with its limit.
      expect(err.message).toBe('The cluster did not answer in time (2s) while trying to list nodes.');
      expect(wrap.calls().filter((c) => c.includes(' get --raw '))).toEqual([]);
    } finally {
      lab.kubeFaults.set([]);
      k.close();
    }
  });

  it('an answer over the cap stops the read, as with a process', async () => {
    const k = runner({ readProxy: true, maxOutputBytes: 10_000 });
    try {
      await expect(k.getRaw('/apis/kubevirt.io/v1/virtualmachineinstances', 'list VM instances')).rejects.toMatchObject({ failure: 'too-large' });
    } finally {
      k.close();
    }
  });

  it('close() ends kubectl; later reads start processes again', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-'));
    const k = runner({ readProxy: true, cacheDir });
    await k.getRaw('/api/v1/nodes', 'read');
    expect(processesWith(cacheDir).length).toBeGreaterThan(0);
    k.close();
    await until('the proxy to end', () => processesWith(cacheDir).length === 0);
    expect(JSON.parse(await k.getRaw('/api/v1/nodes', 'read'))).toHaveProperty('items');
    expect(k.callCount()).toBe(1);
  });
});

describe('the proxy does not outlive its process', () => {
  const child = bundleChild(new URL('../support/proxy-owner.ts', import.meta.url));

  it.each([
    ['exits without closing it', 'exit'],
    ['is killed with SIGKILL', 'hang'],
  ])('when the process %s', async (_what, mode) => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'upgrade-pilot-kube-test-'));
    const owner = spawn(process.execPath, [child, lab.kubeconfig, cacheDir, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise((r) => owner.once('exit', r));
    let out = '';
    owner.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until('the first read', () => out.includes('read '), 20_000);
    // The read went through a proxy that is running now (not a one-off `kubectl get --raw`).
    expect(processesWith(cacheDir).length).toBeGreaterThan(0);
    if (mode === 'hang') owner.kill('SIGKILL');
    else owner.stdin!.end('exit\n');
    await exited;
    await until('no kubectl left', () => processesWith(cacheDir).length === 0);
  });
});
