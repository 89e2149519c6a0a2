/**
 * The replay's profile API over captured answers: documents as captured, collections merged from
 * every page and paged and filtered again, what was not captured a 404 that says so, every change
 * refused with 405.
 */
import { describe, expect, it } from 'vitest';
import { dispatch, type ApiContext } from '../../../src/lab/palette/api-routes.js';
import { ProfileStore } from '../../../src/lab/palette/store.js';
import { replayRoutes } from '../../../src/lab/replay/palette-routes.js';

const pack = (uid: string, name: string, version: string) => ({ metadata: { uid, name }, spec: { name, version, registryUid: 'r1', layer: 'addon', values: `v: ${version}` } });
const routes = replayRoutes([
  { path: '/v1/clusterprofiles/p1', status: 200, body: { metadata: { uid: 'p1' } } },
  { path: '/v1/packs/nginx/registries/r1?cloudType=all', status: 200, body: { tags: [{ tag: '1.12.1' }] } },
  { path: '/v1/packs?filters=spec.name%3DnginxANDspec.version%3D1.12.1', status: 200, body: { items: [pack('u1', 'nginx', '1.12.1')], listmeta: { continue: '' } } },
  { path: '/v1/packs?filters=spec.name%3Dvirtual-machine-orchestratorANDspec.version%3D4.6.3', status: 200, body: { items: [pack('u2', 'virtual-machine-orchestrator', '4.6.3')], listmeta: { continue: '' } } },
  { path: '/v1/events/components/spectrocluster/c1?limit=2', status: 200, body: { items: [{ metadata: { uid: 'e1' } }, { metadata: { uid: 'e2' } }], listmeta: { continue: '2' } } },
  { path: '/v1/events/components/spectrocluster/c1?limit=2&continue=2', status: 200, body: { items: [{ metadata: { uid: 'e3' } }], listmeta: { continue: '' } } },
  { path: '/v1/notifications/spectrocluster/c1?isDone=false', status: 200, body: { items: [{ metadata: { uid: 'n1' }, action: { isDone: false } }], listmeta: { continue: '' } } },
  { path: '/v1/clusterprofiles', status: 200, body: { items: [{ metadata: { uid: 'p1' } }] } },
  { method: 'POST', path: '/v1/dashboard/clusterprofiles?limit=50', request: { filter: { profileName: { eq: 'vmo-core', ignoreCase: false } } }, status: 200, body: { items: [{ metadata: { uid: 'p1', name: 'vmo-core' }, specSummary: { version: '1.4.0' } }], listmeta: { continue: '' } } },
  { method: 'POST', path: '/v1/dashboard/clusterprofiles?limit=50', request: { filter: { profileName: { eq: 'vmo-infra', ignoreCase: false } } }, status: 200, body: { items: [{ metadata: { uid: 'p2', name: 'vmo-infra' }, specSummary: { version: '1.4.0' } }], listmeta: { continue: '' } } },
]);
const ctx: ApiContext = { store: new ProfileStore(), hooks: { clusterProfiles: () => undefined }, dialect: 'palette', ref: 'ref', ignorePut: false, registries: [] };
const get = (path: string) => {
  const [p, q = ''] = path.split('?');
  return dispatch(routes, ctx, 'GET', p!, '', new URLSearchParams(q));
};

describe("a replay's profile API", () => {
  it('a document as captured, whatever its query', () => {
    expect(get('/v1/clusterprofiles/p1').body).toEqual({ metadata: { uid: 'p1' } });
    expect(get('/v1/packs/nginx/registries/r1').body).toEqual({ tags: [{ tag: '1.12.1' }] });
  });

  it('the registry search filtered again over every captured answer', () => {
    const one = get('/v1/packs?filters=spec.name%3Dvirtual-machine-orchestratorANDspec.version%3D4.6.3').body as { items: Array<{ metadata: { uid: string } }> };
    expect(one.items.map((i) => i.metadata.uid)).toEqual(['u2']);
    const byName = get('/v1/packs?filters=spec.name%3Dnginx').body as { items: unknown[] };
    expect(byName.items).toHaveLength(1);
    expect((get('/v1/packs?filters=spec.name%3Dcilium').body as { items: unknown[] }).items).toEqual([]);
  });

  it('events merged from every captured page, paged again at any size', () => {
    const first = get('/v1/events/components/spectrocluster/c1?limit=50').body as { items: Array<{ metadata: { uid: string } }>; listmeta: { continue: string } };
    expect(first.items.map((e) => e.metadata.uid)).toEqual(['e1', 'e2', 'e3']);
    expect(first.listmeta.continue).toBe('');
    const small = get('/v1/events/components/spectrocluster/c1?limit=1&continue=1').body as { items: Array<{ metadata: { uid: string } }>; listmeta: { continue: string } };
    expect(small.items.map((e) => e.metadata.uid)).toEqual(['e2']);
    expect(small.listmeta.continue).toBe('2');
  });

  it('notifications filtered by isDone; the profile list in the shape it was captured in', () => {
    expect((get('/v1/notifications/spectrocluster/c1?isDone=true').body as { items: unknown[] }).items).toEqual([]);
    expect((get('/v1/notifications/spectrocluster/c1?isDone=false').body as { items: unknown[] }).items).toHaveLength(1);
    expect(get('/v1/clusterprofiles').body).toEqual({ items: [{ metadata: { uid: 'p1' } }] });
  });

  it("a real Palette's dashboard search, a read: every captured search filtered again by name", () => {
    const search = (name: string) => dispatch(routes, ctx, 'POST', '/v1/dashboard/clusterprofiles', JSON.stringify({ filter: { profileName: { eq: name, ignoreCase: false } } }), new URLSearchParams('limit=50'));
    expect((search('vmo-infra').body as { items: Array<{ metadata: { uid: string } }> }).items.map((i) => i.metadata.uid)).toEqual(['p2']);
    expect((search('vmo-core').body as { items: unknown[] }).items).toHaveLength(1);
    expect((search('other').body as { items: unknown[] }).items).toEqual([]);
    expect(search('vmo-core').effect).toBe('applied');
  });

  it('what was not captured is a 404 that says so', () => {
    const r = get('/v1/clusterprofiles/p2');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'ResourceNotFound', message: 'Not in this capture: GET /v1/clusterprofiles/p2 was not read when the site was captured' });
  });

  it.each([
    ['PUT', '/v1/clusterprofiles/p1'],
    ['PATCH', '/v1/clusterprofiles/p1/publish'],
    ['POST', '/v1/clusterprofiles/p1/clone'],
    ['PATCH', '/v1/spectroclusters/c1/profiles'],
    ['PATCH', '/v1/spectroclusters/c1/repave/approve'],
    ['DELETE', '/v1/clusterprofiles/p1'],
  ])('%s %s is refused: 405, nothing changes', (method, path) => {
    const r = dispatch(routes, ctx, method, path, '{}', new URLSearchParams());
    expect(r.status).toBe(405);
    expect(r.effect).toBe('rejected');
    expect(r.body).toMatchObject({ code: 'ReplayIsReadOnly' });
  });
});
