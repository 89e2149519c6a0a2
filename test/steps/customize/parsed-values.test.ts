/**
 * The customize computation reads each values text once per process: a review round computes again
 * without parsing anything, the next hop's old defaults are the last hop's new ones, and a second
 * cluster on the same pack versions parses only its own deployed values. The output is the same.
 */
import { describe, expect, it } from 'vitest';
import { ParamsSchema } from '../../../src/engine/params.js';
import { catalogVersions } from '../../../src/lab/data/pack-catalog.js';
import type { PlanContract } from '../../../src/steps/contracts.js';
import { computeCustomizations, type ComputeInput } from '../../../src/steps/customize/compute.js';
import type { PackSources } from '../../../src/steps/customize/sources.js';
import { ValuesCache } from '../../../src/values/values-cache.js';
import { ValuesSettingsSchema } from '../../../src/values/settings-schema.js';

const nginx = (tag: string) => catalogVersions().find((p) => p.name === 'nginx' && p.tag === tag)!.values;

const site = ParamsSchema.parse({
  palette: { baseUrl: 'https://palette.example', projectUid: 'p1' },
  cluster: { uid: 'c1' },
  profiles: { addon: { uid: 'addon-1' }, infra: { uid: 'infra-1' } },
  target: '4.6.3',
  site: { ingressIP: '10.1.0.50', blockStorageClass: 'px-vm-block' },
});

const profile = (version: string) => ({ role: 'addon', uid: 'addon-1', name: 'vmo-core-addon', fromVersion: version, toVersion: `${version}-next`, packs: [] as unknown[] });
const plan = {
  flavor: 'spec',
  hops: [
    { index: 1, from: '4.4.10', to: '4.5.4', profiles: [{ ...profile('1.4.0'), packs: [{ name: 'nginx', from: '1.10.1', to: '1.11.3' }] }] },
    { index: 2, from: '4.5.4', to: '4.6.3', profiles: [{ ...profile('1.5.0'), packs: [{ name: 'nginx', from: '1.11.3', to: '1.12.1' }] }] },
  ],
} as unknown as PlanContract;

/** A cluster whose deployed nginx 1.10.1 sets its own load balancer address; defaults from the registry. */
function sources(address: string): PackSources {
  const deployed = nginx('1.10.1').replace(/loadBalancerIP: ""/, `loadBalancerIP: "${address}"`);
  expect(deployed).not.toBe(nginx('1.10.1'));
  const profileDoc = { name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'nginx', tag: '1.10.1', values: deployed, manifests: [], registryUid: 'r1' }] };
  return {
    profile: async () => profileDoc,
    fromProfile: async (_uid: string, _pack: string, tag?: string) => (tag === undefined || tag === '1.10.1' ? { values: deployed, manifests: [], from: 'the deployed profile' } : undefined),
    // Each read a new string of the same text, as each registry answer is.
    fromRegistry: async (_uid: string, _pack: string, tag: string) => ({ values: nginx(tag).split('\n').join('\n'), manifests: [], from: `nginx ${tag} in the registry` }),
    fromFolder: () => undefined,
  } as unknown as PackSources;
}

/** Hop 2's nginx draft. */
const draft = (out: Awaited<ReturnType<typeof computeCustomizations>>) => out.byHop[1]!.profiles.find((p) => p.role === 'addon')!.packs.find((p) => p.name === 'nginx')!;

const input = (address: string, parsed: ValuesCache): ComputeInput => ({ plan, site, rules: [], settings: ValuesSettingsSchema.parse({}), sources: sources(address), decisions: {}, parsed });

describe('customize: values parsed once per process', () => {
  it('parses the deployed values and each version’s defaults once, across hops, review rounds and clusters', async () => {
    const parsed = new ValuesCache();
    const first = await computeCustomizations(input('10.1.0.50', parsed));
    // The deployed values, 1.10.1 (hop 1's old defaults), 1.11.3 and 1.12.1: hop 2's old defaults are hop 1's new ones.
    expect(parsed.stats()).toMatchObject({ misses: 4, documents: 4 });
    expect(draft(first).values).toContain('loadBalancerIP: "10.1.0.50"');

    // A review round: the same computation again, nothing parsed, the same result.
    const again = await computeCustomizations(input('10.1.0.50', parsed));
    expect(parsed.stats()).toMatchObject({ misses: 4 });
    expect(again).toEqual(first);

    // Another cluster of a fleet on the same versions: only its own deployed values are new.
    const other = await computeCustomizations(input('10.2.0.7', parsed));
    expect(parsed.stats()).toMatchObject({ misses: 5, documents: 5 });
    expect(draft(other).values).toContain('loadBalancerIP: "10.2.0.7"');
    // And with a cache of its own the first cluster computes the same as with the shared one.
    expect(await computeCustomizations(input('10.1.0.50', new ValuesCache()))).toEqual(first);
  });
});
