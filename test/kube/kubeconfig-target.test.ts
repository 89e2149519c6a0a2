/**
 * Where kubectl will go, read before any kubectl runs (src/kube/kubeconfig/target.ts), and the
 * server URL's path put in front of every raw path (src/kube/raw-path.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { KubeError } from '../../src/kube/errors.js';
import { generateCertificate } from '../../src/lab/cert.js';
import { resolveKubeTarget, serverPathOf } from '../../src/kube/kubeconfig/target.js';
import { withServerPath } from '../../src/kube/raw-path.js';

const dir = mkdtempSync(join(tmpdir(), 'up-kube-target-'));
const file = (name: string, doc: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
};
const cluster = (name: string, server: string) => ({ name, cluster: { server, 'certificate-authority-data': 'Q0E=' } });
const context = (name: string, c: string, user = 'op') => ({ name, context: { cluster: c, user } });

const rancher = file('rancher.yaml', {
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'vmo-prod',
  clusters: [cluster('vmo-prod', 'https://rancher.example.com/k8s/clusters/c-m-abc12/'), cluster('direct', 'https://10.0.0.5:6443')],
  contexts: [context('vmo-prod', 'vmo-prod'), context('vmo-prod-direct', 'direct')],
  users: [{ name: 'op', user: { token: 'kubeconfig-u-x:y' } }],
});
const second = file('second.yaml', {
  'current-context': 'ignored',
  clusters: [cluster('vmo-prod', 'https://shadowed.example.com'), cluster('lab', 'https://127.0.0.1:6443/base')],
  contexts: [context('lab', 'lab'), context('vmo-prod', 'lab')],
});

function fails(input: Parameters<typeof resolveKubeTarget>[0]): KubeError {
  try {
    resolveKubeTarget(input);
  } catch (err) {
    if (err instanceof KubeError) return err;
    throw err;
  }
  throw new Error('resolved');
}

describe('resolveKubeTarget', () => {
  it('reads the server path of the chosen context (a trailing slash dropped); none for a plain address', () => {
    expect(resolveKubeTarget({ kubeconfig: rancher, context: undefined })).toMatchObject({ context: 'vmo-prod', cluster: 'vmo-prod', serverPath: '/k8s/clusters/c-m-abc12', files: [rancher] });
    expect(resolveKubeTarget({ kubeconfig: rancher, context: 'vmo-prod-direct' }).serverPath).toBe('');
  });

  it('merges a $KUBECONFIG list as kubectl does: first current context and first entry win, a missing file is skipped', () => {
    const env = { KUBECONFIG: [join(dir, 'not-there.yaml'), rancher, second].join(':') };
    expect(resolveKubeTarget({ kubeconfig: undefined, context: undefined, env })).toMatchObject({ context: 'vmo-prod', serverPath: '/k8s/clusters/c-m-abc12', files: [rancher, second] });
    expect(resolveKubeTarget({ kubeconfig: undefined, context: 'lab', env }).serverPath).toBe('/base');
  });

  it.each<[string, () => Parameters<typeof resolveKubeTarget>[0], number, RegExp]>([
    ['a context that is not there', () => ({ kubeconfig: rancher, context: 'nope' }), 2, /the context "nope" is not in .*rancher\.yaml/],
    ['no current context and none chosen', () => ({ kubeconfig: file('nocurrent.yaml', { contexts: [context('a', 'vmo-prod')] }), context: undefined }), 2, /names no current context and none was chosen/],
    ['a context whose cluster is not there', () => ({ kubeconfig: file('nocluster.yaml', { 'current-context': 'a', contexts: [context('a', 'gone')] }), context: undefined }), 2, /the cluster "gone" of context "a" is not in/],
    ['a cluster without a server', () => ({ kubeconfig: file('noserver.yaml', { 'current-context': 'a', contexts: [context('a', 'c')], clusters: [{ name: 'c', cluster: { server: null } }] }), context: undefined }), 2, /names no server/],
    // A file the operator named that is not there is bad input, as a missing params file is.
    ['an explicit file that does not exist', () => ({ kubeconfig: join(dir, 'missing.yaml'), context: undefined }), 2, /cannot read the cluster access file .*missing\.yaml: it does not exist/],
    ['no $KUBECONFIG and no ~/.kube/config', () => ({ kubeconfig: undefined, context: undefined, env: {}, home: join(dir, 'nohome') }), 4, /nohome\/\.kube\/config: it does not exist/],
    ['no file of a list exists', () => ({ kubeconfig: undefined, context: undefined, env: { KUBECONFIG: join(dir, 'none-1.yaml') } }), 4, /none-1\.yaml: it does not exist/],
    ['a FIFO', () => ({ kubeconfig: fifo(), context: undefined }), 4, /it is a FIFO \(named pipe\), not a regular file/],
    ['a link to /dev/zero in a list', () => ({ kubeconfig: undefined, context: undefined, env: { KUBECONFIG: `${rancher}:${zeroLink()}` } }), 4, /zero\.yaml: it is a character device, not a regular file/],
    ['a 17 MB file', () => ({ kubeconfig: big(), context: undefined }), 4, /over the 16 MiB limit for a cluster access file/],
    ['a file that is not YAML', () => ({ kubeconfig: file('bad.yaml', 'clusters: [\n'), context: undefined }), 4, /bad\.yaml: not valid YAML/],
  ])('%s: exit %i, named', (_what, input, exit, message) => {
    const err = fails(input());
    expect(err.failure).toBe('config');
    expect(err.exitCode).toBe(exit);
    expect(err.message).toMatch(message);
    expect(err.hint).toBeTruthy();
  });

  it('names the plugin its user runs and the CA its cluster trusts (by subject, never content)', async () => {
    const { certPem } = await generateCertificate({ commonName: 'vmo-prod-ca', isCA: true, ips: ['127.0.0.1'], dns: [] });
    const p = file('exec.yaml', {
      'current-context': 'a',
      clusters: [{ name: 'c', cluster: { server: 'https://h:6443', 'certificate-authority-data': Buffer.from(certPem).toString('base64') } }],
      contexts: [context('a', 'c', 'aks')],
      users: [{ name: 'aks', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'kubelogin', args: ['get-token'], installHint: 'Install kubelogin.' } } }],
    });
    expect(resolveKubeTarget({ kubeconfig: p, context: undefined })).toMatchObject({ plugin: { command: 'kubelogin', installHint: 'Install kubelogin.' }, ca: 'its certificate-authority-data, CN=vmo-prod-ca' });
    expect(resolveKubeTarget({ kubeconfig: rancher, context: undefined }).plugin).toBeUndefined();
  });

  it('reads the current context where it is null (not set) as absent', () => {
    const p = file('nullcurrent.yaml', 'current-context:\nclusters:\n- name: c\n  cluster: {server: "https://h/p"}\ncontexts:\n- name: a\n  context: {cluster: c, user: u}\n');
    expect(resolveKubeTarget({ kubeconfig: p, context: 'a' }).serverPath).toBe('/p');
    expect(fails({ kubeconfig: p, context: undefined }).exitCode).toBe(2);
  });
});

function fifo(): string {
  const p = join(dir, `fifo-${Math.random().toString(36).slice(2)}`);
  execFileSync('mkfifo', [p]);
  return p;
}
function zeroLink(): string {
  const p = join(dir, 'zero.yaml');
  try {
    symlinkSync('/dev/zero', p);
  } catch {
    // made by an earlier case
  }
  return p;
}
function big(): string {
  const p = join(dir, 'big.yaml');
  writeFileSync(p, Buffer.alloc(17 * 1024 * 1024, 0x20));
  return p;
}

describe('serverPathOf', () => {
  it.each([
    ['https://rancher.example.com/k8s/clusters/c-abc', '/k8s/clusters/c-abc'],
    ['https://rancher.example.com/k8s/clusters/c-abc/', '/k8s/clusters/c-abc'],
    ['https://10.0.0.5:6443', ''],
    ['https://10.0.0.5:6443/', ''],
    ['10.0.0.5:6443', ''],
    ['api.example.com/gw', '/gw'],
  ])('%s → %j', (server, path) => {
    expect(serverPathOf(server)).toBe(path);
  });
});

describe('withServerPath', () => {
  it.each<[string[], string, string[]]>([
    [['get', '--raw', '/api/v1/nodes'], '/k8s/clusters/c-abc', ['get', '--raw', '/k8s/clusters/c-abc/api/v1/nodes']],
    [['replace', '--raw', '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web/restart', '-f', '-'], '/gw', ['replace', '--raw', '/gw/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web/restart', '-f', '-']],
    [['get', '--raw=/version'], '/gw', ['get', '--raw=/gw/version']],
    [['get', '--raw', '/api/v1/nodes'], '', ['get', '--raw', '/api/v1/nodes']],
    // Not a raw path: left alone.
    [['delete', 'vmim', 'm1', '-n', 'vms'], '/gw', ['delete', 'vmim', 'm1', '-n', 'vms']],
  ])('%j under %j', (args, path, out) => {
    expect(withServerPath(args, path)).toEqual(out);
  });
});
