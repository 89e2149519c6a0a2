/**
 * The API double over plain HTTPS: exact status codes, bodies and headers, the audit log, faults
 * and sockets, which kubectl would hide behind its own messages.
 */
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditLog } from '../../../src/lab/audit.js';
import { FaultPlan } from '../../../src/lab/faults.js';
import type { KubeLabHooks } from '../../../src/lab/kube/types.js';
import { startLab, type Lab } from './lab-fixture.js';
import { pod, seedSmallCluster } from './seed.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGGREGATED_ONLY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('Kubernetes API double over HTTPS', () => {
  let lab: Lab;
  const audit = new AuditLog();
  const faults = new FaultPlan(7);
  const hooks = {
    beforeDelete: vi.fn<NonNullable<KubeLabHooks['beforeDelete']>>(),
    afterDelete: vi.fn<NonNullable<KubeLabHooks['afterDelete']>>(),
    subresource: vi.fn<NonNullable<KubeLabHooks['subresource']>>(),
    logs: vi.fn<NonNullable<KubeLabHooks['logs']>>(),
  };

  beforeAll(async () => {
    lab = await startLab({
      seed: seedSmallCluster,
      hooks,
      audit,
      faults,
    });
  });
  afterAll(async () => {
    await lab.close();
  });

  describe('authentication', () => {
    const unauthorizedBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

    it.each([
      ['no token', null],
      ['a wrong token', 'not-the-token'],
    ])('answers 401 with a Status for %s', async (_what, token) => {
      const res = await lab.http('GET', '/api/v1/pods', { token });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual(unauthorizedBody);
    });

    it('refuses every call after expireToken, and a renewed token works', async () => {
      const old = lab.server.token;
      lab.server.expireToken();
      for (const path of ['/version', '/api', '/api/v1/pods', '/api/v1/namespaces/kubevirt/pods/virt-handler-7xk2p/log']) {
        expect((await lab.http('GET', path, { token: old })).status).toBe(401);
      }
      const renewed = lab.server.renewToken();
      expect(renewed).not.toBe(old);
      expect(lab.server.token).toBe(renewed);
      expect((await lab.http('GET', '/api/v1/pods', { token: old })).status).toBe(401);
      expect((await lab.http('GET', '/api/v1/pods', { token: renewed })).status).toBe(200);
    });
  });

  describe('discovery', () => {
    it('reports a 1.32 server (the kubectl dispatcher picks its version from it)', async () => {
      expect((await lab.http('GET', '/version')).json()).toMatchObject({ major: '1', minor: '32', gitVersion: expect.stringMatching(/^v1\.32\.\d+$/) });
    });

    it('serves legacy discovery documents', async () => {
      expect((await lab.http('GET', '/api')).json()).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
      const groups = (await lab.http('GET', '/apis')).json();
      expect(groups.kind).toBe('APIGroupList');
      expect(groups.groups.map((g: { name: string }) => g.name)).toEqual(
        expect.arrayContaining(['apps', 'storage.k8s.io', 'k8s.cni.cncf.io', 'kubevirt.io', 'subresources.kubevirt.io', 'cdi.kubevirt.io', 'core.libopenstorage.org']),
      );
      const core = (await lab.http('GET', '/api/v1')).json();
      expect(core.resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'] }),
          expect.objectContaining({ name: 'pods/log', kind: 'Pod', verbs: ['get'] }),
          expect.objectContaining({ name: 'nodes', namespaced: false }),
        ]),
      );
      const kubevirt = (await lab.http('GET', '/apis/kubevirt.io/v1')).json();
      expect(kubevirt).toMatchObject({ kind: 'APIResourceList', groupVersion: 'kubevirt.io/v1' });
      expect(kubevirt.resources).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'virtualmachineinstancemigrations', shortNames: ['vmim', 'vmims'] })]));
      const sub = (await lab.http('GET', '/apis/subresources.kubevirt.io/v1')).json();
      expect(sub.resources).toEqual([expect.objectContaining({ name: 'virtualmachines/restart', namespaced: true, verbs: ['update'] })]);
      expect((await lab.http('GET', '/apis/cdi.kubevirt.io')).json()).toMatchObject({ kind: 'APIGroup', preferredVersion: { groupVersion: 'cdi.kubevirt.io/v1beta1' } });
    });

    it('answers a client that accepts only aggregated discovery with 406', async () => {
      expect((await lab.http('GET', '/apis', { accept: AGGREGATED_ONLY })).status).toBe(406);
    });

    // The apiserver's last handler is Go's http.NotFound (k8s.io/apiserver pkg/util/notfoundhandler): plain text, not a Status.
    it.each(['/openapi/v2', '/apis/example.com/v1', '/apis/example.com', '/api/v1/widgets', '/nope'])('answers %s with 404 page not found', async (path) => {
      const res = await lab.http('GET', path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('404 page not found\n');
    });
  });

  describe('reads', () => {
    it('lists a namespace as a <Kind>List', async () => {
      const res = await lab.http('GET', '/api/v1/namespaces/kubevirt/pods');
      expect(res.status).toBe(200);
      const list = res.json();
      expect(list).toMatchObject({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: lab.store.resourceVersion() } });
      expect(list.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['virt-controller-5d7c9', 'virt-handler-7xk2p', 'virt-handler-9qz4m']);
    });

    it('pages with limit and continue, counting what remains only when unfiltered', async () => {
      const names: string[] = [];
      let path = '/api/v1/pods?limit=2';
      const first = (await lab.http('GET', path)).json();
      expect(first.metadata.remainingItemCount).toBe(lab.store.count('pods') - 2);
      let page = first;
      for (;;) {
        names.push(...page.items.map((p: { metadata: { name: string } }) => p.metadata.name));
        if (!page.metadata.continue) break;
        path = `/api/v1/pods?limit=2&continue=${encodeURIComponent(page.metadata.continue)}`;
        page = (await lab.http('GET', path)).json();
      }
      expect(names).toEqual(lab.store.list('pods').map((p) => p.metadata.name));
      const filtered = (await lab.http('GET', '/api/v1/pods?limit=1&labelSelector=kubevirt.io%3Dvirt-handler')).json();
      expect(filtered.metadata.continue).toBeTruthy();
      expect(filtered.metadata).not.toHaveProperty('remainingItemCount');
    });

    it('refuses a continue token from another list with 400', async () => {
      const token = (await lab.http('GET', '/api/v1/pods?limit=1')).json().metadata.continue;
      const res = await lab.http('GET', `/apis/kubevirt.io/v1/virtualmachineinstances?limit=1&continue=${encodeURIComponent(token)}`);
      expect(res.status).toBe(400);
      expect(res.json().reason).toBe('BadRequest');
    });

    it('applies selectors on the server', async () => {
      const outdated = (await lab.http('GET', '/apis/kubevirt.io/v1/virtualmachineinstances?labelSelector=kubevirt.io%2FoutdatedLauncherImage')).json();
      expect(outdated.items.map((v: { metadata: { name: string } }) => v.metadata.name)).toEqual(['db-1']);
      const notRunning = (await lab.http('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent('status.phase!=Running,status.phase!=Succeeded')}`)).json();
      expect(notRunning.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['pending-x1y2z']);
    });

    it('refuses field labels the real apiserver does not support for the type', async () => {
      const res = await lab.http('GET', `/apis/kubevirt.io/v1/virtualmachineinstances?fieldSelector=${encodeURIComponent('status.phase=Running')}`);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'BadRequest', message: 'field label not supported: status.phase' });
      const clusterScoped = await lab.http('GET', `/apis/cdi.kubevirt.io/v1beta1/cdis?fieldSelector=${encodeURIComponent('metadata.namespace=x')}`);
      expect(clusterScoped.json().message).toBe('field label not supported: metadata.namespace');
      expect((await lab.http('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=node-2,metadata.namespace=default')}`)).json().items).toHaveLength(1);
    });

    it('answers a selector that does not parse with 400', async () => {
      const res = await lab.http('GET', `/api/v1/pods?labelSelector=${encodeURIComponent('app in (')}`);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    });

    it('gets one object, or a NotFound Status shaped like the apiserver', async () => {
      const found = await lab.http('GET', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/kubevirt-workload-update-abcde');
      expect(found.json()).toMatchObject({ kind: 'VirtualMachineInstanceMigration', spec: { vmiName: 'db-1' } });
      const missing = await lab.http('GET', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/x');
      expect(missing.status).toBe(404);
      expect(missing.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'virtualmachineinstancemigrations.kubevirt.io "x" not found',
        reason: 'NotFound',
        details: { name: 'x', group: 'kubevirt.io', kind: 'virtualmachineinstancemigrations' },
        code: 404,
      });
    });

    it('answers Tables when asked, for lists and items', async () => {
      const res = await lab.http('GET', '/api/v1/nodes', { accept: TABLE });
      expect(res.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
      const t = res.json();
      expect(t.kind).toBe('Table');
      expect(t.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 2))).toEqual([
        ['node-1', 'Ready'],
        ['node-2', 'NotReady'],
      ]);
      const item = (await lab.http('GET', '/api/v1/namespaces/default/pods/crasher-6f9b7?includeObject=None', { accept: TABLE })).json();
      expect(item.rows).toEqual([{ cells: ['crasher-6f9b7', '0/1', 'CrashLoopBackOff', '7', '0s', '10.244.1.10', 'node-2', '<none>', '<none>'] }]);
    });
  });

  describe('DELETE', () => {
    it('deletes, tells the world, answers the object and audits the call', async () => {
      const body = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
      const path = '/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/kubevirt-workload-update-fghij';
      const res = await lab.http('DELETE', path, { body, contentType: 'application/json' });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ kind: 'VirtualMachineInstanceMigration', metadata: { name: 'kubevirt-workload-update-fghij' } });
      expect(lab.store.get('virtualmachineinstancemigrations', 'vms', 'kubevirt-workload-update-fghij')).toBeUndefined();
      expect(hooks.afterDelete).toHaveBeenCalledWith('virtualmachineinstancemigrations', expect.objectContaining({ spec: { vmiName: 'web-1' } }));
      expect(audit.entries({ api: 'kube', method: 'DELETE' }).at(-1)).toMatchObject({ path, status: 200, effect: 'applied', bodyDigest: expect.stringMatching(/^[0-9a-f]{16}$/) });
    });

    it('keeps the object when the world refuses, and audits the refusal', async () => {
      hooks.beforeDelete.mockReturnValueOnce({ code: 422, reason: 'Invalid', message: 'refused by the lab' });
      const path = '/api/v1/namespaces/kubevirt/pods/virt-controller-5d7c9';
      const res = await lab.http('DELETE', path);
      expect(res.status).toBe(422);
      expect(res.json()).toMatchObject({ kind: 'Status', message: 'refused by the lab', code: 422 });
      expect(lab.store.get('pods', 'kubevirt', 'virt-controller-5d7c9')).toBeDefined();
      expect(audit.entries({ method: 'DELETE' }).at(-1)).toMatchObject({ path, status: 422, effect: 'rejected' });
    });

    it('changes nothing on a dry run', async () => {
      const path = '/api/v1/namespaces/kubevirt/pods/virt-controller-5d7c9?dryRun=All';
      expect((await lab.http('DELETE', path)).status).toBe(200);
      expect(lab.store.get('pods', 'kubevirt', 'virt-controller-5d7c9')).toBeDefined();
      expect(audit.entries({ method: 'DELETE' }).at(-1)).toMatchObject({ effect: 'ignored' });
    });

    it('honours a uid precondition with 409', async () => {
      const body = JSON.stringify({ preconditions: { uid: 'someone-else' } });
      const res = await lab.http('DELETE', '/api/v1/namespaces/kubevirt/pods/virt-controller-5d7c9', { body, contentType: 'application/json' });
      expect(res.status).toBe(409);
      expect(res.json().message).toMatch(/^Operation cannot be fulfilled on pods "virt-controller-5d7c9": Precondition failed: UID in precondition: someone-else/);
    });

    it('answers a body that is not JSON with 400, audited as rejected', async () => {
      const path = '/api/v1/namespaces/kubevirt/pods/virt-controller-5d7c9';
      const res = await lab.http('DELETE', path, { body: '{not json', contentType: 'application/json' });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect(audit.entries({ method: 'DELETE' }).at(-1)).toMatchObject({ path, status: 400, effect: 'rejected' });
    });

    it('answers a protobuf body with 415', async () => {
      const res = await lab.http('DELETE', '/api/v1/namespaces/kubevirt/pods/virt-controller-5d7c9', { body: 'k8s\u0000', contentType: 'application/vnd.kubernetes.protobuf' });
      expect(res.status).toBe(415);
    });

    it('answers a missing object with 404', async () => {
      expect((await lab.http('DELETE', '/api/v1/namespaces/kubevirt/pods/nope')).json()).toMatchObject({ code: 404, message: 'pods "nope" not found' });
    });

    it.each([
      ['POST', '/api/v1/namespaces/default/pods'],
      ['PATCH', '/api/v1/namespaces/default/pods/crasher-6f9b7'],
      ['PUT', '/api/v1/namespaces/default/pods/crasher-6f9b7'],
      ['DELETE', '/api/v1/namespaces/default/pods'],
      ['POST', '/api'],
    ])('answers %s %s with 405 and audits it', async (method, path) => {
      const res = await lab.http(method, path, { body: '{}', contentType: 'application/json' });
      expect(res.status).toBe(405);
      expect(audit.entries({ method }).at(-1)).toMatchObject({ path, status: 405, effect: 'rejected' });
    });
  });

  describe('pod logs', () => {
    it('tails what the world returns, for the only container by default', async () => {
      hooks.logs.mockReturnValueOnce('one\ntwo\nthree\n');
      const res = await lab.http('GET', '/api/v1/namespaces/kubevirt/pods/virt-handler-7xk2p/log?tailLines=2');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.body).toBe('two\nthree\n');
      expect(hooks.logs).toHaveBeenLastCalledWith('kubevirt', 'virt-handler-7xk2p', { container: 'main' });
    });

    it('passes the container on and applies limitBytes', async () => {
      hooks.logs.mockReturnValueOnce('abcdef\n');
      const res = await lab.http('GET', '/api/v1/namespaces/vms/pods/virt-launcher-web-1-abcde/log?container=compute&limitBytes=3');
      expect(res.body).toBe('abc');
      expect(hooks.logs).toHaveBeenLastCalledWith('vms', 'virt-launcher-web-1-abcde', { container: 'compute' });
    });

    it.each([
      ['/api/v1/namespaces/vms/pods/virt-launcher-web-1-abcde/log', 400, 'a container name must be specified for pod virt-launcher-web-1-abcde, choose one of: [compute guest-console-log]'],
      ['/api/v1/namespaces/vms/pods/virt-launcher-web-1-abcde/log?container=nope', 400, 'container nope is not valid for pod virt-launcher-web-1-abcde'],
      ['/api/v1/namespaces/kubevirt/pods/virt-handler-7xk2p/log?tailLines=-1', 400, 'tailLines: Invalid value: "-1": must be a non-negative integer'],
      ['/api/v1/namespaces/kubevirt/pods/gone/log', 404, 'pods "gone" not found'],
    ])('%s → %d', async (path, status, message) => {
      const res = await lab.http('GET', path);
      expect(res.status).toBe(status);
      expect(res.json().message).toBe(message);
    });
  });

  describe('the restart subresource', () => {
    const restart = '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web-1/restart';

    it('hands the request to the world and answers what it says', async () => {
      hooks.subresource.mockReturnValueOnce({ status: 202 });
      const res = await lab.http('PUT', restart, { body: '{"gracePeriodSeconds":0}', contentType: 'application/json' });
      expect(res.status).toBe(202);
      expect(res.body).toBe('');
      expect(hooks.subresource).toHaveBeenLastCalledWith({ resource: 'virtualmachines', namespace: 'vms', name: 'web-1', subresource: 'restart', method: 'PUT', body: { gracePeriodSeconds: 0 } });
      expect(audit.entries({ method: 'PUT' }).at(-1)).toMatchObject({ path: restart, status: 202, effect: 'applied', note: 'restart virtualmachines vms/web-1' });
    });

    it('treats an empty body as {} and accepts YAML, as virt-api does', async () => {
      hooks.subresource.mockReturnValue({ status: 202 });
      await lab.http('PUT', restart);
      expect(hooks.subresource.mock.lastCall?.[0].body).toEqual({});
      await lab.http('PUT', restart, { body: 'gracePeriodSeconds: 5\n', contentType: 'application/yaml' });
      expect(hooks.subresource.mock.lastCall?.[0].body).toEqual({ gracePeriodSeconds: 5 });
      hooks.subresource.mockReset();
    });

    it('answers the refusal the world gives', async () => {
      hooks.subresource.mockReturnValueOnce({ code: 409, reason: 'Conflict', message: 'RunStrategy Halted does not support manual restart requests' });
      const res = await lab.http('PUT', '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/halted-1/restart', { body: '{}' });
      expect(res.status).toBe(409);
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Conflict', message: 'RunStrategy Halted does not support manual restart requests' });
    });

    it('answers 404 for a missing VM without asking the world', async () => {
      hooks.subresource.mockClear();
      const res = await lab.http('PUT', '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/nope/restart', { body: '{}' });
      expect(res.json()).toMatchObject({ code: 404, message: 'virtualmachines.kubevirt.io "nope" not found' });
      expect(hooks.subresource).not.toHaveBeenCalled();
    });

    it('answers 404 when the world does not serve the subresource', async () => {
      hooks.subresource.mockReturnValueOnce(undefined);
      expect((await lab.http('PUT', restart, { body: '{}' })).status).toBe(404);
    });

    it('answers an unparsable body with 400', async () => {
      expect((await lab.http('PUT', restart, { body: '{"a":', contentType: 'application/json' })).status).toBe(400);
    });
  });

  describe('faults and sockets', () => {
    it('adds latency per route', async () => {
      faults.set([{ route: 'GET /api/v1/nodes', faults: { latencyMs: 300 } }]);
      const started = Date.now();
      expect((await lab.http('GET', '/api/v1/nodes')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      faults.clear();
    });

    it('answers 5xx and 429 with Retry-After', async () => {
      faults.set([
        { route: 'GET /api/v1/namespaces', faults: { errorRate: 1 } },
        { route: 'GET /api/v1/services', faults: { rateLimit: { burst: 1, every: 2, retryAfterSeconds: 3 } } },
      ]);
      expect([500, 502, 503]).toContain((await lab.http('GET', '/api/v1/namespaces')).status);
      const limited = await lab.http('GET', '/api/v1/services');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('3');
      expect(limited.json()).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 3 } });
      expect((await lab.http('GET', '/api/v1/services')).status).toBe(200);
      faults.clear();
    });

    it('drops connections and audits the dropped mutation', async () => {
      faults.set([{ route: 'DELETE /apis/kubevirt.io/**', faults: { dropRate: 1 } }]);
      const path = '/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/kubevirt-workload-update-abcde';
      await expect(lab.http('DELETE', path)).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(lab.store.get('virtualmachineinstancemigrations', 'vms', 'kubevirt-workload-update-abcde')).toBeDefined();
      expect(audit.entries({ method: 'DELETE' }).at(-1)).toMatchObject({ path, status: 0, effect: 'dropped' });
      faults.clear();
    });

    it('accepts a PUT and ignores it when told to', async () => {
      faults.set([{ route: 'PUT /apis/subresources.kubevirt.io/**', faults: { ignorePut: true } }]);
      hooks.subresource.mockClear();
      const res = await lab.http('PUT', '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web-1/restart', { body: '{}' });
      expect(res.status).toBe(202);
      expect(hooks.subresource).not.toHaveBeenCalled();
      expect(audit.entries({ method: 'PUT' }).at(-1)).toMatchObject({ status: 202, effect: 'ignored' });
      faults.clear();
    });

    it('hangs a route so callers time out, then serves again', async () => {
      faults.set([{ route: 'GET /api/v1/pods', faults: { hang: true } }]);
      await expect(lab.http('GET', '/api/v1/pods', { timeoutMs: 300 })).rejects.toThrow(/client timeout/);
      faults.clear();
      expect((await lab.http('GET', '/api/v1/pods')).status).toBe(200);
    });

    it('counts every request', async () => {
      const before = lab.server.requestCount();
      await lab.http('GET', '/version');
      await lab.http('GET', '/api/v1/pods', { token: null });
      expect(lab.server.requestCount()).toBe(before + 2);
    });

    it('survives garbage on the wire and an oversized body', async () => {
      await new Promise<void>((resolve) => {
        const url = new URL(lab.server.url);
        const socket = connect({ host: url.hostname, port: Number(url.port), ca: lab.server.caPem }, () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
        socket.resume();
      });
      const big = await lab.http('DELETE', '/api/v1/namespaces/default/pods/crasher-6f9b7', { body: 'x'.repeat(4 * 1024 * 1024), contentType: 'application/json' });
      expect(big.status).toBe(413);
      expect(big.json().reason).toBe('RequestEntityTooLarge');
      expect(lab.store.get('pods', 'default', 'crasher-6f9b7')).toBeDefined();
      expect((await lab.http('GET', '/version')).status).toBe(200);
    });
  });
});

describe('forbid', () => {
  let lab: Lab;
  const audit = new AuditLog();
  const user = 'system:serviceaccount:kube-system:upgrade-pilot';

  beforeAll(async () => {
    lab = await startLab({
      seed: seedSmallCluster,
      audit,
      hooks: { subresource: () => ({ status: 202 }) },
      forbid: [
        { verb: 'get', resource: 'storageclasses' },
        { verb: 'list', resource: 'deployments' },
        { verb: 'update', resource: 'virtualmachines/restart' },
      ],
    });
  });
  afterAll(async () => {
    await lab.close();
  });

  it('answers 403 with the apiserver message for an item, and only for the forbidden verb', async () => {
    const res = await lab.http('GET', '/apis/storage.k8s.io/v1/storageclasses/px-block');
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: `storageclasses.storage.k8s.io "px-block" is forbidden: User "${user}" cannot get resource "storageclasses" in API group "storage.k8s.io" at the cluster scope`,
      details: { name: 'px-block', group: 'storage.k8s.io', kind: 'storageclasses' },
    });
    expect((await lab.http('GET', '/apis/storage.k8s.io/v1/storageclasses')).status).toBe(200);
  });

  it('names the namespace of a namespaced list', async () => {
    const res = await lab.http('GET', '/apis/apps/v1/namespaces/kubevirt/deployments');
    expect(res.json().message).toBe(`deployments.apps is forbidden: User "${user}" cannot list resource "deployments" in API group "apps" in the namespace "kubevirt"`);
  });

  it('names subresource and group of a forbidden restart, and audits it', async () => {
    const path = '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/db-1/restart';
    const res = await lab.http('PUT', path, { body: '{}' });
    expect(res.status).toBe(403);
    expect(res.json().message).toBe(
      `virtualmachines.subresources.kubevirt.io "db-1" is forbidden: User "${user}" cannot update resource "virtualmachines/restart" in API group "subresources.kubevirt.io" in the namespace "vms"`,
    );
    expect(audit.entries({ method: 'PUT' }).at(-1)).toMatchObject({ path, status: 403, effect: 'rejected' });
  });
});

describe('a hung server', () => {
  it('accepts requests, never answers, and still closes at once', async () => {
    const lab = await startLab({ seed: (s) => s.upsert('pods', pod('ns', 'a')) });
    lab.server.setHung(true);
    const pending = lab.http('GET', '/api/v1/pods', { timeoutMs: 10_000 }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 200));
    expect(lab.server.requestCount()).toBe(1);
    const started = Date.now();
    await lab.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
