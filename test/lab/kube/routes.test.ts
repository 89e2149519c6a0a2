import { describe, expect, it } from 'vitest';
import { parseRoute, verbOf } from '../../../src/lab/kube/routes.js';

function describeRoute(path: string): string {
  const r = parseRoute(path);
  if (r.kind !== 'resource') return r.kind;
  const t = r.target;
  return [t.group || 'core', t.type.resource, t.namespace ?? '-', t.name ?? '-', t.subresource ?? '-'].join(' ');
}

describe('routes', () => {
  it.each([
    ['/version', 'version'],
    ['/healthz', 'health'],
    ['/api', 'apiVersions'],
    ['/apis', 'apiGroupList'],
    ['/apis/kubevirt.io', 'apiGroup'],
    ['/api/v1', 'resourceList'],
    ['/apis/kubevirt.io/v1', 'resourceList'],
    ['/api/v1/pods', 'core pods - - -'],
    ['/api/v1/namespaces/kubevirt/pods', 'core pods kubevirt - -'],
    ['/api/v1/namespaces/kubevirt/pods/p1', 'core pods kubevirt p1 -'],
    ['/api/v1/namespaces/kubevirt/pods/p1/log', 'core pods kubevirt p1 log'],
    ['/api/v1/namespaces', 'core namespaces - - -'],
    ['/api/v1/namespaces/kubevirt', 'core namespaces - kubevirt -'],
    ['/api/v1/nodes/n1', 'core nodes - n1 -'],
    ['/apis/kubevirt.io/v1/virtualmachineinstances', 'kubevirt.io virtualmachineinstances - - -'],
    ['/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstancemigrations/m1', 'kubevirt.io virtualmachineinstancemigrations vms m1 -'],
    ['/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/vm1/restart', 'subresources.kubevirt.io virtualmachines vms vm1 restart'],
    ['/apis/cdi.kubevirt.io/v1beta1/cdis/cdi', 'cdi.kubevirt.io cdis - cdi -'],
    ['/apis/k8s.cni.cncf.io/v1/namespaces/vms/network-attachment-definitions', 'k8s.cni.cncf.io network-attachment-definitions vms - -'],
  ])('%s → %s', (path, expected) => {
    expect(describeRoute(path)).toBe(expected);
  });

  it.each([
    '/',
    '/openapi/v2',
    '/api/v2/pods',
    '/api/v1/widgets',
    '/api/v1/pods/p1',
    '/api/v1/namespaces/ns/nodes',
    '/api/v1/namespaces/ns/pods/p1/exec',
    '/api/v1/namespaces/ns/pods/p1/log/extra',
    '/apis/kubevirt.io/v1/namespaces/vms/virtualmachines/vm1/restart',
    '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines',
    '/apis/kubevirt.io/v2/virtualmachines',
    '/api/v1/namespaces/%E0%A4%A/pods',
  ])('%s is unknown', (path) => {
    expect(parseRoute(path).kind).toBe('unknown');
  });

  it('derives RBAC verbs', () => {
    const route = (p: string) => {
      const r = parseRoute(p);
      if (r.kind !== 'resource') throw new Error(p);
      return r.target;
    };
    expect(verbOf('GET', route('/api/v1/pods'), false)).toBe('list');
    expect(verbOf('GET', route('/api/v1/pods'), true)).toBe('watch');
    expect(verbOf('GET', route('/api/v1/namespaces/n/pods/p'), false)).toBe('get');
    expect(verbOf('DELETE', route('/api/v1/namespaces/n/pods/p'), false)).toBe('delete');
    expect(verbOf('DELETE', route('/api/v1/namespaces/n/pods'), false)).toBe('deletecollection');
    expect(verbOf('PUT', route('/apis/subresources.kubevirt.io/v1/namespaces/n/virtualmachines/v/restart'), false)).toBe('update');
  });
});
