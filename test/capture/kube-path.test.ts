import { describe, expect, it } from 'vitest';
import { listPathOf, parseKubeRead, resourceKey } from '../../src/capture/kube-path.js';

describe('what a Kubernetes read addressed, from its path', () => {
  it.each([
    ['/api/v1/nodes', { group: '', version: 'v1', resource: 'nodes', table: false }],
    ['/api/v1/namespaces/kubevirt/pods?labelSelector=kubevirt.io%3Dvirt-handler', { group: '', version: 'v1', resource: 'pods', namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler', table: false }],
    ['/api/v1/pods?fieldSelector=status.phase!%3DRunning,status.phase!%3DSucceeded&limit=500', { group: '', version: 'v1', resource: 'pods', fieldSelector: 'status.phase!=Running,status.phase!=Succeeded', table: false }],
    ['/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/kubevirt', { group: 'kubevirt.io', version: 'v1', resource: 'kubevirts', namespace: 'kubevirt', name: 'kubevirt', table: false }],
    ['/apis/cdi.kubevirt.io/v1beta1/cdis/cdi', { group: 'cdi.kubevirt.io', version: 'v1beta1', resource: 'cdis', name: 'cdi', table: false }],
    ['/apis/kubevirt.io/v1/virtualmachineinstances?includeObject=Metadata', { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstances', table: true }],
    ['/api/v1/namespaces/kubevirt/pods/virt-handler-abc/log?tailLines=500&container=virt-handler', { group: '', version: 'v1', resource: 'pods', namespace: 'kubevirt', name: 'virt-handler-abc', subresource: 'log', table: false }],
    // A gateway's path before the API (Rancher): the read is the same.
    ['/k8s/clusters/c-abc/api/v1/nodes', { group: '', version: 'v1', resource: 'nodes', table: false }],
    ['/k8s/clusters/c-abc/apis/kubevirt.io/v1/virtualmachines', { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines', table: false }],
  ])('%s', (path, read) => {
    expect(parseKubeRead(path)).toEqual(read);
  });

  it.each([['/version'], ['/api'], ['/apis'], ['/apis/kubevirt.io'], ['/apis/kubevirt.io/v1'], ['/healthz'], ['/api/v1/namespaces/a/pods/b/log/extra']])('%s is no resource read', (path) => {
    expect(parseKubeRead(path)).toBeUndefined();
  });

  it('names a collection as the apiserver does, and reads it again whole', () => {
    const read = parseKubeRead('/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstances?includeObject=Metadata&labelSelector=x')!;
    expect(resourceKey(read)).toBe('virtualmachineinstances.kubevirt.io');
    expect(resourceKey(parseKubeRead('/api/v1/pods')!)).toBe('pods');
    expect(listPathOf(read)).toBe('/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstances');
    expect(listPathOf(parseKubeRead('/api/v1/nodes/n1')!)).toBe('/api/v1/nodes');
  });
});
