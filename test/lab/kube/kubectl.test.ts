/**
 * The real kubectl (1.32, on PATH) against the lab's Kubernetes API double: what the product's
 * kube runner will run, with the exact output it will parse.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/lab/audit.js';
import type { KubeLabHooks, SubresourceRequest } from '../../../src/lab/kube/types.js';
import { parsePrintedTable } from './kubectl-runner.js';
import { startLab, type Lab } from './lab-fixture.js';
import { seedSmallCluster } from './seed.js';

/** A hang bound: a real kubectl starts slowly on a loaded machine. */
const KUBECTL_TIMEOUT = 120_000;

describe('real kubectl against the lab', () => {
  let lab: Lab;
  const audit = new AuditLog();
  const restarts: SubresourceRequest[] = [];
  const deleted: string[] = [];
  const hooks: KubeLabHooks = {
    logs: (ns, podName, opts) => `${ns}/${podName}/${opts.container ?? '-'} line 1\nline 2\nline 3\n`,
    subresource: (req) => {
      const vm = lab.store.get('virtualmachines', req.namespace, req.name);
      if ((vm?.spec as { runStrategy?: string } | undefined)?.runStrategy === 'Halted') {
        return { code: 409, reason: 'Conflict', message: 'RunStrategy Halted does not support manual restart requests' };
      }
      restarts.push(req);
      return { status: 202 };
    },
    beforeDelete: (resource) => (resource === 'kubevirts' ? { code: 409, reason: 'Conflict', message: 'the lab keeps its KubeVirt CR' } : undefined),
    afterDelete: (resource, obj) => {
      deleted.push(`${resource}/${obj.metadata.namespace}/${obj.metadata.name}`);
    },
  };

  beforeAll(async () => {
    lab = await startLab({ seed: seedSmallCluster, hooks, audit });
  });
  afterAll(async () => {
    await lab.close();
  });

  describe('get, human output', () => {
    it('lists pods in a namespace with the pod columns', async () => {
      const r = await lab.kubectl(['get', 'pods', '-n', 'kubevirt']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const t = parsePrintedTable(r.stdout);
      expect(t.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      expect(t.rows.map((row) => row[0])).toEqual(['virt-controller-5d7c9', 'virt-handler-7xk2p', 'virt-handler-9qz4m']);
      expect(t.rows[1]).toEqual(['virt-handler-7xk2p', '1/1', 'Running', '0', '0s']);
    }, KUBECTL_TIMEOUT);

    it('adds the NAMESPACE column with -A', async () => {
      const t = parsePrintedTable((await lab.kubectl(['get', 'pods', '-A'])).stdout);
      expect(t.header).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      expect(t.rows).toContainEqual(['default', 'crasher-6f9b7', '0/1', 'CrashLoopBackOff', '7', '0s']);
      expect(t.rows).toHaveLength(lab.store.count('pods'));
    }, KUBECTL_TIMEOUT);

    it.each([
      [['get', 'nodes'], ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'], ['node-2', 'NotReady', '<none>', '0s', 'v1.30.5']],
      [['get', 'vmi', '-n', 'vms'], ['NAME', 'AGE', 'PHASE', 'IP', 'NODENAME', 'READY'], ['db-1', '0s', 'Running', '10.244.2.21', 'node-2', 'True']],
      [['get', 'vmim', '-n', 'vms'], ['NAME', 'PHASE', 'VMI'], ['kubevirt-workload-update-abcde', 'Running', 'db-1']],
      [['get', 'vm', '-n', 'vms'], ['NAME', 'AGE', 'STATUS', 'READY'], ['halted-1', '0s', 'Stopped', 'True']],
      [['get', 'svc', '-n', 'ingress'], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'], ['ingress-nginx-controller', 'LoadBalancer', '10.96.0.10', '192.168.10.50', '80:30080/TCP,443:30443/TCP', '0s']],
      [['get', 'sc'], ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'], ['px-block (default)', 'pxd.portworx.com', 'Delete', 'WaitForFirstConsumer', 'true', '0s']],
      [['get', 'net-attach-def', '-n', 'vms'], ['NAME', 'AGE'], ['vlan-100', '0s']],
      [['get', 'stc', '-n', 'kube-system'], ['NAME', 'CLUSTER UUID', 'STATUS', 'VERSION', 'AGE'], ['px-cluster', 'c0ffee-1234', 'Running', '3.1.2', '0s']],
    ])('kubectl %j prints %j', async (args, header, row) => {
      const r = await lab.kubectl(args);
      expect(r.code).toBe(0);
      const t = parsePrintedTable(r.stdout);
      expect(t.header).toEqual(header);
      expect(t.rows).toContainEqual(row);
    }, KUBECTL_TIMEOUT);

    it('shows labels and sorts by a field, which need the objects in the rows', async () => {
      const labels = parsePrintedTable((await lab.kubectl(['get', 'pods', '-n', 'kubevirt', '--show-labels'])).stdout);
      expect(labels.header.at(-1)).toBe('LABELS');
      expect(labels.rows[1]?.at(-1)).toBe('kubevirt.io=virt-handler');
      const sorted = parsePrintedTable((await lab.kubectl(['get', 'pods', '-n', 'kubevirt', '--sort-by=.spec.nodeName', '-o', 'wide'])).stdout);
      expect(sorted.rows.map((row) => row[6])).toEqual(['node-1', 'node-1', 'node-2']);
    }, KUBECTL_TIMEOUT);
  });

  describe('get, machine output', () => {
    it('prints -o json as a List of the objects', async () => {
      const r = await lab.kubectl(['get', 'pods', '-n', 'kubevirt', '-o', 'json']);
      const list = JSON.parse(r.stdout);
      expect(list.kind).toBe('List');
      expect(list.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['virt-controller-5d7c9', 'virt-handler-7xk2p', 'virt-handler-9qz4m']);
      expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: expect.any(String), resourceVersion: expect.any(String) } });
    }, KUBECTL_TIMEOUT);

    it('prints -o name for every kind the lab serves', async () => {
      const names = async (...args: string[]): Promise<string[]> => (await lab.kubectl(['get', ...args, '-o', 'name'])).stdout.trim().split('\n');
      expect(await names('pods', '-n', 'kubevirt')).toEqual(['pod/virt-controller-5d7c9', 'pod/virt-handler-7xk2p', 'pod/virt-handler-9qz4m']);
      expect(await names('ns')).toEqual(['namespace/default', 'namespace/ingress', 'namespace/kubevirt', 'namespace/vms']);
      expect(await names('kv', '-A')).toEqual(['kubevirt.kubevirt.io/kubevirt']);
      expect(await names('cdi')).toEqual(['cdi.cdi.kubevirt.io/cdi']);
      expect(await names('deploy', '-n', 'kubevirt')).toEqual(['deployment.apps/virt-api']);
      expect(await names('virtualmachineinstancemigrations.v1.kubevirt.io', '-A')).toHaveLength(2);
    }, KUBECTL_TIMEOUT);

    it('passes --raw bytes through, selectors included', async () => {
      const r = await lab.kubectl(['get', '--raw', '/api/v1/namespaces/kubevirt/pods?labelSelector=kubevirt.io%3Dvirt-handler']);
      expect(r.code).toBe(0);
      const list = JSON.parse(r.stdout);
      expect(list).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
      expect(list.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['virt-handler-7xk2p', 'virt-handler-9qz4m']);
      expect(JSON.parse((await lab.kubectl(['get', '--raw', '/apis/kubevirt.io/v1'])).stdout).kind).toBe('APIResourceList');
    }, KUBECTL_TIMEOUT);

    it('selects by label (-l) and by field (--field-selector) on the server', async () => {
      const outdated = await lab.kubectl(['get', 'vmi', '-A', '-l', 'kubevirt.io/outdatedLauncherImage', '-o', 'name']);
      expect(outdated.stdout.trim()).toBe('virtualmachineinstance.kubevirt.io/db-1');
      const notRunning = await lab.kubectl(['get', 'pods', '-A', '--field-selector', 'status.phase!=Running,status.phase!=Succeeded', '-o', 'name']);
      expect(notRunning.stdout.trim()).toBe('pod/pending-x1y2z');
    }, KUBECTL_TIMEOUT);

    it('refuses a field selector a real cluster refuses', async () => {
      const r = await lab.kubectl(['get', 'vmi', '-A', '--field-selector', 'status.phase=Running']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Error from server (BadRequest)');
      expect(r.stderr).toContain('field label not supported: status.phase');
    }, KUBECTL_TIMEOUT);

    it('follows continue tokens with --chunk-size', async () => {
      // Discovery is cached by an earlier call, so only the dispatcher's /version and the pages remain.
      await lab.kubectl(['get', 'pods', '-A', '-o', 'name']);
      const before = lab.server.requestCount();
      const r = await lab.kubectl(['get', 'pods', '-A', '-o', 'name', '--chunk-size=2']);
      const pages = lab.server.requestCount() - before - 1; // minus the dispatcher's /version
      expect(r.stdout.trim().split('\n')).toEqual(lab.store.list('pods').map((p) => `pod/${p.metadata.name}`));
      expect(pages).toBe(Math.ceil(lab.store.count('pods') / 2));
    }, KUBECTL_TIMEOUT);
  });

  describe('not found', () => {
    it('prints the apiserver NotFound message', async () => {
      const r = await lab.kubectl(['get', 'vmim', 'nope', '-n', 'vms']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe('Error from server (NotFound): virtualmachineinstancemigrations.kubevirt.io "nope" not found');
    }, KUBECTL_TIMEOUT);

    it('reports a missing namespace instead (kubectl 1.32 checks it after a NotFound)', async () => {
      const r = await lab.kubectl(['get', 'vmim', 'nope', '-n', 'ghost']);
      expect(r.stderr.trim()).toBe('Error from server (NotFound): namespaces "ghost" not found');
    }, KUBECTL_TIMEOUT);
  });

  describe('delete', () => {
    it('deletes a migration, which the world hears about and the audit log records', async () => {
      const name = 'kubevirt-workload-update-abcde';
      const r = await lab.kubectl(['delete', 'vmim', name, '-n', 'vms']);
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe(`virtualmachineinstancemigration.kubevirt.io "${name}" deleted`);
      expect(lab.store.get('virtualmachineinstancemigrations', 'vms', name)).toBeUndefined();
      expect(deleted).toContain(`virtualmachineinstancemigrations/vms/${name}`);
      expect(audit.entries({ method: 'DELETE' }).at(-1)).toMatchObject({
        api: 'kube',
        path: `/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/${name}`,
        status: 200,
        effect: 'applied',
        bodyDigest: expect.any(String),
      });
    }, KUBECTL_TIMEOUT);

    it('prints the refusal of the world', async () => {
      const r = await lab.kubectl(['delete', 'kv', 'kubevirt', '-n', 'kubevirt']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe('Error from server (Conflict): the lab keeps its KubeVirt CR');
      expect(lab.store.get('kubevirts', 'kubevirt', 'kubevirt')).toBeDefined();
    }, KUBECTL_TIMEOUT);
  });

  describe('logs', () => {
    it('tails a single-container pod', async () => {
      const r = await lab.kubectl(['logs', '-n', 'kubevirt', 'virt-handler-7xk2p', '--tail=2']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('line 2\nline 3\n');
    }, KUBECTL_TIMEOUT);

    it('asks for the container given with -c, or defaults to the first one and says so', async () => {
      const chosen = await lab.kubectl(['logs', '-n', 'vms', 'virt-launcher-web-1-abcde', '-c', 'guest-console-log', '--tail=3']);
      expect(chosen.stdout.split('\n')[0]).toBe('vms/virt-launcher-web-1-abcde/guest-console-log line 1');
      const defaulted = await lab.kubectl(['logs', '-n', 'vms', 'virt-launcher-web-1-abcde', '--tail=3']);
      expect(defaulted.stdout.split('\n')[0]).toBe('vms/virt-launcher-web-1-abcde/compute line 1');
      expect(defaulted.stderr.trim()).toBe('Defaulted container "compute" out of: compute, guest-console-log');
    }, KUBECTL_TIMEOUT);
  });

  describe('restart subresource through replace --raw', () => {
    const restartPath = (vm: string): string => `/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/${vm}/restart`;

    it('PUTs {} from stdin', async () => {
      restarts.length = 0;
      const r = await lab.kubectl(['replace', '--raw', restartPath('web-1'), '-f', '-'], { input: '{}' });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(restarts).toEqual([{ resource: 'virtualmachines', namespace: 'vms', name: 'web-1', subresource: 'restart', method: 'PUT', body: {} }]);
      expect(audit.entries({ method: 'PUT' }).at(-1)).toMatchObject({ path: restartPath('web-1'), status: 202, effect: 'applied' });
    }, KUBECTL_TIMEOUT);

    it('PUTs {} from a file', async () => {
      restarts.length = 0;
      const file = join(lab.dir, 'restart.json');
      await writeFile(file, '{}');
      const r = await lab.kubectl(['replace', '--raw', restartPath('db-1'), '-f', file]);
      expect(r.code).toBe(0);
      expect(restarts.map((x) => x.name)).toEqual(['db-1']);
    }, KUBECTL_TIMEOUT);

    it('fails with the refusal for a halted VM', async () => {
      const r = await lab.kubectl(['replace', '--raw', restartPath('halted-1'), '-f', '-'], { input: '{}' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('RunStrategy Halted does not support manual restart requests');
      expect(audit.entries({ method: 'PUT' }).at(-1)).toMatchObject({ status: 409, effect: 'rejected' });
    }, KUBECTL_TIMEOUT);
  });
});
