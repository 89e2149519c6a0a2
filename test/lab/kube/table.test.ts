import { describe, expect, it } from 'vitest';
import { ageOf, humanDuration } from '../../../src/text/age.js';
import { servedType } from '../../../src/lab/kube/kinds.js';
import { KubeStatusException } from '../../../src/lab/kube/status.js';
import { parseIncludeObject, tableBody } from '../../../src/lab/kube/table.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { node, pod, service, vmi, vmim } from './seed.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration', () => {
  it.each([
    [-3 * S, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [3 * M + 20 * S, '3m20s'],
    [47 * M, '47m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 10 * M, '5h10m'],
    [30 * H, '30h'],
    [3 * D + 4 * H, '3d4h'],
    [3 * D, '3d'],
    [120 * D, '120d'],
    [2 * 365 * D + 14 * D, '2y14d'],
    [9 * 365 * D, '9y'],
  ])('%d ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('reads Kubernetes timestamps', () => {
    expect(ageOf('2025-01-01T00:00:00Z', Date.parse('2025-01-01T00:05:00Z'))).toBe('5m');
    expect(ageOf(undefined, 0)).toBe('<unknown>');
  });
});

const NOW = Date.parse('2025-01-01T02:00:00Z');

function table(resource: string, objs: KubeObject[], includeObject: 'None' | 'Metadata' | 'Object' = 'Metadata'): any {
  const stamped = objs.map((o) => ({ ...o, metadata: { ...o.metadata, creationTimestamp: '2025-01-01T00:00:00Z' } }));
  const body = tableBody({
    type: servedType(resource),
    rows: stamped.map((obj) => ({ obj, json: () => JSON.stringify(obj) })),
    includeObject,
    meta: { resourceVersion: '42', continue: 'tok' },
    now: NOW,
    apiVersion: 'meta.k8s.io/v1',
  });
  return JSON.parse(body.join(''));
}

const header = (t: any, wide = false): string[] => t.columnDefinitions.filter((c: any) => wide || c.priority === 0).map((c: any) => c.name);
const cells = (t: any, row = 0): unknown[] => t.rows[row].cells;

describe('tables', () => {
  it('is a meta.k8s.io/v1 Table with list metadata', () => {
    const t = table('pods', [pod('ns', 'a')]);
    expect(t).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '42', continue: 'tok' } });
  });

  it.each([
    ['pods', ['Name', 'Ready', 'Status', 'Restarts', 'Age']],
    ['nodes', ['Name', 'Status', 'Roles', 'Age', 'Version']],
    ['services', ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age']],
    ['virtualmachineinstances', ['Name', 'Age', 'Phase', 'IP', 'NodeName', 'Ready']],
    ['virtualmachineinstancemigrations', ['Name', 'Phase', 'VMI']],
    ['virtualmachines', ['Name', 'Age', 'Status', 'Ready']],
    ['network-attachment-definitions', ['Name', 'Age']],
    ['namespaces', ['Name', 'Status', 'Age']],
  ])('%s columns are %j', (resource, columns) => {
    expect(header(table(resource, []))).toEqual(columns);
  });

  it.each([
    ['a running pod', pod('ns', 'a'), ['a', '1/1', 'Running', '0', '120m']],
    ['a crash-looping pod', pod('ns', 'b', { waitingReason: 'CrashLoopBackOff', restarts: 7 }), ['b', '0/1', 'CrashLoopBackOff', '7', '120m']],
    ['a pending pod with two containers', pod('ns', 'c', { phase: 'Pending', containers: ['x', 'y'] }), ['c', '0/2', 'ContainerCreating', '0', '120m']],
    ['a terminating pod', { ...pod('ns', 'd'), metadata: { name: 'd', namespace: 'ns', deletionTimestamp: '2025-01-01T01:59:00Z' } }, ['d', '1/1', 'Terminating', '0', '120m']],
  ])('prints %s like the apiserver', (_what, obj, expected) => {
    expect(cells(table('pods', [obj])).slice(0, 5)).toEqual(expected);
  });

  it('shows when a container last restarted', () => {
    const p = pod('ns', 'r', { restarts: 3 });
    (p.status!.containerStatuses as any[])[0].lastState = { terminated: { exitCode: 1, finishedAt: '2025-01-01T01:55:00Z' } };
    expect(cells(table('pods', [p]))[3]).toBe('3 (5m ago)');
  });

  it('prints node readiness, roles and scheduling', () => {
    const cordoned = node('n2', { roles: ['worker', 'control-plane'] });
    cordoned.spec = { unschedulable: true };
    const t = table('nodes', [node('n1', { ready: false }), cordoned]);
    expect(cells(t, 0).slice(0, 3)).toEqual(['n1', 'NotReady', '<none>']);
    expect(cells(t, 1).slice(0, 5)).toEqual(['n2', 'Ready,SchedulingDisabled', 'control-plane,worker', '120m', 'v1.30.5']);
  });

  it('prints load-balancer addresses, pending ones and ports', () => {
    const t = table('services', [
      service('ns', 'lb', { type: 'LoadBalancer', lbIp: '192.168.1.9', ports: [{ port: 80, nodePort: 30080 }] }),
      service('ns', 'pending', { type: 'LoadBalancer' }),
      service('ns', 'plain'),
    ]);
    expect(cells(t, 0).slice(1, 5)).toEqual(['LoadBalancer', '10.96.0.10', '192.168.1.9', '80:30080/TCP']);
    expect(cells(t, 1)[3]).toBe('<pending>');
    expect(cells(t, 2)[3]).toBe('<none>');
  });

  it('prints CRD printer columns, with null for missing values', () => {
    expect(cells(table('virtualmachineinstances', [vmi('vms', 'v', { node: 'n1', ip: '10.0.0.5' })]))).toEqual(['v', '120m', 'Running', '10.0.0.5', 'n1', 'True', 'True', null]);
    expect(cells(table('virtualmachineinstancemigrations', [vmim('vms', 'm', 'v', 'Failed')]))).toEqual(['m', 'Failed', 'v']);
    const bare = vmim('vms', 'n', 'v');
    delete bare.status;
    expect(cells(table('virtualmachineinstancemigrations', [bare]))).toEqual(['n', null, 'v']);
  });

  it('marks the default storage class', () => {
    const sc: KubeObject = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'px', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'pxd.portworx.com' };
    expect(cells(table('storageclasses', [sc]))).toEqual(['px (default)', 'pxd.portworx.com', 'Delete', 'Immediate', false, '120m']);
  });

  it('carries metadata, the whole object, or nothing per includeObject', () => {
    const p = pod('ns', 'a');
    expect(table('pods', [p]).rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a', namespace: 'ns' }) });
    expect(table('pods', [p], 'Object').rows[0].object).toMatchObject({ kind: 'Pod', spec: { nodeName: 'node-1' } });
    expect(table('pods', [p], 'None').rows[0]).not.toHaveProperty('object');
  });

  it('parses includeObject and refuses unknown values', () => {
    expect(parseIncludeObject(null)).toBe('Metadata');
    expect(parseIncludeObject('Object')).toBe('Object');
    expect(() => parseIncludeObject('All')).toThrow(KubeStatusException);
  });
});
