/**
 * Conformance of the Palette double over real HTTP, in both dialects: every row of spec sections 3
 * (states), 4 (endpoints) and 7 (errors), version labels (2.1), required fields, auth, 404s,
 * unknown-field round trips, the manifests endpoint and the audit log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADDON_UID, API_KEY, CLUSTER_UID, INFRA_UID, startLab, type Lab } from './support.js';

type Json = Record<string, any>;

/** The update entity of domain-notes: metadata, spec.version, spec.template.{type, packs}. */
function putBody(version: string, packs: Json[], extra: { metadata?: Json; spec?: Json } = {}): Json {
  return { metadata: { name: 'vmo-core', uid: ADDON_UID, ...extra.metadata }, spec: { version, template: { type: 'add-on', packs }, ...extra.spec } };
}

const currentPacks = (): Json[] => [
  { name: 'lb-metallb-helm', tag: '0.14.9', uid: 'pack-metallb-0149', values: 'autoAssign: false\n' },
  // A new version: a real Palette wants its uid in the registry (the spec's service keeps what it is given).
  { name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', values: 'upgraded: true\n' },
  { name: 'prometheus-operator', tag: '65.1.0', uid: 'pack-prom-6510', values: 'grafana:\n  enabled: true\n', manifests: [{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'kind: Issuer\n' }] },
];

const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

describe.each(['spec', 'palette'] as const)('Palette double, %s dialect', (dialect) => {
  let lab: Lab;
  const clusterPath = `/v1/${dialect === 'spec' ? 'clusters' : 'spectroclusters'}/${CLUSTER_UID}/profiles`;
  const otherClusterPath = `/v1/${dialect === 'spec' ? 'spectroclusters' : 'clusters'}/${CLUSTER_UID}/profiles`;

  beforeEach(async () => {
    lab = await startLab(dialect);
  });
  afterEach(async () => {
    await lab.close();
  });

  /** Packs as the dialect shows the content a GET presents (draft if any, else published). */
  const shownPacks = (doc: Json): Json[] => (dialect === 'spec' ? doc.spec.template.packs : (doc.spec.draft ?? doc.spec.published).packs);
  const deployedVersions = async () => (await json(await lab.call('GET', clusterPath))).profiles.map((p: Json) => (dialect === 'spec' ? p.spec.version : p.spec.profileVersion));

  describe('section 4: endpoints and shapes', () => {
    if (dialect === 'spec') {
      it('GET /v1/clusterprofiles lists name, uid and version of every profile (2.4)', async () => {
        const res = await lab.call('GET', '/v1/clusterprofiles');
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body.items.map((i: Json) => [i.metadata.name, i.metadata.uid, i.spec.version])).toEqual([
          ['vmo-core', ADDON_UID, '1.2.0'],
          ['vmo-infra', INFRA_UID, '2.0.0'],
        ]);
      });
    } else {
      it('GET /v1/clusterprofiles answers 405 (the path takes only POST, the create); the dashboard metadata lists name, uid and label of every version', async () => {
        const res = await lab.call('GET', '/v1/clusterprofiles');
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(lab.audit.entries()).toMatchObject([{ method: 'GET', path: '/v1/clusterprofiles', status: 405, effect: 'rejected' }]);
        const body = await json(await lab.call('GET', '/v1/dashboard/clusterprofiles/metadata'));
        expect(body).toEqual({
          items: [
            { metadata: { name: 'vmo-core', uid: ADDON_UID }, spec: { version: '1.2.0', cloudType: 'all' } },
            { metadata: { name: 'vmo-infra', uid: INFRA_UID }, spec: { version: '2.0.0', cloudType: 'all' } },
          ],
        });
      });
    }

    it('GET /v1/clusterprofiles/{uid} has the dialect’s shape with metadata, status and unknown fields', async () => {
      const doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
      expect(doc.metadata).toEqual({ name: 'vmo-core', uid: ADDON_UID, annotations: { owner: 'platform' }, labels: { site: 'lab' }, description: 'core add-ons', scope: 'project' });
      expect(doc.status.isPublished).toBe(true);
      expect(doc.spec.relatedObject).toEqual({ kind: 'cluster', name: 'lab' });
      expect(doc.spec.version).toBe('1.2.0');
      if (dialect === 'spec') {
        expect(doc.spec).toMatchObject({ type: 'add-on', cloudType: 'all' });
        expect(doc.spec.template).toMatchObject({ cloudType: 'all', type: 'add-on', packServerRefs: [{ name: 'Palette Registry', uid: 'registry-0001' }] });
        expect(doc.spec.draft).toBeUndefined();
        expect(doc.spec.published).toBeUndefined();
        expect(doc.spec.template.packs[2]).toEqual({
          name: 'prometheus-operator',
          tag: '65.1.0',
          uid: 'pack-prom-6510',
          registryUid: 'registry-0001',
          layer: 'addon',
          type: 'spectro',
          values: 'grafana:\n  enabled: true\n',
          manifests: [{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n' }],
        });
      } else {
        expect(doc.spec.template).toBeUndefined();
        expect(doc.spec.draft).toBeUndefined();
        expect(doc.spec.versions.map((v: Json) => v.version)).toEqual(['1.1.0', '1.2.0']);
        expect(doc.spec.published).toMatchObject({ cloudType: 'all', type: 'add-on', profileVersion: '1.2.0' });
        expect(doc.spec.published.packs[2]).toEqual({
          name: 'prometheus-operator',
          tag: '65.1.0',
          packUid: 'pack-prom-6510',
          registryUid: 'registry-0001',
          layer: 'addon',
          type: 'spectro',
          values: 'grafana:\n  enabled: true\n',
          manifests: [{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001' }],
        });
      }
    });

    it('PUT writes a draft only: 204 with no body, the GET shows the draft, clusters are unchanged', async () => {
      const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      const doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
      expect(doc.status.isPublished).toBe(false);
      expect(doc.spec.version).toBe('1.3.0');
      expect(shownPacks(doc).map((p: Json) => `${p.name}@${p.tag}`)).toEqual(['lb-metallb-helm@0.14.9', 'virtual-machine-orchestrator@4.7.1', 'prometheus-operator@65.1.0']);
      expect(shownPacks(doc)[1]?.values).toBe('upgraded: true\n');
      if (dialect === 'palette') {
        expect(doc.spec.draft.profileVersion).toBe('1.3.0');
        expect(doc.spec.published.profileVersion).toBe('1.2.0');
        expect(doc.spec.published.packs[1].tag).toBe('4.6.3');
      }
      expect(await deployedVersions()).toEqual(['1.2.0', '2.0.0']);
      expect(lab.published).toEqual([]);
      // On a real Palette a version is its object: a PUT under another label renames it (the audit says so).
      const note = dialect === 'palette' ? 'draft vmo-core 1.3.0 (renames 1.2.0 in place)' : 'draft vmo-core 1.3.0';
      expect(lab.audit.entries({ method: 'PUT' })).toMatchObject([{ api: 'palette', path: `/v1/clusterprofiles/${ADDON_UID}`, status: 204, effect: 'applied', note }]);
      expect(lab.audit.entries()[0]?.bodyDigest).toMatch(/^[0-9a-f]{16}$/);
    });

    it('PATCH .../publish publishes the draft: 204, published, history, hook, clusters reconcile', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      const res = await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      const doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
      expect(doc.status.isPublished).toBe(true);
      expect(doc.spec.version).toBe('1.3.0');
      // The spec's service keeps 1.2.0 in the history; Palette renamed that version in place: it is gone.
      const history = dialect === 'palette' ? ['1.1.0', '1.3.0'] : ['1.1.0', '1.2.0', '1.3.0'];
      if (dialect === 'palette') {
        expect(doc.spec.draft).toBeUndefined();
        expect(doc.spec.versions.map((v: Json) => v.version)).toEqual(history);
      }
      expect(lab.store.get(ADDON_UID)?.history).toEqual(history);
      expect(lab.published).toEqual(['vmo-core 1.3.0']);
      expect(await deployedVersions()).toEqual(['1.3.0', '2.0.0']);
      expect(lab.audit.applied().map((e) => e.note)).toEqual([dialect === 'palette' ? 'draft vmo-core 1.3.0 (renames 1.2.0 in place)' : 'draft vmo-core 1.3.0', 'publish vmo-core 1.3.0']);
    });

    it(`GET ${clusterPath} has the dialect’s deployed-profiles shape; the other collection is not served`, async () => {
      const body = await json(await lab.call('GET', clusterPath));
      const vmo = body.profiles[0];
      expect(vmo.metadata).toEqual({ name: 'vmo-core', uid: ADDON_UID });
      if (dialect === 'spec') {
        expect(vmo.spec.version).toBe('1.2.0');
        expect(vmo.packs[1]).toEqual({ name: 'virtual-machine-orchestrator', tag: '4.6.3', values: expect.stringContaining('SMM') });
      } else {
        expect(vmo.spec).toMatchObject({ version: 2, profileVersion: '1.2.0', type: 'add-on', cloudType: 'all' });
        expect(vmo.spec.packs[1]).toEqual({
          metadata: { name: 'virtual-machine-orchestrator', uid: 'pack-vmo-463' },
          spec: { name: 'virtual-machine-orchestrator', version: '4.6.3', layer: 'addon', type: 'spectro', registryUid: 'registry-0001', values: expect.stringContaining('SMM') },
        });
      }
      expect((await lab.call('GET', otherClusterPath)).status).toBe(404);
    });

    it('lists page with limit (at most 50) and continue in the palette dialect (the dashboard search, a read) and answer everything in the spec dialect', async () => {
      if (dialect === 'spec') {
        expect((await json(await lab.call('GET', '/v1/clusterprofiles?limit=1'))).items).toHaveLength(2);
        return;
      }
      const search = (query: string, body: unknown = {}) => lab.call('POST', `/v1/dashboard/clusterprofiles${query}`, body);
      const first = await json(await search('?limit=1'));
      expect(first.items.map((i: Json) => [i.metadata.name, i.metadata.uid, i.specSummary.version])).toEqual([['vmo-core', ADDON_UID, '1.2.0']]);
      expect(first.items[0].specSummary.versions).toEqual([
        { uid: ADDON_UID, version: '1.1.0' },
        { uid: ADDON_UID, version: '1.2.0' },
      ]);
      expect(first.listmeta).toMatchObject({ count: 2, continue: '1' });
      const second = await json(await search(`?limit=1&continue=${first.listmeta.continue}`));
      expect(second.items.map((i: Json) => i.metadata.uid)).toEqual([INFRA_UID]);
      expect(second.listmeta.continue).toBe('');
      // v1FilterString on the name; case ignored unless asked not to.
      expect((await json(await search('', { filter: { profileName: { eq: 'VMO-INFRA' } } }))).items.map((i: Json) => i.metadata.uid)).toEqual([INFRA_UID]);
      expect((await json(await search('', { filter: { profileName: { eq: 'VMO-INFRA', ignoreCase: false } } }))).items).toEqual([]);
      expect((await search('?limit=51')).status).toBe(400);
      // What the lab does not model it refuses, rather than answer as if it had filtered.
      expect((await search('', { filter: { tags: { eq: ['x'] } } })).status).toBe(501);
      // A search changes nothing: it is not in the audit of mutations.
      expect(lab.audit.entries().filter((e) => e.status !== 400 && e.status !== 501)).toEqual([]);
    });
  });

  describe('section 3: states and transitions', () => {
    it('a second PUT replaces the draft; the published version stays', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.1', currentPacks().slice(0, 2)));
      const profile = lab.store.get(ADDON_UID);
      expect(profile?.draft?.version).toBe('1.3.1');
      expect(profile?.draft?.packs).toHaveLength(2);
      expect(profile?.published?.version).toBe('1.2.0');
    });

    it('publish without a draft is refused with 409 and changes nothing', async () => {
      const res = await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      expect(res.status).toBe(409);
      expect(await json(res)).toEqual({ code: 'ClusterProfileNoDraft', message: expect.stringContaining('no draft'), ref: expect.stringMatching(/^[0-9a-f]{16}$/) });
      expect(lab.published).toEqual([]);
      expect(lab.store.get(ADDON_UID)?.history).toEqual(['1.1.0', '1.2.0']);
      expect(lab.audit.entries({ method: 'PATCH' })).toMatchObject([{ status: 409, effect: 'rejected' }]);
    });

    it('publishing twice publishes once: the second attempt finds no draft', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      expect((await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`)).status).toBe(204);
      expect((await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`)).status).toBe(409);
      expect(lab.audit.applied().filter((e) => e.method === 'PATCH')).toHaveLength(1);
    });
  });

  describe('section 7: silent failures', () => {
    it('a PUT with packs under spec.packs answers 204 and changes nothing', async () => {
      const before = await (await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`)).text();
      const body = { metadata: { name: 'vmo-core', uid: ADDON_UID }, spec: { version: '1.3.0', packs: currentPacks() } };
      const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, body);
      expect(res.status).toBe(204);
      expect(await (await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`)).text()).toBe(before);
      expect(lab.audit.entries({ method: 'PUT' })).toMatchObject([{ status: 204, effect: 'ignored', note: expect.stringContaining('spec.packs') }]);
      expect((await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`)).status).toBe(409);
    });

    it('a spec.packs PUT leaves an earlier draft exactly as it was', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      const draft = structuredClone(lab.store.get(ADDON_UID)?.draft);
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, { metadata: { name: 'vmo-core' }, spec: { version: '1.4.0', packs: [] } });
      expect(lab.store.get(ADDON_UID)?.draft).toEqual(draft);
    });

    it('a PUT that is not published leaves the cluster’s profiles unchanged', async () => {
      const before = await (await lab.call('GET', clusterPath)).text();
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      expect(await (await lab.call('GET', clusterPath)).text()).toBe(before);
    });
  });

  describe('payload validation (2.1 version labels, required fields)', () => {
    it.each(['1.3', 'v1.3.0', '1.3.x', '', 'latest'])('version label %j answers 400 InvalidProfileVersion', async (version) => {
      const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody(version, currentPacks()));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'InvalidProfileVersion', message: expect.stringContaining('spec.version'), ref: expect.any(String) });
      expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
    });

    it.each(['1.3.0', '1.3.0-rc.1', '10.20.30+site.2'])('version label %j is accepted', async (version) => {
      expect((await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody(version, currentPacks()))).status).toBe(204);
    });

    it.each([
      ['spec.template', { metadata: { name: 'vmo-core' }, spec: { version: '1.3.0' } }],
      ['spec.version', { metadata: { name: 'vmo-core' }, spec: { template: { packs: [] } } }],
      ['metadata', { spec: { version: '1.3.0', template: { packs: [] } } }],
      ['spec.template.packs[1].tag', putBody('1.3.0', [{ name: 'a', tag: '1' }, { name: 'b' }])],
      ['spec.template.packs[0].values', putBody('1.3.0', [{ name: 'a', tag: '1', values: { x: 1 } }])],
    ])('a payload without a valid %s answers 400 naming the field', async (field, body) => {
      const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, body);
      expect(res.status).toBe(400);
      const err = await json(res);
      expect(err).toEqual({ code: 'BadRequest', message: expect.stringContaining(field), ref: expect.stringMatching(/^[0-9a-f]+$/) });
      expect(lab.audit.entries({ method: 'PUT' })).toMatchObject([{ status: 400, effect: 'rejected' }]);
    });

    it('rejects a body that is not JSON, a uid that contradicts the path, and duplicate packs', async () => {
      expect((await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, '{not json')).status).toBe(400);
      const wrongUid = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks(), { metadata: { uid: INFRA_UID } }));
      expect(wrongUid.status).toBe(400);
      expect((await json(wrongUid)).message).toContain(INFRA_UID);
      const dup = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'a', tag: '1' }, { name: 'a', tag: '2' }]));
      expect(dup.status).toBe(400);
    });

    it('omitted values and manifests mean none: a PUT replaces the draft as a whole', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'prometheus-operator', tag: '65.1.0' }]));
      expect(lab.store.get(ADDON_UID)?.draft?.packs[0]).toMatchObject({ values: '', manifests: [], uid: 'pack-prom-6510', layer: 'addon', registryUid: 'registry-0001' });
    });

    if (dialect === 'spec') {
      it('a pack with a new tag and no uid is a new pack version (new uid)', async () => {
        await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'virtual-machine-orchestrator', tag: '4.7.1' }]));
        const pack = lab.store.get(ADDON_UID)?.draft?.packs[0];
        expect(pack?.uid).toMatch(/^[0-9a-f]{24}$/);
        expect(pack?.uid).not.toBe('pack-vmo-463');
      });
    } else {
      it.each([
        ['without its uid', { uid: undefined }, 'PackUidRequired', "spec.template.packs[0].uid: the uid of pack virtual-machine-orchestrator 4.7.1 in registry 'Palette Registry' (registry-0001) is required"],
        ['with the uid of another version', { uid: 'pack-vmo-463' }, 'PackUidMismatch', "spec.template.packs[0].uid: pack-vmo-463 is not the uid of pack virtual-machine-orchestrator 4.7.1 in registry 'Palette Registry' (registry-0001)"],
        ['at a tag no registry holds', { tag: '4.7.9', uid: 'pack-vmo-479' }, 'PackNotFound', "spec.template.packs[0]: pack virtual-machine-orchestrator version 4.7.9 is not in registry 'Palette Registry' (registry-0001)"],
        ['in a registry that does not exist', { registryUid: 'registry-gone' }, 'PackRegistryNotFound', "names registry 'registry-gone', which does not exist"],
      ])('a spectro pack moved to a new version %s answers 400 and writes nothing', async (_name, edit, code, message) => {
        const pack = { name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', ...edit };
        const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [JSON.parse(JSON.stringify(pack)) as Json]));
        expect(res.status).toBe(400);
        expect(await json(res)).toEqual({ code, message: expect.stringContaining(message), ref: expect.any(String) });
        expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
      });

      it("a helm pack may move by name and tag (a registry Palette does not sync); a uid it names must be that version's", async () => {
        const put = (uid?: string) => lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.2.0', [{ name: 'lb-metallb-helm', tag: '0.15.2', type: 'helm', ...(uid ? { uid } : {}) }]));
        expect((await put('pack-metallb-0149')).status).toBe(400);
        expect((await put()).status).toBe(204);
        expect((await put('pack-metallb-0152')).status).toBe(204);
        expect(lab.store.get(ADDON_UID)!.draft!.packs[0]).toMatchObject({ uid: 'pack-metallb-0152', type: 'helm' });
      });

      it("a changed pack that names its version's uid is written with it; a pack that keeps its tag needs none; values are stored normalized", async () => {
        const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [
          { name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', values: 'a: 1   \r\nb:\r\n  - x\t\r\n' },
          { name: 'lb-metallb-helm', tag: '0.14.9' },
        ]));
        expect(res.status).toBe(204);
        const [vmo, lb] = lab.store.get(ADDON_UID)!.draft!.packs;
        expect(vmo).toMatchObject({ uid: 'pack-vmo-471', registryUid: 'registry-0001', values: 'a: 1\nb:\n  - x\n' });
        expect(lb).toMatchObject({ uid: 'pack-metallb-0149' });
      });
    }
  });

  describe('unknown fields', () => {
    if (dialect === 'palette') {
      it('a real Palette reads only its update entity: a PUT\'s other fields are dropped, the stored ones stay', async () => {
        await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.2.0', currentPacks(), { metadata: { description: 'sent', scope: 'tenant' }, spec: { relatedObject: { kind: 'x' } } }));
        const doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
        expect(doc.metadata).toMatchObject({ description: 'core add-ons', scope: 'project' });
        expect(doc.spec.relatedObject).toEqual({ kind: 'cluster', name: 'lab' });
      });
      return;
    }
    it('are echoed after a PUT that carries them and dropped after one that does not', async () => {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks(), { metadata: { description: 'kept', scope: 'project' }, spec: { relatedObject: { kind: 'cluster' } } }));
      let doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
      expect(doc.metadata).toMatchObject({ description: 'kept', scope: 'project' });
      expect(doc.spec.relatedObject).toEqual({ kind: 'cluster' });
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
      expect(doc.metadata.description).toBeUndefined();
      expect(doc.spec.relatedObject).toBeUndefined();
    });
  });

  describe('manifests', () => {
    if (dialect === 'palette') {
      it('GET .../packs/{pack}/manifests serves the content the profile references', async () => {
        const res = await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/packs/prometheus-operator/manifests`);
        expect(res.status).toBe(200);
        expect(await json(res)).toEqual({
          items: [
            {
              metadata: { name: 'issuer-selfsigned', uid: 'manifest-issuer-0001' },
              spec: { published: { content: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n', digest: expect.stringMatching(/^[0-9a-f]{64}$/) } },
            },
          ],
        });
        const missing = await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/packs/no-such-pack/manifests`);
        expect(missing.status).toBe(404);
        expect(await json(missing)).toMatchObject({ code: 'ResourceNotFound', message: expect.stringContaining('no-such-pack') });
      });

      it('an existing manifest keeps its uid when updated in place (by uid or by name); draft and published content both show', async () => {
        await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'issuer-selfsigned', content: 'kind: Issuer # v2\n' }] }]));
        const body = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/packs/prometheus-operator/manifests`));
        expect(body.items).toHaveLength(1);
        expect(body.items[0].metadata.uid).toBe('manifest-issuer-0001');
        expect(body.items[0].spec.draft.content).toBe('kind: Issuer # v2\n');
        expect(body.items[0].spec.published.content).toBe('apiVersion: cert-manager.io/v1\nkind: Issuer\n');
      });
    } else {
      it('manifests come inline; Palette’s manifests endpoint is not part of the spec dialect', async () => {
        expect((await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/packs/prometheus-operator/manifests`)).status).toBe(404);
        await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'v2\n' }] }]));
        const doc = await json(await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`));
        expect(doc.spec.template.packs[0].manifests).toEqual([{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'v2\n' }]);
      });
    }

    it('a new manifest without content is refused', async () => {
      const res = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', [{ name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'brand-new' }] }]));
      expect(res.status).toBe(400);
      expect((await json(res)).message).toContain('manifests[0].content');
    });
  });

  describe('section 5: header auth on every request', () => {
    const endpoints: Array<[string, string, unknown?]> = [
      dialect === 'spec' ? ['GET', '/v1/clusterprofiles'] : ['GET', '/v1/dashboard/clusterprofiles/metadata'],
      ['GET', `/v1/clusterprofiles/${ADDON_UID}`],
      ['PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks())],
      ['PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`],
      ['GET', clusterPath],
    ];
    const cases: Array<[string, Record<string, string | undefined>, number, string]> = [
      ['no ApiKey', { ApiKey: undefined }, 401, 'Unauthorized'],
      ['a wrong ApiKey', { ApiKey: `${API_KEY}x` }, 401, 'Unauthorized'],
      ['another project', { ProjectUid: 'project-other' }, 403, 'Forbidden'],
      ['no ProjectUid', { ProjectUid: undefined }, 403, 'Forbidden'],
    ];
    it.each(cases)('%s is refused on every endpoint with {code, message, ref}', async (_name, headers, status, code) => {
      for (const [method, path, body] of endpoints) {
        const res = await lab.call(method, path, body, headers);
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(await json(res)).toEqual({ code, message: expect.any(String), ref: expect.any(String) });
      }
      expect(lab.store.get(ADDON_UID)?.draft).toBeUndefined();
      expect(lab.audit.entries().map((e) => [e.method, e.status, e.effect])).toEqual([
        ['PUT', status, 'rejected'],
        ['PATCH', status, 'rejected'],
      ]);
    });

    it('lab control routes need the ApiKey (but no project)', async () => {
      expect((await lab.call('GET', '/_lab/audit', undefined, { ApiKey: undefined })).status).toBe(401);
      const res = await lab.call('GET', '/_lab/audit', undefined, { ProjectUid: undefined });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });
  });

  describe('unknown uids and routes', () => {
    it.each([
      ['GET', '/v1/clusterprofiles/nope', 'nope'],
      ['PUT', '/v1/clusterprofiles/nope', 'nope'],
      ['PATCH', '/v1/clusterprofiles/nope/publish', 'nope'],
    ])('%s %s answers 404 ResourceNotFound naming the profile', async (method, path, uid) => {
      const res = await lab.call(method, path, method === 'PUT' ? putBody('1.3.0', []) : undefined);
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ code: 'ResourceNotFound', message: expect.stringContaining(uid), ref: expect.any(String) });
    });

    it('an unknown cluster answers 404 ResourceNotFound naming it', async () => {
      const res = await lab.call('GET', clusterPath.replace(CLUSTER_UID, 'cluster-nope'));
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ code: 'ResourceNotFound', message: expect.stringContaining('cluster-nope') });
    });

    it('an unsupported method on a known path answers 405 with Allow', async () => {
      const res = await lab.call('DELETE', `/v1/clusterprofiles/${ADDON_UID}`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, PUT');
      expect(lab.audit.entries()).toMatchObject([{ method: 'DELETE', status: 405, effect: 'rejected' }]);
    });
  });

  describe('audit log', () => {
    it('records every mutating call and nothing else, served at /_lab/audit with filters', async () => {
      await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}`);
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      const all = (await json(await lab.call('GET', '/_lab/audit'))) as unknown as Json[];
      expect(all.map((e) => [e.seq, e.method, e.status, e.effect])).toEqual([
        [1, 'PUT', 204, 'applied'],
        [2, 'PATCH', 204, 'applied'],
        [3, 'PATCH', 409, 'rejected'],
      ]);
      expect(all[0]?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      const applied = (await json(await lab.call('GET', '/_lab/audit?effect=applied&method=patch'))) as unknown as Json[];
      expect(applied.map((e) => e.note)).toEqual(['publish vmo-core 1.3.0']);
    });
  });
});

describe('Palette double, lab assembly hooks', () => {
  it('serves extra control routes behind the ApiKey and stamps audit times with the given clock', async () => {
    const seen: string[] = [];
    const lab = await startLab('spec', {
      now: () => Date.UTC(2030, 0, 1),
      extraRoutes: {
        'POST /_lab/clock': (_req, body) => {
          seen.push(body);
          return { status: 200, body: { ok: true }, headers: { 'x-lab': 'clock' } };
        },
      },
    });
    try {
      expect((await lab.call('POST', '/_lab/clock', { advance: '5m' }, { ApiKey: 'wrong-key-0000' })).status).toBe(401);
      const res = await lab.call('POST', '/_lab/clock', { advance: '5m' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-lab')).toBe('clock');
      expect(await res.json()).toEqual({ ok: true });
      expect(seen).toEqual(['{"advance":"5m"}']);
      expect((await lab.call('GET', '/_lab/nothing')).status).toBe(404);
      await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      expect(lab.audit.entries()[0]?.time).toBe('2030-01-01T00:00:00.000Z');
    } finally {
      await lab.close();
    }
  });

  it('reports a world that fails to react to a publish as a 500 after publishing', async () => {
    const lab = await startLab('spec', {
      hooks: {
        onPublish: () => {
          throw new Error('world exploded');
        },
        clusterProfiles: () => [],
      },
    });
    try {
      await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putBody('1.3.0', currentPacks()));
      const res = await lab.call('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      expect(res.status).toBe(500);
      expect((await json(res)).message).toContain('world exploded');
      expect(lab.store.get(ADDON_UID)?.published?.version).toBe('1.3.0');
      expect(lab.audit.entries({ method: 'PATCH' })).toMatchObject([{ status: 500, effect: 'applied' }]);
    } finally {
      await lab.close();
    }
  });
});
