import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateCertificate } from '../../../src/lab/cert.js';
import { kubeconfigYaml, writeKubeconfig } from '../../../src/lab/kube/kubeconfig.js';
import { runKubectl } from './kubectl-runner.js';
import { startLab } from './lab-fixture.js';

describe('generateCertificate', () => {
  it('makes an EC P-256 certificate for 127.0.0.1 and localhost with its private key', async () => {
    const { certPem, keyPem } = await generateCertificate({ commonName: 'lab' });
    const cert = new X509Certificate(certPem);
    expect(cert.subject).toBe('CN=lab');
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.ca).toBe(false);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(300 * 24 * 3600 * 1000);
  });

  it('honours notAfter, extra names and the CA flag', async () => {
    const notAfter = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600 * 1000);
    const { certPem } = await generateCertificate({ commonName: 'soon', notAfter, ips: ['10.0.0.1'], dns: ['lab.local'], isCA: true });
    const cert = new X509Certificate(certPem);
    expect(new Date(cert.validTo).getTime()).toBe(notAfter.getTime());
    expect(cert.subjectAltName).toBe('DNS:lab.local, IP Address:10.0.0.1');
    expect(cert.ca).toBe(true);
  });

  it('can make a certificate that has already expired', async () => {
    const notAfter = new Date(Math.floor(Date.now() / 1000) * 1000 - 24 * 3600 * 1000);
    const cert = new X509Certificate((await generateCertificate({ commonName: 'expired', notAfter })).certPem);
    expect(new Date(cert.validTo).getTime()).toBe(notAfter.getTime());
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(notAfter.getTime());
  });
});

describe('kubeconfig', () => {
  it('embeds the CA, the credentials and the context', () => {
    const doc = parse(
      kubeconfigYaml({ server: 'https://127.0.0.1:1234', caPem: 'CA PEM', token: 'tok', clientCertPem: 'CERT', clientKeyPem: 'KEY', context: 'ctx', cluster: 'c', user: 'u', namespace: 'vms' }),
    );
    expect(doc).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1234', 'certificate-authority-data': Buffer.from('CA PEM').toString('base64') } }],
      users: [{ name: 'u', user: { token: 'tok', 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'vms' } }],
      'current-context': 'ctx',
      preferences: {},
    });
  });

  it('writes the file 0600, replacing an existing one without leftovers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubeconfig-test-'));
    try {
      const file = join(dir, 'config');
      await writeFile(file, 'old', { mode: 0o644 });
      await writeKubeconfig(file, { server: 'https://127.0.0.1:1', caPem: 'x', token: 'new', context: 'c', cluster: 'c', user: 'u' });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(parse(await readFile(file, 'utf8')).users[0].user.token).toBe('new');
      expect(await readdir(dir)).toEqual(['config']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is accepted by kubectl with a token and a soon-expiring client certificate', async () => {
    const lab = await startLab({ seed: (s) => s.upsert('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vms' } }) });
    try {
      const client = await generateCertificate({ commonName: 'operator', notAfter: new Date(Date.now() + 3600 * 1000) });
      const file = join(lab.dir, 'with-client-cert');
      await writeKubeconfig(file, { server: lab.server.url, caPem: lab.server.caPem, token: lab.server.token, clientCertPem: client.certPem, clientKeyPem: client.keyPem, context: 'lab', cluster: 'lab', user: 'operator' });
      const r = await runKubectl(['get', 'ns', '-o', 'name'], { kubeconfig: file, cacheDir: join(lab.dir, 'cache-2') });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('namespace/vms');
    } finally {
      await lab.close();
    }
  }, 15_000);
});
