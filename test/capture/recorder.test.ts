/**
 * The recorder files each answer by what it is: objects once per collection (the latest read wins),
 * tables noted for a whole read, logs per pod and container, absences, profile API answers; it
 * counts what it holds and stops at the cap; the JSON it builds reads back as the same objects.
 */
import { describe, expect, it } from 'vitest';
import { CaptureRecorder } from '../../src/capture/recorder.js';
import { layeredJson, RawJson } from '../../src/capture/layered-json.js';
import { KubeError } from '../../src/kube/errors.js';
import { Redactor } from '../../src/session/redact.js';

const recorder = (maxBytes = 1 << 20, onOverCap: () => void = () => undefined, redactor = new Redactor()) => new CaptureRecorder({ redactor, maxBytes, onOverCap });
const list = (items: unknown[]) => JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: {}, items });
const built = (r: CaptureRecorder) => JSON.parse(layeredJson(r.build())) as { kube: { resources: Record<string, { objects: Array<{ metadata: { name: string }; status?: unknown }> }>; logs: unknown[]; absent: unknown[] }; palette: { answers: Array<{ path: string; body: unknown }> }; parts: Array<{ part: string; what: string; count: number; reads: string[]; passes: string[] }> };

describe('the capture recorder', () => {
  it('keeps each object once per collection, the latest read winning, and says which reads and passes saw it', () => {
    const r = recorder();
    r.pass = 'plan';
    r.kubeAnswer('/apis/kubevirt.io/v1/virtualmachineinstances', list([{ metadata: { name: 'a', namespace: 'vms' }, status: { phase: 'Running' } }, { metadata: { name: 'b', namespace: 'vms' } }]));
    r.pass = 'diagnosis';
    r.kubeAnswer('/apis/kubevirt.io/v1/virtualmachineinstances?labelSelector=kubevirt.io%2FoutdatedLauncherImage', list([{ metadata: { name: 'a', namespace: 'vms' }, status: { phase: 'Failed' } }]));
    const doc = built(r);
    const vmis = doc.kube.resources['virtualmachineinstances.kubevirt.io']!;
    expect(vmis.objects.map((o) => [o.metadata.name, o.status])).toEqual([
      ['a', { phase: 'Failed' }],
      ['b', undefined],
    ]);
    const part = doc.parts.find((p) => p.part.includes('virtualmachineinstances'))!;
    expect(part.reads).toEqual(['GET /apis/kubevirt.io/v1/virtualmachineinstances', 'GET /apis/kubevirt.io/v1/virtualmachineinstances?labelSelector=kubevirt.io/outdatedLauncherImage']);
    expect(part.passes).toEqual(['plan', 'diagnosis']);
  });

  it('a list answered as a table is noted for a whole read, unless the same list was read whole', () => {
    const r = recorder();
    const table = JSON.stringify({ kind: 'Table', columnDefinitions: [], rows: [] });
    r.kubeAnswer('/apis/kubevirt.io/v1/virtualmachineinstances?includeObject=Metadata', table);
    r.kubeAnswer('/api/v1/pods?fieldSelector=status.phase%21%3DRunning&includeObject=Metadata', table);
    r.kubeAnswer('/apis/kubevirt.io/v1/virtualmachineinstances', list([]));
    expect(r.tableOnlyReads().map((t) => [t.resource, t.fieldSelector])).toEqual([['pods', 'status.phase!=Running']]);
  });

  it('logs per pod and container, a missing collection as an absence, never a Secret', () => {
    const r = recorder();
    r.kubeAnswer('/api/v1/namespaces/kubevirt/pods/virt-handler-x/log?tailLines=500&container=virt-handler', 'line 1\nline 2\n');
    r.kubeFailure('/apis/k8s.cni.cncf.io/v1/network-attachment-definitions', new KubeError('not-found', 'the server could not find the requested resource'));
    r.kubeFailure('/apis/k8s.cni.cncf.io', new KubeError('not-found', 'the server could not find the requested resource'));
    r.kubeFailure('/api/v1/nodes', new KubeError('forbidden', 'nope'));
    r.kubeAnswer('/api/v1/namespaces/x/secrets', list([{ metadata: { name: 's' }, data: { password: 'aHVudGVy' } }]));
    const doc = built(r);
    expect(doc.kube.logs).toEqual([{ namespace: 'kubevirt', pod: 'virt-handler-x', container: 'virt-handler', tailLines: 500, text: 'line 1\nline 2\n' }]);
    expect(doc.kube.absent).toEqual([
      { path: '/apis/k8s.cni.cncf.io/v1/network-attachment-definitions', failure: 'not-found' },
      { path: '/apis/k8s.cni.cncf.io', failure: 'not-found' },
    ]);
    expect(Object.keys(doc.kube.resources)).toEqual([]);
  });

  it('profile API answers: GETs and read-only searches, one per path, query and filter, never a change, known secrets and credential-named values redacted', () => {
    const redactor = new Redactor().add('the-api-key-0123456789');
    const r = recorder(1 << 20, () => undefined, redactor);
    r.paletteAnswer({ method: 'GET', path: '/v1/clusterprofiles/p1' }, 200, JSON.stringify({ metadata: { uid: 'p1', note: 'echo the-api-key-0123456789' }, spec: { template: { packs: [{ name: 'x', values: 'adminPassword: hunter2\nreplicas: 2\n' }] } } }));
    r.paletteAnswer({ method: 'PUT', path: '/v1/clusterprofiles/p1', body: {} }, 204, '');
    r.paletteAnswer({ method: 'POST', path: '/v1/clusterprofiles/p1/clone', body: {} }, 201, '{"uid":"p2"}');
    r.paletteAnswer({ method: 'POST', path: '/v1/dashboard/clusterprofiles?limit=50', read: true, body: { filter: { profileName: { eq: 'core' } } } }, 200, '{"items":[]}');
    const doc = built(r);
    expect(doc.palette.answers).toEqual([
      { path: '/v1/clusterprofiles/p1', status: 200, body: { metadata: { uid: 'p1', note: 'echo [REDACTED]' }, spec: { template: { packs: [{ name: 'x', values: "adminPassword: '[REDACTED]'\nreplicas: 2\n" }] } } } },
      { method: 'POST', path: '/v1/dashboard/clusterprofiles?limit=50', request: { filter: { profileName: { eq: 'core' } } }, status: 200, body: { items: [] } },
    ]);
  });

  it('counts what it holds and calls onOverCap once, when a read takes it past the cap', () => {
    let calls = 0;
    const r = recorder(1_000, () => {
      calls++;
    });
    const big = Array.from({ length: 30 }, (_, i) => ({ metadata: { name: `n${i}` }, spec: { podCIDR: '10.0.0.0/24' } }));
    r.kubeAnswer('/api/v1/nodes', list(big.slice(0, 10)));
    expect(r.over).toBe(false);
    expect(r.bytes()).toBeGreaterThan(500);
    r.kubeAnswer('/api/v1/nodes', list(big));
    r.kubeAnswer('/api/v1/nodes', list(big));
    expect(r.over).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('the layered JSON', () => {
  it('indents the structure, writes pre-serialized parts as they are, and parses back', () => {
    const text = layeredJson({ a: 1, list: [new RawJson('{"x":[1,2]}'), new RawJson('{"y":null}')], empty: [], none: {}, skip: undefined });
    expect(text).toBe('{\n  "a": 1,\n  "list": [\n    {"x":[1,2]},\n    {"y":null}\n  ],\n  "empty": [],\n  "none": {}\n}\n');
    expect(JSON.parse(text)).toEqual({ a: 1, list: [{ x: [1, 2] }, { y: null }], empty: [], none: {} });
  });
  it("keeps a cluster's profile-variable values, except those whose name says credential (Palette masks only the sensitive ones)", () => {
    const r = recorder();
    r.pass = 'diff';
    const answer = [{ profileUid: 'p1', variables: [{ name: 'INGRESS_IP', value: '10.1.0.50' }, { name: 'ADMIN_PASSWORD', isSensitive: false, value: 'hunter2', defaultValue: 'changeme' }, { name: 'API_TOKEN', isSensitive: true, value: '' }] }];
    r.paletteAnswer({ method: 'GET', path: '/v1/spectroclusters/c1/variables' }, 200, JSON.stringify(answer));
    const doc = built(r);
    const text = JSON.stringify(doc.palette.answers);
    expect(text).toContain('10.1.0.50');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('changeme');
    expect(doc.parts.find((p) => p.what.startsWith("the cluster's profile-variable values"))).toBeDefined();
  });
});
