/** The profile API's mutations as requests: built with the real API's shapes, classified from method and path alone. */
import { describe, expect, it } from 'vitest';
import { applyProfilesRequest, approveRepaveRequest, classifyMutation, cloneRequest, isPendingUid, pendingUid, publishRequest } from '../../src/palette/mutations.js';

describe('classifyMutation', () => {
  it.each([
    ['PUT', '/v1/clusterprofiles/abc', { kind: 'put', uid: 'abc' }],
    ['PUT', '/v1/clusterprofiles/a%20b', { kind: 'put', uid: 'a b' }],
    ['PATCH', '/v1/clusterprofiles/abc/publish', { kind: 'publish', uid: 'abc' }],
    ['POST', '/v1/clusterprofiles/abc/clone', { kind: 'clone', uid: 'abc' }],
    ['PATCH', '/v1/spectroclusters/c1/profiles?resolveNotification=true', { kind: 'apply', clusterUid: 'c1' }],
    ['PATCH', '/v1/spectroclusters/c1/profiles', { kind: 'apply', clusterUid: 'c1' }],
    ['PATCH', '/v1/spectroclusters/c1/repave/approve', { kind: 'repave', clusterUid: 'c1' }],
    ['PUT', '/v1/spectroclusters/c1/profiles', { kind: 'other' }],
    ['POST', '/v1/clusterprofiles/abc/publish', { kind: 'other' }],
    ['DELETE', '/v1/clusterprofiles/abc', { kind: 'other' }],
  ] as const)('%s %s', (method, path, want) => {
    expect(classifyMutation({ method, path })).toEqual(want);
  });
});

describe('requests', () => {
  it('a clone: POST on the source with the new name and label, scoped to the project (V1ClusterProfileCloneEntity)', () => {
    expect(cloneRequest('src', { name: 'vmo', version: '1.5.0', projectUid: 'p1' }, 'clone')).toEqual({
      target: 'palette',
      method: 'POST',
      path: '/v1/clusterprofiles/src/clone',
      body: { metadata: { name: 'vmo', version: '1.5.0', target: { scope: 'project', projectUid: 'p1' } } },
      summary: 'clone',
    });
  });

  it('an apply: PATCH the cluster’s profiles resolving the notification, with replaceWithProfile', () => {
    expect(applyProfilesRequest('c 1', [{ uid: 'new', replaceWithProfile: 'old' }, { uid: 'same' }], 'apply')).toMatchObject({
      method: 'PATCH',
      path: '/v1/spectroclusters/c%201/profiles?resolveNotification=true',
      body: { profiles: [{ uid: 'new', replaceWithProfile: 'old' }, { uid: 'same' }] },
    });
  });

  it('a repave approval: PATCH without a body', () => {
    const r = approveRepaveRequest('c1', 'approve');
    expect(r).toEqual({ target: 'palette', method: 'PATCH', path: '/v1/spectroclusters/c1/repave/approve', summary: 'approve' });
  });

  it('a version a rehearsal has not made yet is named by a readable placeholder, kept as is in paths', () => {
    const uid = pendingUid('vmo-infra', '1.5.0');
    expect(uid).toBe('<uid of vmo-infra 1.5.0>');
    expect(isPendingUid(uid)).toBe(true);
    expect(isPendingUid('abc')).toBe(false);
    expect(publishRequest(uid, 'publish').path).toBe('/v1/clusterprofiles/<uid of vmo-infra 1.5.0>/publish');
  });
});
