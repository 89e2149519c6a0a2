/** Access files for the preflight tests: the double's token plus a client certificate of a chosen lifetime. */
import { join } from 'node:path';
import { generateCertificate } from '../../../src/lab/cert.js';
import { writeKubeconfig } from '../../../src/lab/kube/kubeconfig.js';
import type { Lab as KubeLab } from '../../lab/kube/lab-fixture.js';

export const HOUR = 3_600_000;

/**
 * The double accepts only its bearer token, so the file keeps it; the certificate is what gives the
 * file a readable expiry (and, when it is the earliest, what preflight judges).
 */
export async function kubeconfigWithCertificate(kube: KubeLab, name: string, validForMs: number): Promise<string> {
  const notAfter = new Date(Math.floor((Date.now() + validForMs) / 1000) * 1000);
  const client = await generateCertificate({ commonName: 'operator', notAfter });
  const file = join(kube.dir, name);
  await writeKubeconfig(file, {
    server: kube.server.url,
    caPem: kube.server.caPem,
    token: kube.server.token,
    clientCertPem: client.certPem,
    clientKeyPem: client.keyPem,
    context: 'lab',
    cluster: 'lab',
    user: 'operator',
  });
  return file;
}
