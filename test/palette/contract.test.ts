/**
 * The contract test: every request the product sends to the profile API, held against the API's
 * published description (test/support/palette-contract.ts says how).
 *
 * - The palette flavor against palette-sdk-go's spec ("Palette APIs - 4.8"; 4.4-4.7 agree on every
 *   operation and body used, see the fixture's `versionsCompared`): the real CLI, as an operator runs
 *   it, through a recording proxy in front of the lab playing a real Palette - plan, diff, rehearse,
 *   an upgrade whose hop rebuilds nodes (repave), stopped by a clone whose answer was lost and
 *   resumed, verify - then the scenario whose cluster object leaves profileVersion out, and the
 *   reads no run of these reaches, through the client. Every (method, path) must be a published
 *   operation, every query parameter one it declares, every body valid against its definition; and
 *   every operation of the fixture must have been exercised (the list is what the product uses).
 * - The spec flavor against the seed's spec (its five endpoints), with the registry reads, which the
 *   seed does not describe, against palette-sdk-go's: held on the end-to-end upgrade of the spec's
 *   service (test/e2e/upgrade.test.ts, healthy behind a gateway path), checked with these checkers.
 * - The profile-variable path (declared, then drafted, its value sent with the apply) on the
 *   rook-ceph-no-placement upgrade of test/e2e/no-placement.test.ts, checked there the same way.
 * - A test double that sends a wrong path or a wrong field fails the check.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registryPackUid } from '../../src/lab/data/pack-catalog.js';
import { startLab, type LabHandle, type ScenarioName } from '../../src/lab/index.js';
import { PaletteClient } from '../../src/palette/client.js';
import { putVariablesRequest } from '../../src/palette/variables.js';
import { declaration } from '../../src/values/profile-variables.js';
import { Redactor } from '../../src/session/redact.js';
import { approveAll, cli, type CliRun } from '../e2e/support.js';
import { ADDON_UID, API_KEY, PROJECT_UID, startLab as startDouble, type Lab } from '../lab/palette/support.js';
import { contractCheckers, toJsonSchema, type SentRequest } from '../support/palette-contract.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';

type Json = Record<string, any>;

const { palette, paletteChecker, specChecker } = contractCheckers();

interface Site {
  lab: LabHandle;
  proxy: RecordingProxy;
  /** The lab's params file, pointed at the proxy. */
  params: string;
  state: string;
  run(args: string[]): Promise<CliRun>;
}

const sites: Site[] = [];

/** A lab of `scenario` and a recording proxy in front of its profile API; the params file goes through the proxy. */
async function site(scenario: ScenarioName, flavor: 'spec' | 'palette', paramsEdit: (text: string) => string = (t) => t): Promise<Site> {
  // 300x, as the end-to-end tests: the runbook's waits are in lab time, and a busy machine must not run them out.
  const lab = await startLab({ scenario, stateDir: mkdtempSync(join(tmpdir(), 'up-contract-lab-')), speed: 300, seed: 24, flavor });
  const proxy = await startRecordingProxy(lab.paletteUrl);
  const state = mkdtempSync(join(tmpdir(), 'up-contract-state-'));
  const params = join(state, 'params.yaml');
  // The lab clock is read on the profile API's origin: it goes through the proxy too (unrecorded).
  writeFileSync(params, paramsEdit(readFileSync(lab.params, 'utf8').replaceAll(lab.paletteUrl, proxy.url)));
  const s: Site = { lab, proxy, params, state, run: (args) => cli([...args, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.apiKey }, 240_000) };
  sites.push(s);
  return s;
}

afterAll(async () => {
  for (const s of sites.splice(0)) {
    await s.proxy.close();
    await s.lab.close();
  }
});

const ok = (run: CliRun, code = 0) => expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(code);
const puts = (requests: SentRequest[]) => requests.filter((r) => r.method === 'PUT').map((r) => r.body as Json);

describe('the checker', () => {
  it.each([
    ['x-nullable on a type', { type: 'string', 'x-nullable': true }, { type: ['string', 'null'] }],
    ['x-nullable on a $ref', { $ref: '#/definitions/a', 'x-nullable': true }, { anyOf: [{ $ref: '#/definitions/a' }, { type: 'null' }] }],
    ['keywords beside a $ref (Swagger 2 ignores them)', { description: 'd', $ref: '#/definitions/a' }, { $ref: '#/definitions/a' }],
    ['extensions, formats and examples', { type: 'integer', format: 'int64', 'x-omitempty': false, example: 3 }, { type: 'integer' }],
    ['an object that lists its properties is closed', { type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }],
    ['properties without a type make an object', { required: ['a'], properties: { a: { type: 'string' } } }, { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, additionalProperties: false }],
    ['a map stays a map', { type: 'object', additionalProperties: { type: 'string' } }, { type: 'object', additionalProperties: { type: 'string' } }],
  ])('converts Swagger 2: %s', (_name, swagger, schema) => {
    expect(toJsonSchema(swagger)).toEqual(schema);
  });

  it('knows the spec it was taken from, and that 4.4-4.7 agree with it on every body and on the operations used (4.8 only adds query parameters the product does not send)', () => {
    expect(palette.source).toMatchObject({ repository: 'spectrocloud/palette-sdk-go', path: 'api/spec/palette-apis-spec.json', title: 'Palette APIs - 4.8', commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    for (const version of ['4.4', '4.6', '4.7']) {
      expect(palette.versionsCompared?.[version]).toMatchObject({ title: `Palette APIs - ${version}`, operationsThatDiffer: ['GET /v1/clusterprofiles/{uid}', 'PUT /v1/clusterprofiles/{uid}'] });
    }
    // None of the bodies the product sends differs; the list filter gained resourceType in 4.7, and a
    // profile variable (declared, and as a cluster's variables read answers it) inputType, options and
    // the base64 format (which the product neither sends nor reads).
    expect((palette.versionsCompared?.['4.6'] as Json).definitionsThatDiffer).toEqual([
      'v1ClusterProfileFilterSpec',
      'v1ClusterProfileResourceType',
      'v1ClusterProfileStatusSummary',
      'v1SpectroClusterVariableResponse',
      'v1Variable',
      'v1VariableFormat',
      'v1VariableInputType',
      'v1VariableOption',
    ]);
    expect(paletteChecker.operationOf('GET', '/v1/clusterprofiles')).toBeUndefined();
    expect(paletteChecker.operationOf('POST', '/v1/dashboard/clusterprofiles')?.op.operationId).toBe('v1ClusterProfilesFilterSummary');
  });

  describe('a test double that sends a wrong path or a wrong field fails it', () => {
    let lab: Lab;
    let proxy: RecordingProxy;
    beforeAll(async () => {
      lab = await startDouble('palette');
      proxy = await startRecordingProxy(lab.url);
    });
    afterAll(async () => {
      await proxy.close();
      await lab.close();
    });
    afterEach(() => {
      proxy.requests.splice(0);
    });

    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${proxy.url}${path}`, { method, headers: { ApiKey: API_KEY, ProjectUid: PROJECT_UID, ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const entity = (pack: Json) => ({ metadata: { name: 'vmo-core', uid: ADDON_UID }, spec: { version: '1.2.0', template: { type: 'add-on', packs: [pack] } } });

    it('a right double passes', async () => {
      await send('GET', '/v1/dashboard/clusterprofiles/metadata');
      await send('POST', '/v1/dashboard/clusterprofiles?limit=50', { filter: { profileName: { eq: 'vmo-core' } } });
      await send('PUT', `/v1/clusterprofiles/${ADDON_UID}`, entity({ name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', registryUid: 'registry-0001', type: 'spectro', values: '' }));
      await send('PATCH', `/v1/clusterprofiles/${ADDON_UID}/publish`);
      expect(proxy.requests).toHaveLength(4);
      expect(paletteChecker.check(proxy.requests)).toEqual([]);
    });

    it('fails on a path the spec does not have, a misspelt field, a field a real Palette would drop, a wrong type, a query parameter too large', async () => {
      await send('GET', '/v1/clusterprofiles');
      await send('PUT', `/v1/clusterprofiles/${ADDON_UID}`, entity({ name: 'virtual-machine-orchestrator', tags: '4.7.1' }));
      await send('PUT', `/v1/clusterprofiles/${ADDON_UID}`, { ...entity({ name: 'nginx', tag: '1.12.1' }), spec: { version: '1.2.0', packs: [{ name: 'nginx', tag: '1.12.1' }], template: { packs: [] } } });
      await send('PUT', `/v1/clusterprofiles/${ADDON_UID}`, entity({ name: 'nginx', tag: 1121, type: 'chart' }));
      await send('POST', '/v1/dashboard/clusterprofiles?limit=500', {});
      expect(paletteChecker.check(proxy.requests)).toEqual([
        'GET /v1/clusterprofiles: no such operation in the published spec',
        `PUT /v1/clusterprofiles/${ADDON_UID}: body /spec/template/packs/0 must NOT have additional properties (tags) (v1ClusterProfileUpdateEntity)`,
        `PUT /v1/clusterprofiles/${ADDON_UID}: body /spec must NOT have additional properties (packs) (v1ClusterProfileUpdateEntity)`,
        `PUT /v1/clusterprofiles/${ADDON_UID}: body /spec/template/packs/0/tag must be string (v1ClusterProfileUpdateEntity)`,
        `PUT /v1/clusterprofiles/${ADDON_UID}: body /spec/template/packs/0/type must be equal to one of the allowed values (v1ClusterProfileUpdateEntity)`,
        'POST /v1/dashboard/clusterprofiles?limit=500: limit=500 is above its maximum 50',
      ]);
    });

    it('the seed\'s spec: GET /v1/clusterprofiles is one of its five; spec.packs and a pack without a tag are not', () => {
      const body = { metadata: { name: 'p' }, spec: { type: 'add-on', cloudType: 'all', version: '1.3.0', template: { cloudType: 'all', type: 'add-on', packServerRefs: [], packs: [{ name: 'a', tag: '1' }] } } };
      const requests: SentRequest[] = [
        { method: 'GET', url: '/v1/clusterprofiles' },
        { method: 'PUT', url: '/v1/clusterprofiles/p1', body },
        { method: 'PUT', url: '/v1/clusterprofiles/p1', body: { ...body, spec: { ...body.spec, packs: [] } } },
        { method: 'PUT', url: '/v1/clusterprofiles/p1', body: { ...body, spec: { ...body.spec, template: { ...body.spec.template, packs: [{ name: 'a' }] } } } },
        { method: 'GET', url: '/v1/dashboard/clusterprofiles/metadata' },
      ];
      expect(specChecker.check(requests)).toEqual([
        'PUT /v1/clusterprofiles/p1: body /spec/packs boolean schema is false (ProfilePayload)',
        "PUT /v1/clusterprofiles/p1: body /spec/template/packs/0 must have required property 'tag' (ProfilePayload)",
        'GET /v1/dashboard/clusterprofiles/metadata: no such operation in the published spec',
      ]);
    });
  });
});

describe('the palette flavor keeps palette-sdk-go\'s spec', () => {
  const all: SentRequest[] = [];

  it('plan, diff, rehearse, an upgrade with a repave stopped by a lost clone answer and resumed, verify: only published operations, every body valid, no GET /v1/clusterprofiles, every changed pack with its registry uid', async () => {
    // A clone whose answer comes after the client gave up (8 s): the run stops, the resume finds the version.
    const s = await site('repave', 'palette', (t) => t.replace(/timeout: 30s/, 'timeout: 8s'));
    // Seven nodes rebuilt one at a time take about the bundled watch's 45 lab minutes, more on a busy
    // machine (the lab's clock runs on timers): this site gives the watch the time a real repave needs.
    const runbook = join(s.state, 'runbook.yaml');
    const bundled = readFileSync(new URL('../../runbooks/vmo-upgrade.yaml', import.meta.url), 'utf8');
    writeFileSync(runbook, bundled.replace('kind: reconcile, title: Wait for the cluster, with: { interval: 15s, timeout: 45m }', 'kind: reconcile, title: Wait for the cluster, with: { interval: 15s, timeout: 4h }'));
    expect(readFileSync(runbook, 'utf8')).toContain('timeout: 4h');
    ok(await s.run(['plan', '--params', s.params]));
    ok(await s.run(['diff', '--params', s.params]));
    ok(await s.run(['rehearse', '--params', s.params, '--runbook', runbook]));
    s.lab.paletteFaults.set([{ route: 'POST /v1/clusterprofiles/*/clone', faults: { latencyMs: 10_000 } }]);
    const stopped = await s.run(['start', '--params', s.params, '--runbook', runbook, ...approveAll, '--approve', 'repave']);
    ok(stopped, 4);
    expect(stopped.stderr).toMatch(/clusterprofiles\/[0-9a-f]+\/clone/);
    s.lab.paletteFaults.clear();
    const resumed = await s.run(['resume', ...approveAll, '--approve', 'repave']);
    ok(resumed);
    expect(resumed.stdout).toMatch(/node rebuild approved/);
    ok(await s.run(['verify', '--params', s.params]));

    const requests = s.proxy.requests;
    all.push(...requests);
    expect(paletteChecker.check(requests)).toEqual([]);
    expect(requests.filter((r) => r.url.split('?')[0] === '/v1/clusterprofiles')).toEqual([]);
    // The lab's audit holds every mutation and every call to a route a real Palette does not have.
    expect(s.lab.audit.entries({ api: 'palette' }).filter((e) => e.path === '/v1/clusterprofiles' || e.status === 404 || e.status === 405)).toEqual([]);
    // One clone per profile (the lost answer was settled, not sent again), its PUT and publish.
    expect(s.lab.audit.applied().filter((e) => e.api === 'palette').map((e) => `${e.method} ${e.path.replace(/[0-9a-f]{24}/g, 'UID')}`)).toEqual([
      'POST /v1/clusterprofiles/UID/clone',
      'PUT /v1/clusterprofiles/UID',
      'POST /v1/clusterprofiles/UID/clone',
      'PUT /v1/clusterprofiles/UID',
      'PATCH /v1/clusterprofiles/UID/publish',
      'PATCH /v1/clusterprofiles/UID/publish',
      'PATCH /v1/spectroclusters/UID/profiles',
      'PATCH /v1/spectroclusters/UID/repave/approve',
    ]);
    // Every pack of every draft names the registry uid of its exact version (the changed ones had to).
    const registryUid = s.lab.profiles.get(s.lab.profileUids.infra)!.published!.packs[0]!.registryUid;
    const sent = puts(requests).flatMap((b) => b.spec.template.packs as Json[]);
    expect(sent.length).toBeGreaterThan(0);
    for (const p of sent) expect({ pack: `${p.name} ${p.tag}`, uid: p.uid, registryUid: p.registryUid }).toEqual({ pack: `${p.name} ${p.tag}`, uid: registryPackUid(p.name, p.tag), registryUid });
    expect(sent.map((p) => `${p.name} ${p.tag}`)).toEqual(expect.arrayContaining(['kubernetes 1.32.3', 'virtual-machine-orchestrator 4.6.3']));
  }, 600_000);

  it('a cluster object without profileVersion: the whole upgrade ends green, the labels read from the version objects by uid', async () => {
    const s = await site('no-profile-version', 'palette');
    const clusterDoc = (await (await fetch(`${s.lab.paletteUrl}/v1/spectroclusters/${s.lab.clusterUid}`, { headers: { ApiKey: s.lab.apiKey, ProjectUid: s.lab.projectUid } })).json()) as Json;
    expect(clusterDoc.spec.clusterProfileTemplates.map((t: Json) => t.profileVersion)).toEqual([undefined, undefined]);
    const run = await s.run(['start', '--params', s.params, ...approveAll]);
    ok(run);
    expect(run.stdout).toMatch(/every pack of vmo-infra 1\.6\.0 and vmo-core-addon 1\.6\.0 Ready/);
    expect(s.lab.world.palette?.attachedProfiles().map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 1.6.0', 'vmo-core-addon 1.6.0']);
    all.push(...s.proxy.requests);
    expect(paletteChecker.check(s.proxy.requests)).toEqual([]);
    // The clone's answer names the new version: between a clone and its PUT, no list is searched.
    const urls = s.proxy.requests.map((r) => `${r.method} ${r.url}`);
    const clones = urls.flatMap((u, i) => (/^POST \/v1\/clusterprofiles\/[^/]+\/clone$/.test(u) ? [i] : []));
    expect(clones).toHaveLength(2);
    for (const i of clones) {
      const put = urls.findIndex((u, j) => j > i && u.startsWith('PUT '));
      expect(urls.slice(i + 1, put).filter((u) => u.includes('/dashboard/'))).toEqual([]);
    }
  }, 300_000);

  it('every published operation the product uses was exercised; the reads no run reached go through the client', async () => {
    const s = sites.find((x) => x.lab.scenario === 'no-profile-version')!;
    const client = new PaletteClient({ baseUrl: s.proxy.url, projectUid: s.lab.projectUid, apiKey: s.lab.apiKey, clusterCollection: 'spectroclusters', timeoutMs: 10_000, redactor: new Redactor(), flavor: 'palette' });
    const before = s.proxy.requests.length;
    // In place, an apply waits on the cluster's pending update notification; a version found in no
    // spec.versions is looked up in the dashboard search.
    expect(await client.listPendingNotifications(s.lab.clusterUid)).toEqual([]);
    expect(await client.findProfileVersion('vmo-infra', '9.9.9')).toBeUndefined();
    // A new version's profile variable is declared before its draft: the run that does it (with its
    // order and its value sent with the apply) is test/e2e/no-placement.test.ts's, whose requests are
    // checked against the same spec; here its request, as the product builds it.
    await client.execute(putVariablesRequest(s.lab.profileUids.addon, [declaration({ name: 'LOCAL_ADMIN_PASSWORD', description: 'The local admin password of VMO Manager', sensitive: true, format: 'string' })], 'declare LOCAL_ADMIN_PASSWORD'));
    const fresh = s.proxy.requests.slice(before);
    expect(paletteChecker.check(fresh)).toEqual([]);
    all.push(...fresh);
    expect(paletteChecker.unexercised(all, 'palette')).toEqual([]);
  }, 60_000);
});
