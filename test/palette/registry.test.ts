import { describe, expect, it } from 'vitest';
import { EnvironmentError, exitCodeOf, InputError } from '../../src/errors.js';
import { PackRegistry } from '../../src/palette/registry.js';
import type { RegistryPackJson, RegistryReads } from '../../src/palette/registry-client.js';
import type { PackTagEntityJson } from '../../src/palette/registry-schemas.js';

const REG = 'reg-1';

/** A scripted registry: what it holds, and how many times each read was asked. */
function fakeReads(opts: { withValuesInTags?: boolean; failing?: () => Error } = {}) {
  const held: Array<RegistryPackJson & { registryUid: string }> = [
    { uid: 'u1', name: 'nginx', version: '1.11.3', values: 'v: 1.11.3', registryUid: REG, layer: 'addon', type: 'helm' },
    { uid: 'u2', name: 'nginx', version: '1.12.1', values: 'v: 1.12.1', registryUid: REG, layer: 'addon', type: 'helm' },
    // The same pack and tag in another registry: never the deployed pack's.
    { uid: 'x2', name: 'nginx', version: '1.12.1', values: 'v: other registry', registryUid: 'reg-2', layer: 'addon', type: 'helm' },
  ];
  const calls = { findPacks: 0, packTags: 0, registries: 0 };
  const reads = {
    async findPacks(name: string, tag: string) {
      calls.findPacks++;
      if (opts.failing) throw opts.failing();
      return held.filter((p) => p.name === name && p.version === tag);
    },
    async packTags(name: string, registryUid: string): Promise<PackTagEntityJson | undefined> {
      calls.packTags++;
      if (opts.failing) throw opts.failing();
      const mine = held.filter((p) => p.name === name && p.registryUid === registryUid);
      if (mine.length === 0) return undefined;
      return {
        name,
        tags: mine.map((p) => ({ tag: p.version, packUid: p.uid })),
        ...(opts.withValuesInTags ? { packValues: mine.map((p) => ({ packUid: p.uid, values: p.values })) } : {}),
      };
    },
    async registries() {
      calls.registries++;
      return [{ uid: REG, name: 'Palette Registry' }];
    },
  };
  return { reads: reads as unknown as RegistryReads, calls };
}

describe('PackRegistry', () => {
  it('reads each (pack, tag) once however many ask, concurrently or later, and only from the pack’s registry', async () => {
    const { reads, calls } = fakeReads();
    const registry = new PackRegistry(reads);
    const asked = await Promise.all([registry.values('nginx', '1.12.1', REG), registry.values('nginx', '1.12.1', REG), registry.values('nginx', '1.11.3', REG)]);
    await registry.values('nginx', '1.12.1', REG);
    expect(asked.map((p) => p.values)).toEqual(['v: 1.12.1', 'v: 1.12.1', 'v: 1.11.3']);
    expect(asked[0]).toMatchObject({ name: 'nginx', tag: '1.12.1', registryUid: REG, uid: 'u2', layer: 'addon', type: 'helm' });
    expect(calls.findPacks).toBe(2);
    expect(registry.reads).toMatchObject({ values: 2 });
  });

  it('takes the values the tag list carries, so those tags need no read of their own', async () => {
    const { reads, calls } = fakeReads({ withValuesInTags: true });
    const registry = new PackRegistry(reads);
    expect(await registry.tags('nginx', REG)).toEqual(['1.11.3', '1.12.1']);
    expect((await registry.values('nginx', '1.11.3', REG)).values).toBe('v: 1.11.3');
    expect(calls).toMatchObject({ packTags: 1, findPacks: 0 });
  });

  it('a tag the registry lacks is bad input (exit 2) naming the pack, the tag and the registry, with the tags it has', async () => {
    const { reads } = fakeReads();
    const registry = new PackRegistry(reads);
    await registry.tags('nginx', REG);
    const err = await registry.values('nginx', '1.13.0', REG).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(exitCodeOf(err)).toBe(2);
    expect((err as Error).message).toBe('The pack registry "Palette Registry" (reg-1) has no nginx 1.13.0. It holds nginx 1.11.3, 1.12.1.');
    expect((err as InputError).hint).toMatch(/`references:` .* or `valuesDir:`/);
  });

  it('a pack the registry does not have at all is bad input too', async () => {
    const { reads } = fakeReads();
    const err = await new PackRegistry(reads).tags('no-such-pack', REG).catch((e: unknown) => e);
    expect(exitCodeOf(err)).toBe(2);
    expect((err as Error).message).toBe('The pack registry "Palette Registry" (reg-1) has no pack no-such-pack.');
  });

  it('an unreachable registry stays an environment error (exit 4) that says which read failed; a later ask reads again', async () => {
    let failing = true;
    const { reads, calls } = fakeReads({ failing: () => new EnvironmentError('palette.unreachable', 'Cannot reach the profile API at http://x for GET /v1/packs: connection refused (5 attempts).', { hint: 'Check palette.baseUrl.' }) });
    const registry = new PackRegistry({
      ...reads,
      findPacks: async (n: string, t: string) => {
        if (failing) return (reads as unknown as { findPacks: (n: string, t: string) => Promise<RegistryPackJson[]> }).findPacks(n, t);
        return [{ uid: 'u2', name: n, version: t, values: 'v', registryUid: REG, layer: undefined, type: undefined }];
      },
      packTags: reads.packTags.bind(reads),
      registries: reads.registries.bind(reads),
    } as unknown as RegistryReads);
    const err = await registry.values('nginx', '1.12.1', REG).catch((e: unknown) => e);
    expect(exitCodeOf(err)).toBe(4);
    expect((err as Error).message).toBe('Cannot read nginx 1.12.1 from the pack registry reg-1: Cannot reach the profile API at http://x for GET /v1/packs: connection refused (5 attempts).');
    expect((err as EnvironmentError).hint).toMatch(/^Check palette.baseUrl\. A site that cannot reach a registry/);
    failing = false;
    expect((await registry.values('nginx', '1.12.1', REG)).values).toBe('v');
    expect(calls.findPacks).toBe(1);
  });

  it('names a registry by its uid alone when the registries cannot be listed', async () => {
    const { reads } = fakeReads();
    const registry = new PackRegistry({ ...reads, registries: async () => Promise.reject(new Error('403')), findPacks: reads.findPacks.bind(reads) } as unknown as RegistryReads);
    expect(await registry.label(REG)).toBe('registry reg-1');
  });
});
