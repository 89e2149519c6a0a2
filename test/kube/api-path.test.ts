import { describe, expect, it } from 'vitest';
import { pathSegments, resourcePath } from '../../src/kube/api-path.js';

describe('what the segments after an API group and version address', () => {
  it.each([
    [['nodes'], { resource: 'nodes' }],
    [['nodes', 'n1'], { resource: 'nodes', name: 'n1' }],
    [['pods'], { resource: 'pods' }],
    [['namespaces', 'kubevirt', 'pods'], { resource: 'pods', namespace: 'kubevirt' }],
    [['namespaces', 'kubevirt', 'pods', 'virt-handler-abc', 'log'], { resource: 'pods', namespace: 'kubevirt', name: 'virt-handler-abc', subresource: 'log' }],
    [['namespaces', 'vms', 'virtualmachines', 'db-01', 'restart'], { resource: 'virtualmachines', namespace: 'vms', name: 'db-01', subresource: 'restart' }],
    // Namespaces themselves: `namespaces` and `namespaces/{name}` are no namespaced path.
    [['namespaces'], { resource: 'namespaces' }],
    [['namespaces', 'kubevirt'], { resource: 'namespaces', name: 'kubevirt' }],
  ])('%j', (rest, addressed) => {
    expect(resourcePath(rest)).toEqual(addressed);
  });

  it.each([[[]], [['namespaces', 'a', 'pods', 'b', 'log', 'extra']], [['nodes', 'n1', 'status', 'extra']]])('%j addresses nothing', (rest) => {
    expect(resourcePath(rest)).toBeUndefined();
  });

  it('splits a path into decoded segments, none for one that does not decode', () => {
    expect(pathSegments('/api/v1//namespaces/a%2Fb/pods/')).toEqual(['api', 'v1', 'namespaces', 'a/b', 'pods']);
    expect(pathSegments('/api/v1/pods/%E0%A4%A')).toBeUndefined();
  });
});
