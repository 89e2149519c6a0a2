/**
 * A real Palette wants, for every spectro pack whose tag changes, the uid of that exact pack
 * version in its registry (`v1PackManifestUpdateEntity.uid`, with `registryUid`): the terraform
 * provider resolves it from the registry before every create or update. It comes from the registry
 * the plan already reads (memoized for the run, so usually no request of its own). A tag the
 * registry does not hold is refused before anything of the hop is sent, naming pack, tag and
 * registry. The spec's service takes name and tag: its changes are left as they are.
 */
import { InputError } from '../../errors.js';
import type { PackChange, ProfileDoc } from '../../palette/types.js';
import { registryApi } from '../plan/registry-source.js';
import type { HopContext } from './flavors/types.js';

/** Pack types a registry serves by uid (palette-sdk-go `v1PackType`'s default is `spectro`). */
const byRegistryUid = (type: string | undefined) => (type ?? 'spectro') === 'spectro';

export async function withPackUids(ctx: HopContext, before: ProfileDoc, changes: PackChange[]): Promise<PackChange[]> {
  if (before.dialect !== 'palette') return changes;
  return Promise.all(changes.map((change) => resolveOne(ctx, before, change)));
}

async function resolveOne(ctx: HopContext, before: ProfileDoc, change: PackChange): Promise<PackChange> {
  const current = before.packs.find((p) => p.name === change.name);
  if ((current && current.tag === change.tag) || !byRegistryUid(current?.type)) return change;
  const registryUid = change.registryUid ?? current?.registryUid ?? ctx.site?.palette.registryUid;
  const what = `${change.name} ${change.tag} (profile ${before.name})`;
  if (!registryUid) {
    throw new InputError('palette.pack-registry-unknown', `The pack ${what} names no registry, so the uid of that version cannot be read: Palette wants it for a spectro pack whose tag changes.`, {
      hint: 'Set palette.registryUid in the params file to the registry the packs come from.',
    });
  }
  const registry = registryApi(ctx.effects.palette);
  if (!registry) {
    throw new InputError('palette.pack-registry-none', `The uid of ${what} cannot be read: this profile API client reads no pack registry.`, { hint: 'Run against a Palette API whose pack registry can be read.' });
  }
  // A tag the registry does not hold is an InputError naming pack, tag and registry (registry.ts).
  const found = await registry.values(change.name, change.tag, registryUid, ctx.signal);
  if (!found.uid) {
    throw new InputError('palette.pack-uid-unknown', `The pack ${await registry.label(registryUid, ctx.signal)} lists ${what} without its uid.`, { hint: 'Check the pack in the registry; Palette needs the uid of the exact version.' });
  }
  return { ...change, uid: found.uid, registryUid };
}
