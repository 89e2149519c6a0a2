/**
 * The client's flavor (decided once: params, first profile read, or the journal) and what it
 * changes: where "what the cluster runs" comes from, and a PUT that would rename a version refused
 * before it is sent. Plus a real Palette's cluster reads, against the double and a stub.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { chooseFlavor } from '../../src/palette/flavor.js';
import { buildDraftBody } from '../../src/palette/draft-body.js';
import { putProfileRequest } from '../../src/palette/mutations.js';
import { ADDON_UID, CLUSTER_UID, startLab, type Lab } from '../lab/palette/support.js';
import { clientFor, jsonAnswer, labClient, startStub } from './support.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

describe('chooseFlavor', () => {
  it.each([
    ['spec', 'clone', undefined, { flavor: 'spec', source: 'params' }],
    ['palette', 'in-place', undefined, { flavor: 'palette', versioning: 'in-place', source: 'params' }],
    ['auto', 'clone', 'spec', { flavor: 'spec', source: 'detected' }],
    ['auto', 'clone', 'palette', { flavor: 'palette', versioning: 'clone', source: 'detected' }],
    ['auto', 'in-place', 'palette', { flavor: 'palette', versioning: 'in-place', source: 'detected' }],
  ] as const)('%s / %s with a %s read', (setting, versioning, dialect, want) => {
    expect(chooseFlavor(setting, versioning, dialect)).toMatchObject(want);
  });

  it('cannot decide `auto` without a read', () => {
    expect(chooseFlavor('auto', 'clone', undefined)).toBeUndefined();
  });
});

describe('the client’s flavor', () => {
  it.each(['spec', 'palette'] as const)('auto-detects the %s dialect with one probe read, shared by concurrent callers', async (dialect) => {
    lab = await startLab(dialect);
    const { client } = labClient(lab, dialect);
    const [a, b] = await Promise.all([client.flavor(), client.flavor()]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ flavor: dialect, source: 'detected' });
    expect(a.evidence).toMatch(dialect === 'palette' ? /spec\.draft\/spec\.published/ : /spec\.template/);
    expect(lab.audit.entries()).toEqual([]);
  });

  it('keeps an adopted (journaled) choice over what the API looks like', async () => {
    lab = await startLab('palette');
    const { client } = labClient(lab, 'palette');
    client.adoptFlavor({ flavor: 'spec', source: 'detected', evidence: 'recorded' });
    expect((await client.flavor()).flavor).toBe('spec');
    expect((await client.getClusterProfiles(CLUSTER_UID)).map((p) => p.version)).toEqual(['1.2.0', '2.0.0']);
  });

  it('palette flavor: what the cluster runs comes from the cluster object, with semver labels', async () => {
    lab = await startLab('palette');
    const t = labClient(lab, 'palette');
    const deployed = await t.client.getClusterProfiles(CLUSTER_UID);
    expect(deployed.map((d) => `${d.name} ${d.version} ${d.uid}`)).toEqual(['vmo-core 1.2.0 profile-addon-0001', 'vmo-infra 2.0.0 profile-infra-0001']);
    expect(deployed[0]?.revision).toBeUndefined();
    expect(deployed[0]?.packs[1]).toMatchObject({ name: 'virtual-machine-orchestrator', tag: '4.6.3' });
  });

  it('palette flavor: a PUT that changes the label of a version is refused before sending (exit 2); its own label goes through', async () => {
    lab = await startLab('palette');
    const { client } = labClient(lab, 'palette');
    const before = await client.getProfile(ADDON_UID);
    const renaming = buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471' }] });
    const err = await client.execute(putProfileRequest(ADDON_UID, renaming, 'draft')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).exitCode).toBe(2);
    expect((err as InputError).message).toMatch(/changes spec\.version of vmo-core 1\.2\.0 to 1\.3\.0, which on Palette renames that version in place/);
    expect(lab.audit.entries()).toEqual([]);
    const own = buildDraftBody(before, { version: '1.2.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471' }] });
    await client.execute(putProfileRequest(ADDON_UID, own, 'draft'));
    expect(lab.audit.applied().map((e) => e.note)).toEqual(['draft vmo-core 1.2.0']);
    expect(await client.isPublished(ADDON_UID, '1.2.0')).toBe(false);
  });

  it('a clone makes a new version object; it is found by name and label (spec.versions, then the dashboard list)', async () => {
    lab = await startLab('palette');
    const { client } = labClient(lab, 'palette');
    expect(await client.findProfileVersion('vmo-core', '1.3.0')).toBeUndefined();
    const res = await lab.call('POST', `/v1/clusterprofiles/${ADDON_UID}/clone`, { metadata: { name: 'vmo-core', version: '1.3.0', target: { scope: 'project', projectUid: 'p' } } });
    expect(res.status).toBe(201);
    const { uid } = (await res.json()) as { uid: string };
    const near = await client.getProfile(ADDON_UID, { manifests: false });
    expect(near.versionRefs.find((v) => v.version === '1.3.0')).toEqual({ version: '1.3.0', uid });
    expect(await client.findProfileVersion('vmo-core', '1.3.0', { near })).toEqual({ uid, name: 'vmo-core', version: '1.3.0' });
    expect(await client.findProfileVersion('vmo-core', '1.3.0')).toEqual({ uid, name: 'vmo-core', version: '1.3.0' });
    const again = await lab.call('POST', `/v1/clusterprofiles/${ADDON_UID}/clone`, { metadata: { name: 'vmo-core', version: '1.3.0', target: { scope: 'project' } } });
    expect(again.status).toBe(409);
    const clone = await client.getProfile(uid);
    expect(clone).toMatchObject({ uid, name: 'vmo-core', version: '1.3.0', publishedVersion: '1.3.0' });
    // The manifests came along, under new uids, with their content.
    expect(clone.packs[2]?.manifests[0]).toMatchObject({ name: 'issuer-selfsigned', content: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n' });
    expect(clone.packs[2]?.manifests[0]?.uid).not.toBe('manifest-issuer-0001');
    // The list it fell back on is one a real Palette has (the dashboard search), never GET /v1/clusterprofiles.
    expect(lab.audit.entries().filter((e) => e.method !== 'POST')).toEqual([]);
  });
});

describe('a real Palette’s cluster reads', () => {
  const clusterJson = {
    metadata: { uid: 'c1', name: 'east' },
    spec: {
      clusterProfileTemplates: [
        { uid: 'p-new', name: 'vmo-infra', profileVersion: '1.5.0', version: 3, type: 'infra', packs: [{ name: 'kubernetes', tag: '1.32.3', values: 'a: 1\n' }] },
      ],
    },
    status: {
      state: 'Running',
      conditions: [{ type: 'ControlPlaneReady', status: 'True' }, { type: 'WorkerNodesReady', status: 'False', reason: 'NodesNotReady', message: 'Not Ready: w-1' }],
      packs: [
        { name: 'kubernetes', version: '1.32.3', profileUid: 'p-new', condition: { type: 'Progressing', status: 'True', reason: 'Deploying' } },
        { name: 'cni', version: '1.17.1', profileUid: 'p-new', condition: { type: 'Error', status: 'True', message: 'boom' } },
        { name: 'os', version: '22.04', profileUid: 'p-new', condition: { type: 'Ready', status: 'True' } },
      ],
      repave: { state: 'Pending' },
      spcApply: { canBeApplied: false, actionType: 'DownloadAndInstall' },
    },
  };

  it('normalizes the cluster object: templates, per-pack conditions, conditions, repave', async () => {
    const stub = await startStub(jsonAnswer(200, clusterJson));
    try {
      const { client } = clientFor(stub.url, { flavor: 'palette' });
      const cluster = await client.getCluster('c1');
      expect(cluster).toMatchObject({ uid: 'c1', name: 'east', state: 'Running', repave: 'Pending', spcApply: { canBeApplied: false } });
      // The packs' values in the cluster object are left unread: no step compares them.
      expect(cluster.profiles).toEqual([{ uid: 'p-new', name: 'vmo-infra', version: '1.5.0', type: 'infra', packs: [{ name: 'kubernetes', tag: '1.32.3' }] }]);
      expect(cluster.packs.map((p) => p.condition?.type)).toEqual(['Progressing', 'Error', 'Ready']);
      expect(await client.getClusterProfiles('c1')).toEqual([{ name: 'vmo-infra', uid: 'p-new', version: '1.5.0', packs: [{ name: 'kubernetes', tag: '1.32.3' }] }]);
      expect(stub.requests.map((r) => r.url)).toEqual(['/v1/spectroclusters/c1', '/v1/spectroclusters/c1']);
    } finally {
      await stub.close();
    }
  });

  it('events: pages followed up to the limit, newest first', async () => {
    const ev = (i: number) => ({ metadata: { creationTimestamp: `2025-01-01T00:00:0${i}Z` }, involvedObject: { kind: 'SpectroCluster', name: 'east' }, reason: `R${i}`, message: `m${i}`, severity: 'Info' });
    const pages = [
      { items: [ev(1), ev(3)], listmeta: { continue: 'next' } },
      { items: [ev(2), ev(4)], listmeta: { continue: '' } },
    ];
    const stub = await startStub((req, res) => jsonAnswer(200, pages[req.url?.includes('continue=next') ? 1 : 0])(req, res));
    try {
      const { client } = clientFor(stub.url, { flavor: 'palette' });
      const events = await client.listClusterEvents('c1', { limit: 3 });
      expect(events.map((e) => e.reason)).toEqual(['R4', 'R3', 'R2']);
      expect(events[0]).toEqual({ at: '2025-01-01T00:00:04Z', reason: 'R4', message: 'm4', severity: 'Info', object: 'SpectroCluster/east' });
      expect(stub.requests.map((r) => r.url)).toEqual(['/v1/events/components/spectrocluster/c1?limit=3', '/v1/events/components/spectrocluster/c1?limit=3&continue=next']);
    } finally {
      await stub.close();
    }
  });

  it('pending notifications and the repave status', async () => {
    const stub = await startStub((req, res) => {
      if (req.url?.startsWith('/v1/notifications/')) {
        return jsonAnswer(200, { items: [{ metadata: { uid: 'n1' }, action: { actionType: 'NotifyActionClusterProfileUpdate', actionMessage: 'vmo-infra has updates', isDone: false } }, { metadata: { uid: 'n0' }, action: { isDone: true } }] })(req, res);
      }
      return jsonAnswer(200, { spec: { reasons: [{ code: 'PackChanged', message: 'nodes are rebuilt', pack: { current: { name: 'kubernetes', tag: '1.32.2' }, target: { name: 'kubernetes', tag: '1.32.3' } } }] }, status: { state: 'Pending' } })(req, res);
    });
    try {
      const { client } = clientFor(stub.url, { flavor: 'palette' });
      expect(await client.listPendingNotifications('c1')).toEqual([{ uid: 'n1', actionType: 'NotifyActionClusterProfileUpdate', message: 'vmo-infra has updates', isDone: false, ack: false }]);
      expect(await client.getRepaveStatus('c1')).toEqual({ state: 'Pending', reasons: [{ code: 'PackChanged', message: 'nodes are rebuilt', pack: 'kubernetes 1.32.2 → 1.32.3' }] });
      expect(stub.requests.map((r) => r.url)).toEqual(['/v1/notifications/spectrocluster/c1?isDone=false', '/v1/spectroclusters/c1/repave/status']);
    } finally {
      await stub.close();
    }
  });

  it('a cluster object without a uid is explained, naming the field and the call', async () => {
    const stub = await startStub(jsonAnswer(200, { metadata: { name: 'x' } }));
    try {
      const err = await clientFor(stub.url, { flavor: 'palette' }).client.getCluster('c1').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'palette.bad-response', exitCode: 4 });
      expect((err as Error).message).toBe('GET /v1/spectroclusters/c1: metadata.uid: expected string, received undefined');
    } finally {
      await stub.close();
    }
  });
});
