/** The profile API client against the lab double over real HTTP, in both dialects. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { assertSafeDraft, buildDraftBody } from '../../src/palette/draft-body.js';
import { publishRequest, putProfileRequest } from '../../src/palette/mutations.js';
import { ADDON_UID, CLUSTER_UID, INFRA_UID, startLab, type Lab } from '../lab/palette/support.js';
import { clientFor, jsonAnswer, labClient, startStub, type TestClient } from './support.js';

type Json = Record<string, any>;
const NEW_VALUES = 'charts:\n  virtual-machine-orchestrator:\n    kubevirt:\n      kubevirtResource:\n        additionalFeatureGates: [SMM, VMPersistentState]\n';

describe.each(['spec', 'palette'] as const)('PaletteClient, %s dialect', (dialect) => {
  let lab: Lab;
  let t: TestClient;
  beforeEach(async () => {
    lab = await startLab(dialect);
    // The read/write mechanics of each dialect, under the spec's versioning (a draft under a new
    // label); the palette flavor's refusal of exactly that is tested on its own below.
    t = labClient(lab, dialect, { flavor: 'spec' });
  });
  afterEach(async () => {
    await lab.close();
  });

  it('reads a profile: name, version, type, packs with values and manifest content, versions, status', async () => {
    const doc = await t.client.getProfile(ADDON_UID);
    expect(doc).toMatchObject({ dialect, uid: ADDON_UID, name: 'vmo-core', version: '1.2.0', type: 'add-on', cloudType: 'all', isPublished: true, publishedVersion: '1.2.0' });
    expect(doc.draftPacks).toBeUndefined();
    expect(doc.versions).toEqual(dialect === 'palette' ? ['1.1.0', '1.2.0'] : []);
    expect(doc.packs.map((p) => [p.name, p.tag, p.uid])).toEqual([
      ['lb-metallb-helm', '0.14.9', 'pack-metallb-0149'],
      ['virtual-machine-orchestrator', '4.6.3', 'pack-vmo-463'],
      ['prometheus-operator', '65.1.0', 'pack-prom-6510'],
    ]);
    expect(doc.packs[1]?.values).toContain('SMM');
    expect(doc.packs[2]?.manifests).toEqual([{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n' }]);
    expect(doc.publishedPacks).toEqual(doc.packs);
  });

  it('round trip: GET → change one pack’s tag and values → PUT → GET equals the original except the intended fields', async () => {
    const before = await t.client.getProfile(ADDON_UID);
    const body = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', values: NEW_VALUES }] });
    assertSafeDraft(before, body);
    await t.client.execute(putProfileRequest(ADDON_UID, body, 'write draft of vmo-core 1.3.0'));
    const after = await t.client.getProfile(ADDON_UID);

    const expected = structuredClone(before.raw) as Json;
    expected.spec.version = '1.3.0';
    expected.status.isPublished = false;
    if (dialect === 'spec') {
      Object.assign(expected.spec.template.packs[1], { tag: '4.7.1', values: NEW_VALUES, uid: 'pack-vmo-471' });
    } else {
      expected.spec.draft = structuredClone(expected.spec.published);
      expected.spec.draft.profileVersion = '1.3.0';
      Object.assign(expected.spec.draft.packs[1], { tag: '4.7.1', values: NEW_VALUES, packUid: 'pack-vmo-471' });
    }
    expect(after.raw).toEqual(expected);
    expect(after.draftVersion).toBe('1.3.0');
    expect(await t.client.draftMatches(ADDON_UID, body)).toEqual({ matches: true, differences: [] });
    expect(await t.client.isPublished(ADDON_UID, '1.3.0')).toBe(false);
  });

  it('publish: the draft takes effect, the cluster’s profiles show it, isPublished says so', async () => {
    const before = await t.client.getProfile(ADDON_UID);
    const body = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', values: NEW_VALUES }] });
    await t.client.execute(putProfileRequest(ADDON_UID, body, 'draft'));
    expect((await t.client.getClusterProfiles(CLUSTER_UID))[0]?.version).toBe('1.2.0');
    await t.client.execute(publishRequest(ADDON_UID, 'publish vmo-core 1.3.0'));
    expect(await t.client.isPublished(ADDON_UID, '1.3.0')).toBe(true);
    expect(await t.client.isPublished(ADDON_UID, '1.4.0')).toBe(false);
    const deployed = await t.client.getClusterProfiles(CLUSTER_UID);
    expect(deployed.map((d) => [d.name, d.uid, d.version])).toEqual([
      ['vmo-core', ADDON_UID, '1.3.0'],
      ['vmo-infra', INFRA_UID, '2.0.0'],
    ]);
    expect(deployed[0]?.packs[1]).toEqual({ name: 'virtual-machine-orchestrator', tag: '4.7.1', values: NEW_VALUES });
    // On Palette the PUT renamed 1.2.0 in place: two versions are left (1.1.0, 1.3.0).
    if (dialect === 'palette') expect(deployed[0]?.revision).toBe(2);
    expect(lab.audit.applied().map((e) => e.note)).toEqual([dialect === 'palette' ? 'draft vmo-core 1.3.0 (renames 1.2.0 in place)' : 'draft vmo-core 1.3.0', 'publish vmo-core 1.3.0']);
  });

  it('lists profiles (the list its API has: the spec\'s, or Palette\'s dashboard metadata)', async () => {
    const { client } = labClient(lab, dialect, { flavor: dialect });
    expect(await client.listProfiles()).toEqual([
      { uid: ADDON_UID, name: 'vmo-core', version: '1.2.0' },
      { uid: INFRA_UID, name: 'vmo-infra', version: '2.0.0' },
    ]);
  });

  it('refuses a spec.packs payload before sending anything', async () => {
    const before = await t.client.getProfile(ADDON_UID);
    const body = buildDraftBody(before, { version: '1.3.0', packs: [] }) as Json;
    body.spec.packs = body.spec.template.packs;
    delete body.spec.template.packs;
    expect(() => assertSafeDraft(before, body)).toThrow(InputError);
    const err = await t.client.execute(putProfileRequest(ADDON_UID, body as never, 'draft')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).exitCode).toBe(2);
    expect((err as InputError).message).toContain('spec.packs');
    expect(lab.audit.entries()).toEqual([]);
  });

  it('detects the “accepted but ignored” PUT by reading the draft back', async () => {
    lab.faults.set([{ route: 'PUT /v1/clusterprofiles/*', faults: { ignorePut: true } }]);
    const before = await t.client.getProfile(ADDON_UID);
    const body = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1' }] });
    await t.client.execute(putProfileRequest(ADDON_UID, body, 'draft'));
    const check = await t.client.draftMatches(ADDON_UID, body);
    expect(check.matches).toBe(false);
    expect(check.differences).toEqual(['no draft exists: the profile still shows published version 1.2.0']);
    expect(lab.audit.entries()).toMatchObject([{ method: 'PUT', status: 204, effect: 'ignored' }]);
  });

  it('a draft that differs from what was sent is named field by field', async () => {
    const before = await t.client.getProfile(ADDON_UID);
    const sent = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', values: NEW_VALUES }] });
    const other = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.0', uid: 'pack-vmo-470' }] });
    await t.client.execute(putProfileRequest(ADDON_UID, other, 'someone else’s draft'));
    expect((await t.client.draftMatches(ADDON_UID, sent)).differences).toEqual([
      'virtual-machine-orchestrator: tag is 4.7.0, sent 4.7.1',
      'virtual-machine-orchestrator: values differ from what was sent',
    ]);
  });
});

describe('PaletteClient, palette dialect specifics', () => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await startLab('palette');
  });
  afterEach(async () => {
    await lab.close();
  });

  it('reads manifest content from the manifests endpoint, draft and published apart', async () => {
    const { client } = labClient(lab, 'palette', { flavor: 'spec' });
    const before = await client.getProfile(ADDON_UID);
    const body = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'issuer-selfsigned', content: 'kind: Issuer # v2\n' }] }] });
    await client.execute(putProfileRequest(ADDON_UID, body, 'draft'));
    expect(await client.getPackManifests(ADDON_UID, 'prometheus-operator')).toEqual([
      { name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'kind: Issuer # v2\n', draftContent: 'kind: Issuer # v2\n', publishedContent: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n' },
    ]);
    const doc = await client.getProfile(ADDON_UID);
    expect(doc.draftPacks?.[2]?.manifests[0]?.content).toBe('kind: Issuer # v2\n');
    expect(doc.publishedPacks?.[2]?.manifests[0]?.content).toBe('apiVersion: cert-manager.io/v1\nkind: Issuer\n');
    expect(doc.packs).toBe(doc.draftPacks);
    expect((await client.getProfile(ADDON_UID, { manifests: false })).packs[2]?.manifests[0]?.content).toBeUndefined();
    expect((await client.draftMatches(ADDON_UID, body)).matches).toBe(true);
  });

  it("the spec's list: follows its pages (listmeta.continue)", async () => {
    const pages = [
      { items: [{ metadata: { name: 'a', uid: 'ua' }, spec: { version: '1.0.0' } }], listmeta: { continue: 'tok 2' } },
      { items: [{ metadata: { name: 'b', uid: 'ub' }, spec: { version: '2.0.0' } }], listmeta: { continue: '' } },
    ];
    const stub = await startStub((req, res) => jsonAnswer(200, pages[req.url?.includes('continue=tok%202') ? 1 : 0])(req, res));
    try {
      expect(await clientFor(stub.url, { flavor: 'spec' }).client.listProfiles()).toEqual([
        { uid: 'ua', name: 'a', version: '1.0.0' },
        { uid: 'ub', name: 'b', version: '2.0.0' },
      ]);
      expect(stub.requests.map((r) => r.url)).toEqual(['/v1/clusterprofiles', '/v1/clusterprofiles?continue=tok%202']);
    } finally {
      await stub.close();
    }
  });
});

describe("PaletteClient, a real Palette's lists", () => {
  it('finds a version by name and label through the dashboard search: filtered by name, 50 a page, every page, each item\'s versions too; never GET /v1/clusterprofiles', async () => {
    const summary = (uid: string, version: string, versions: Array<{ uid: string; version: string }>, name = 'vmo-core') => ({ metadata: { name, uid }, specSummary: { version, versions } });
    const pages = [
      { items: [summary('u-other', '9.0.0', [], 'vmo-core-old')], listmeta: { continue: 'tok 2', count: 2, limit: 50, offset: 0 } },
      { items: [summary('u-130', '1.3.0', [{ uid: 'u-120', version: '1.2.0' }, { uid: 'u-130', version: '1.3.0' }])], listmeta: { continue: '', count: 2, limit: 50, offset: 1 } },
    ];
    const stub = await startStub((req, res) => jsonAnswer(200, pages[req.url?.includes('continue=tok%202') ? 1 : 0])(req, res));
    try {
      const { client } = clientFor(stub.url, { flavor: 'palette' });
      expect(await client.findProfileVersion('vmo-core', '1.2.0')).toEqual({ uid: 'u-120', name: 'vmo-core', version: '1.2.0' });
      expect(await client.findProfileVersion('vmo-core', '9.0.0')).toBeUndefined();
      expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /v1/dashboard/clusterprofiles?limit=50',
        'POST /v1/dashboard/clusterprofiles?limit=50&continue=tok%202',
        'POST /v1/dashboard/clusterprofiles?limit=50',
        'POST /v1/dashboard/clusterprofiles?limit=50&continue=tok%202',
      ]);
      expect(new Set(stub.requests.map((r) => r.body))).toEqual(new Set([JSON.stringify({ filter: { profileName: { eq: 'vmo-core', ignoreCase: false } } })]));
    } finally {
      await stub.close();
    }
  });

  it('lists through the dashboard metadata, one request, no paging', async () => {
    const stub = await startStub(jsonAnswer(200, { items: [{ metadata: { name: 'a', uid: 'ua' }, spec: { version: '1.0.0', cloudType: 'all' } }, { metadata: { name: 'b', uid: 'ub' }, spec: null }] }));
    try {
      expect(await clientFor(stub.url, { flavor: 'palette' }).client.listProfiles()).toEqual([
        { uid: 'ua', name: 'a', version: '1.0.0' },
        { uid: 'ub', name: 'b', version: '' },
      ]);
      expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/dashboard/clusterprofiles/metadata']);
    } finally {
      await stub.close();
    }
  });
});

describe("PaletteClient, a cluster object that leaves profileVersion out", () => {
  it('reads each attached version\'s label from the version object, once per uid; an object that is gone gives no label', async () => {
    const cluster = {
      metadata: { uid: 'c1', name: 'c1' },
      spec: { clusterProfileTemplates: [{ uid: 'u-infra', name: 'vmo-infra', packs: [] }, { uid: 'u-addon', name: 'vmo-core', profileVersion: '', packs: [] }, { uid: 'u-gone', name: 'old', packs: [] }] },
      status: { state: 'Running' },
    };
    const profile = (uid: string, name: string, version: string) => ({ metadata: { uid, name }, spec: { version, published: { profileVersion: version, packs: [] } } });
    const docs: Record<string, unknown> = { 'u-infra': profile('u-infra', 'vmo-infra', '1.5.0'), 'u-addon': profile('u-addon', 'vmo-core', '1.5.0') };
    const stub = await startStub((req, res) => {
      if (req.url === '/v1/spectroclusters/c1') return jsonAnswer(200, cluster)(req, res);
      const uid = /^\/v1\/clusterprofiles\/([^/?]+)$/.exec(req.url ?? '')?.[1] ?? '';
      return docs[uid] ? jsonAnswer(200, docs[uid])(req, res) : jsonAnswer(404, { code: 'ResourceNotFound', message: 'gone' })(req, res);
    });
    try {
      const { client } = clientFor(stub.url, { flavor: 'palette', clusterCollection: 'spectroclusters' });
      expect((await client.getCluster('c1')).profiles.map((p) => `${p.name} ${p.uid} ${p.version}`)).toEqual(['vmo-infra u-infra 1.5.0', 'vmo-core u-addon 1.5.0', 'old u-gone ']);
      expect((await client.getClusterProfiles('c1')).map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 1.5.0', 'vmo-core 1.5.0', 'old ']);
      expect(stub.requests.filter((r) => r.url.startsWith('/v1/clusterprofiles/')).map((r) => r.url).sort()).toEqual(['/v1/clusterprofiles/u-addon', '/v1/clusterprofiles/u-gone', '/v1/clusterprofiles/u-infra']);
    } finally {
      await stub.close();
    }
  });
});

describe('PaletteClient requests', () => {
  it('send ApiKey and ProjectUid on every request, accept a base URL ending in /v1, and encode uids', async () => {
    const stub = await startStub(jsonAnswer(200, { profiles: [] }));
    try {
      const { client } = clientFor(`${stub.url}/v1/`, { clusterCollection: 'spectroclusters', flavor: 'spec' });
      expect(await client.getClusterProfiles('a b/c')).toEqual([]);
      expect(stub.requests).toHaveLength(1);
      expect(stub.requests[0]?.url).toBe('/v1/spectroclusters/a%20b%2Fc/profiles');
      expect(stub.requests[0]?.headers.apikey).toBe('lab-key-5f0c9a7e-3b1d-4c2e-9f8a-1234567890ab');
      expect(stub.requests[0]?.headers.projectuid).toBe('project-lab-0001');
    } finally {
      await stub.close();
    }
  });

  it('normalize both deployed-pack shapes', async () => {
    const stub = await startStub(
      jsonAnswer(200, {
        profiles: [
          { metadata: { name: 'spec-style' }, spec: { version: '1.0.0' }, packs: [{ name: 'a', tag: '1' }] },
          { metadata: { name: 'real', uid: 'u' }, spec: { version: 4, profileVersion: '2.0.0', packs: [{ metadata: { name: 'b' }, spec: { name: 'b', version: '2', values: 'x: 1\n', layer: 'addon' } }] } },
          { metadata: { name: 'revision-only' }, spec: { version: 7, packs: null } },
        ],
      }),
    );
    try {
      expect(await clientFor(stub.url, { flavor: 'spec' }).client.getClusterProfiles('c')).toEqual([
        { name: 'spec-style', version: '1.0.0', packs: [{ name: 'a', tag: '1' }] },
        { name: 'real', uid: 'u', version: '2.0.0', revision: 4, packs: [{ name: 'b', tag: '2', values: 'x: 1\n' }] },
        { name: 'revision-only', version: '', revision: 7, packs: [] },
      ]);
    } finally {
      await stub.close();
    }
  });
});
