/**
 * The fleet lab with the ingress address held as a profile variable (`--fleet-variables`): the
 * shared add-on profile declares INGRESS_IP and references it; each cluster has its own value in
 * the lab Palette (palette-sdk-go spec 4.8 shapes), its world renders the reference with it, and an
 * apply that moves a cluster to a new version uid keeps only the values that apply sends.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFleetLab, type FleetLabHandle } from '../../src/lab/fleet/index.js';

type ClusterVariables = Array<{ profileUid: string; variables: Array<{ name: string; value?: string; format?: string }> }>;

describe('fleet lab: the ingress address as a profile variable, a value per cluster', () => {
  let lab: FleetLabHandle;
  let addon: string;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${lab.paletteUrl}${path}`, { method, headers: { ApiKey: lab.apiKey, ProjectUid: lab.projectUid, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const variablesOf = async (name: string) => (await (await call('GET', `/v1/spectroclusters/${lab.members.find((m) => m.name === name)!.uid}/variables`)).json()) as ClusterVariables;

  beforeAll(async () => {
    lab = await startFleetLab({ clusters: 2, stateDir: mkdtempSync(join(tmpdir(), 'up-fleet-vars-')), variables: true, seed: 28, speed: 1 });
    addon = (JSON.parse(readFileSync(lab.labJsonPath, 'utf8')) as { profileUids: { addon: string } }).profileUids.addon;
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('declares INGRESS_IP on the shared add-on profile, references it quoted, and gives each cluster its own value (also in the fleet file)', async () => {
    expect(((await (await call('GET', `/v1/clusterprofiles/${addon}/variables`)).json()) as { variables: Array<{ name: string; format: string }> }).variables).toMatchObject([{ name: 'INGRESS_IP', format: 'ipv4' }]);
    expect(lab.profiles.get(addon)!.published!.packs.find((p) => p.name === 'nginx')!.values).toContain("loadBalancerIP: '{{.spectro.var.INGRESS_IP}}'");
    expect(await variablesOf('store-001')).toMatchObject([{ profileUid: addon, variables: [{ name: 'INGRESS_IP', value: '10.10.100.70' }] }]);
    expect(await variablesOf('store-002')).toMatchObject([{ profileUid: addon, variables: [{ name: 'INGRESS_IP', value: '10.10.100.71' }] }]);
    const fleet = parse(readFileSync(lab.fleetFile, 'utf8')) as { defaults: { site: { ingressIP: string } }; clusters: Array<{ name: string; site: { ingressIP?: string } }> };
    expect(fleet.defaults.site.ingressIP).toBe('10.10.100.70');
    expect(fleet.clusters.map((c) => c.site.ingressIP)).toEqual([undefined, '10.10.100.71']);
  });

  it("each world's ingress service asks for its cluster's value", () => {
    for (const [i, m] of lab.members.entries()) {
      const svc = m.world.ctx.store.get('services', 'ingress-nginx', 'ingress-nginx-controller');
      expect((svc?.spec as { loadBalancerIP?: string }).loadBalancerIP).toBe(`10.10.100.${70 + i}`);
    }
  });

  it('PATCH /v1/spectroclusters/{uid}/variables sets a declared variable of an attached version, and refuses the others', async () => {
    const uid = lab.members[0]!.uid;
    expect((await call('PATCH', `/v1/spectroclusters/${uid}/variables`, [{ profileUid: addon, variables: [{ name: 'NOPE', value: 'x' }] }])).status).toBe(400);
    expect((await call('PATCH', `/v1/spectroclusters/${uid}/variables`, [{ profileUid: 'not-attached', variables: [{ name: 'INGRESS_IP', value: 'x' }] }])).status).toBe(400);
    expect((await call('PATCH', `/v1/spectroclusters/${uid}/variables`, [{ profileUid: addon, variables: [{ name: 'INGRESS_IP', value: '10.10.100.80' }] }])).status).toBe(204);
    expect(await variablesOf('store-001')).toMatchObject([{ variables: [{ name: 'INGRESS_IP', value: '10.10.100.80' }] }]);
    expect((await call('PATCH', `/v1/spectroclusters/${uid}/variables`, [{ profileUid: addon, variables: [{ name: 'INGRESS_IP', value: '10.10.100.70' }] }])).status).toBe(204);
  });

  it('an apply to a new version uid keeps only what it sends: without values the new version has none; with them, those', async () => {
    const clone = async (version: string) =>
      ((await (await call('POST', `/v1/clusterprofiles/${addon}/clone`, { metadata: { name: 'vmo-core-addon', version, target: { scope: 'project', projectUid: lab.projectUid } } })).json()) as { uid: string }).uid;
    const apply = (cluster: string, body: unknown) => call('PATCH', `/v1/spectroclusters/${lab.members.find((m) => m.name === cluster)!.uid}/profiles?resolveNotification=true`, { profiles: [body] });

    const bare = await clone('1.6.0');
    expect((await apply('store-001', { uid: bare, replaceWithProfile: addon })).status).toBe(204);
    const after = (await variablesOf('store-001')).find((e) => e.profileUid === bare)!;
    expect(after.variables).toEqual([expect.not.objectContaining({ value: expect.anything() })]);

    const carried = await clone('1.6.1');
    expect((await apply('store-002', { uid: carried, replaceWithProfile: addon, variables: [{ name: 'INGRESS_IP', value: '10.10.100.71' }] })).status).toBe(204);
    expect((await variablesOf('store-002')).find((e) => e.profileUid === carried)!.variables).toMatchObject([{ name: 'INGRESS_IP', value: '10.10.100.71' }]);
  });
});
