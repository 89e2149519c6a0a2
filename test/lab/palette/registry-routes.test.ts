/** The double's pack registry in both dialects, read with the tool's own client (shapes of palette-sdk-go's API spec). */
import { afterEach, describe, expect, it } from 'vitest';
import type { LabRegistry } from '../../../src/lab/palette/registry-routes.js';
import { clientFor } from '../../palette/support.js';
import { API_KEY, PROJECT_UID, startLab, type Lab } from './support.js';

const registries: LabRegistry[] = [
  {
    uid: 'reg-public',
    name: 'Palette Registry',
    packs: [
      ...Array.from({ length: 60 }, (_, i) => ({ name: 'nginx', tag: `1.${i}.0`, uid: `nginx-${i}`, layer: 'addon', type: 'helm', values: `tag: 1.${i}.0\n` })),
      { name: 'kubernetes', tag: '1.32.2', uid: 'k8s-1322', layer: 'k8s', type: 'spectro', values: 'pack: {}\n' },
    ],
  },
  { uid: 'reg-private', name: 'Site Registry', packs: [{ name: 'nginx', tag: '1.12.0', uid: 'nginx-private', layer: 'addon', type: 'helm', values: 'tag: private\n' }] },
];

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

const get = (path: string) => fetch(`${lab!.url}${path}`, { headers: { ApiKey: API_KEY, ProjectUid: PROJECT_UID } });

describe.each(['spec', 'palette'] as const)('the pack registry, %s dialect', (dialect) => {
  it('the filters query pages at 50 and matches every registry; the per-registry read lists tags and values; metadata names the registries', async () => {
    lab = await startLab(dialect, { registries });
    const first = (await (await get('/v1/packs?filters=spec.name%3Dnginx')).json()) as { items: unknown[]; listmeta: { continue: string; count: number } };
    expect(first.items).toHaveLength(50);
    expect(first.listmeta).toMatchObject({ count: 61, continue: '50' });
    const one = (await (await get('/v1/packs?filters=spec.name%3DnginxANDspec.version%3D1.12.0')).json()) as { items: Array<{ metadata: { uid: string }; spec: Record<string, unknown> }> };
    expect(one.items.map((i) => [i.metadata.uid, i.spec.registryUid, i.spec.values])).toEqual([
      ['nginx-12', 'reg-public', 'tag: 1.12.0\n'],
      ['nginx-private', 'reg-private', 'tag: private\n'],
    ]);
    expect(one.items[0]!.spec).toMatchObject({ name: 'nginx', version: '1.12.0', layer: 'addon', type: 'helm' });

    const tags = (await (await get('/v1/packs/kubernetes/registries/reg-public?cloudType=all')).json()) as Record<string, unknown>;
    expect(tags).toEqual({
      name: 'kubernetes',
      displayName: 'kubernetes',
      layer: 'k8s',
      registryUid: 'reg-public',
      cloudTypes: ['all'],
      tags: [{ tag: '1.32.2', version: '1.32.2', packUid: 'k8s-1322', parentTags: ['1.x', '1.32.x'] }],
      packValues: [{ packUid: 'k8s-1322', values: 'pack: {}\n', readme: '', schema: [], presets: [] }],
    });
    expect((await get('/v1/packs/kubernetes/registries/reg-private')).status).toBe(404);
    expect(await (await get('/v1/packs?filters=spec.cloudType%3Daws')).json()).toMatchObject({ code: 'InvalidFilter' });
    expect(await (await get('/v1/registries/metadata')).json()).toEqual({
      items: [
        { uid: 'reg-public', name: 'Palette Registry', kind: 'pack', scope: 'system', isDefault: true, isPrivate: false },
        { uid: 'reg-private', name: 'Site Registry', kind: 'pack', scope: 'system', isDefault: false, isPrivate: false },
      ],
    });
  });

  it("the client reads the deployed pack's registry only, and takes values from the tag list when it carries them", async () => {
    lab = await startLab(dialect, { registries });
    const { client } = clientFor(lab.url);
    expect(await client.registry.tags('nginx', 'reg-public')).toHaveLength(60);
    // Values came with the tag list: the filters query is not needed for them.
    expect((await client.registry.values('nginx', '1.12.0', 'reg-public')).values).toBe('tag: 1.12.0\n');
    expect((await client.registry.values('nginx', '1.12.0', 'reg-private')).values).toBe('tag: private\n');
    expect(client.registry.reads).toEqual({ tags: 1, values: 1, metadata: 0 });
    expect(await client.registry.label('reg-private')).toBe('registry "Site Registry" (reg-private)');
    // Both reads need the key and the project, like every other call.
    expect((await fetch(`${lab.url}/v1/registries/metadata`)).status).toBe(401);
  });
});
