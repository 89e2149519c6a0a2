/**
 * The Palette double's profile variables (lab/palette/variable-routes.ts), against palette-sdk-go's
 * spec 4.8: declarations at `/v1/clusterprofiles/{uid}/variables` (PUT replaces the list), copied by
 * a clone, a PUT of values that reference an undeclared variable refused with PackVariablesUndefined,
 * sensitive values never answered in clear, and none of it in the spec's flavor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADDON_UID, CLUSTER_UID, startLab, type Lab } from './support.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

const password = { name: 'LOCAL_ADMIN_PASSWORD', displayName: 'Local admin password', description: 'd', format: 'string', required: false, isSensitive: true };

/** The add-on profile's PUT body with the orchestration pack's values referencing the variable. */
function putWithVariable(l: Lab) {
  const p = l.store.get(ADDON_UID)!;
  const packs = p.published!.packs.map((k) => ({
    name: k.name,
    tag: k.tag,
    uid: k.uid,
    values: k.name === 'virtual-machine-orchestrator' ? `${k.values}    vmo-manager:\n      features:\n        localAuth:\n          adminPassword: '{{ .spectro.var.LOCAL_ADMIN_PASSWORD }}'\n` : k.values,
  }));
  return { metadata: { name: p.name, uid: p.uid }, spec: { version: p.published!.version, template: { type: 'add-on', packs } } };
}

describe('profile variables in the palette flavor', () => {
  it('a draft referencing an undeclared variable is refused (PackVariablesUndefined); declared first, it is written', async () => {
    lab = await startLab('palette');
    const refused = await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putWithVariable(lab));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'PackVariablesUndefined', message: expect.stringContaining('LOCAL_ADMIN_PASSWORD') });
    expect(lab.store.get(ADDON_UID)!.draft).toBeUndefined();

    expect((await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}/variables`, { variables: [password] })).status).toBe(204);
    expect(await (await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/variables`)).json()).toEqual({ variables: [password] });
    expect((await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, putWithVariable(lab))).status).toBe(204);
  });

  it('PUT replaces the list, PATCH updates or adds by name, DELETE removes by name; names are unique', async () => {
    lab = await startLab('palette');
    const path = `/v1/clusterprofiles/${ADDON_UID}/variables`;
    const names = async () => ((await (await lab!.call('GET', path)).json()) as { variables: Array<{ name: string }> }).variables.map((v) => v.name);
    await lab.call('PUT', path, { variables: [password, { name: 'OTHER' }] });
    await lab.call('PUT', path, { variables: [password] });
    expect(await names()).toEqual(['LOCAL_ADMIN_PASSWORD']);
    await lab.call('PATCH', path, { variables: [{ name: 'THIRD', format: 'string' }] });
    expect(await names()).toEqual(['LOCAL_ADMIN_PASSWORD', 'THIRD']);
    await lab.call('DELETE', path, { variables: ['THIRD'] });
    expect(await names()).toEqual(['LOCAL_ADMIN_PASSWORD']);
    const twice = await lab.call('PUT', path, { variables: [password, password] });
    expect(twice.status).toBe(400);
    expect((await lab.call('GET', '/v1/clusterprofiles/nope/variables')).status).toBe(404);
  });

  it('a sensitive default is masked on GET; a clone carries the declarations', async () => {
    lab = await startLab('palette');
    await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}/variables`, { variables: [{ ...password, defaultValue: 'not-shown' }] });
    expect(JSON.stringify(await (await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/variables`)).json())).not.toContain('not-shown');
    const cloned = await lab.call('POST', `/v1/clusterprofiles/${ADDON_UID}/clone`, { metadata: { name: 'vmo-core', version: '1.3.0', target: { scope: 'project', projectUid: 'p' } } });
    const { uid } = (await cloned.json()) as { uid: string };
    expect(lab.store.get(uid)!.variables?.map((v) => v.name)).toEqual(['LOCAL_ADMIN_PASSWORD']);
  });

  it('the spec flavor has no such endpoints, and does not look at variables in values', async () => {
    lab = await startLab('spec');
    expect((await lab.call('GET', `/v1/clusterprofiles/${ADDON_UID}/variables`)).status).toBe(404);
    const body = putWithVariable(lab);
    const spec = { ...body, spec: { ...body.spec, template: { ...body.spec.template, cloudType: 'all' } } };
    expect((await lab.call('PUT', `/v1/clusterprofiles/${ADDON_UID}`, spec)).status).toBe(204);
    expect((await lab.call('GET', `/v1/spectroclusters/${CLUSTER_UID}/variables`)).status).toBe(404);
  });
});
