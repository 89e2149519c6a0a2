/**
 * Kubeconfigs for the lab's API server: the server's certificate embedded as the trusted CA, and a
 * bearer token and/or a client certificate. Written 0600 and replaced atomically, because the lab
 * rewrites it (a renewed token) while kubectl processes may be reading it.
 */
import { chmod, rename, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  caPem: string;
  token?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  context: string;
  cluster: string;
  user: string;
  namespace?: string;
}

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

export function kubeconfigYaml(opts: KubeconfigOptions): string {
  const user: Record<string, string> = {};
  if (opts.token !== undefined) user.token = opts.token;
  if (opts.clientCertPem !== undefined) user['client-certificate-data'] = b64(opts.clientCertPem);
  if (opts.clientKeyPem !== undefined) user['client-key-data'] = b64(opts.clientKeyPem);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: opts.cluster, cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caPem) } }],
    users: [{ name: opts.user, user }],
    contexts: [
      {
        name: opts.context,
        context: { cluster: opts.cluster, user: opts.user, ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}) },
      },
    ],
    'current-context': opts.context,
    preferences: {},
  });
}

export async function writeKubeconfig(file: string, opts: KubeconfigOptions): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, kubeconfigYaml(opts), { mode: 0o600 });
  // The mode given to writeFile is masked by the umask; make sure it is exactly 0600.
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}
