/**
 * One lab Kubernetes API server for a test file: a seeded store, a kubeconfig in a temp folder, a
 * throwaway kubectl discovery cache, and two ways in: the real kubectl, and plain HTTPS requests
 * for what kubectl hides (headers, exact bodies, sockets).
 */
import { request } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKubeconfig } from '../../../src/lab/kube/kubeconfig.js';
import { startKubeApiServer, type KubeApiServer, type KubeApiServerOptions } from '../../../src/lab/kube/server.js';
import { ResourceStore } from '../../../src/lab/kube/store.js';
import { runKubectl, type KubectlResult } from './kubectl-runner.js';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

export interface Lab {
  store: ResourceStore;
  server: KubeApiServer;
  kubeconfig: string;
  dir: string;
  kubectl(args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<KubectlResult>;
  http(method: string, path: string, opts?: { accept?: string; body?: string; contentType?: string; token?: string | null; timeoutMs?: number }): Promise<HttpResult>;
  close(): Promise<void>;
}

export interface LabOptions extends Omit<KubeApiServerOptions, 'store'> {
  seed?: (store: ResourceStore) => void;
  /** The simulated clock; a fixed time keeps AGE columns deterministic. */
  now?: () => number;
}

export const LAB_NOW = Date.parse('2025-01-01T02:00:00Z');

export async function startLab(opts: LabOptions = {}): Promise<Lab> {
  const { seed, now, ...serverOptions } = opts;
  const store = new ResourceStore({ now: now ?? (() => LAB_NOW) });
  seed?.(store);
  const server = await startKubeApiServer({ store, ...serverOptions });
  const dir = await mkdtemp(join(tmpdir(), 'kube-lab-test-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caPem: server.caPem, token: server.token, context: 'lab', cluster: 'lab', user: 'operator' });
  const cacheDir = join(dir, 'kube-cache');

  const http: Lab['http'] = (method, path, o = {}) =>
    new Promise((resolve, reject) => {
      const token = o.token === undefined ? server.token : o.token;
      const headers: Record<string, string> = { accept: o.accept ?? 'application/json' };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (o.contentType) headers['content-type'] = o.contentType;
      // Node sends a DELETE body without a length unless told; kubectl always sends one.
      if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
      const req = request(`${server.url}${path}`, { method, ca: server.caPem, headers, agent: false, timeout: o.timeoutMs ?? 5000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', reject);
      req.end(o.body);
    });

  return {
    store,
    server,
    kubeconfig,
    dir,
    kubectl: (args, o = {}) => runKubectl(args, { kubeconfig, cacheDir, ...o }),
    http,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
