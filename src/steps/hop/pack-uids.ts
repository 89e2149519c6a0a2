/**
 * A real Palette wants, for every spectro pack whose tag changes, the uid of that exact pack
 * version in its registry (`v1PackManifestUpdateEntity.uid`, with `registryUid`): the terraform
 * provider refuses a spectro pack without one and resolves it from the registry before every create
 * or update; helm and OCI packs it resolves the same way when their registry lists them. It comes
 * from the registry the plan already reads (memoized for the run, so usually no request of its
 * own). A spectro pack at a tag the registry does not hold is refused before anything of the hop is
 * sent, naming pack, tag and registry; a helm or OCI pack its registry does not list goes by name
 * and tag. The spec's service takes name and tag: its changes are left as they are.
 */
import { InputError, PilotError } from '../../errors.js';
import type { PackChange, ProfileDoc } from '../../palette/types.js';
import { registryApi } from '../../palette/registry.js';
import type { HopContext } from './flavors/types.js';

/** Pack types a registry serves by uid; `spectro` (palette-sdk-go `v1PackType`'s default) must have one. */
const fromRegistry = new Set(['spectro', 'helm', 'oci']);

export async function withPackUids(ctx: HopContext, before: ProfileDoc, changes: PackChange[]): Promise<PackChange[]> {
  if (before.dialect !== 'palette') return changes;
  return Promise.all(changes.map((change) => resolveOne(ctx, before, change)));
}

async function resolveOne(ctx: HopContext, before: ProfileDoc, change: PackChange): Promise<PackChange> {
  const current = before.packs.find((p) => p.name === change.name);
  const type = current?.type ?? 'spectro';
  if ((current && current.tag === change.tag) || !fromRegistry.has(type)) return change;
  const required = type === 'spectro';
  const registryUid = change.registryUid ?? current?.registryUid ?? ctx.site?.palette.registryUid;
  const what = `${change.name} ${change.tag} (profile ${before.name})`;
  if (!registryUid && !required) return change;
  if (!registryUid) {
    throw new InputError('palette.pack-registry-unknown', `The pack ${what} names no registry, so the uid of that version cannot be read: Palette wants it for a spectro pack whose tag changes.`, {
      hint: 'Set palette.registryUid in the params file to the registry the packs come from.',
    });
  }
  const registry = registryApi(ctx.effects.palette);
  if (!registry) {
    if (!required) return change;
    throw new InputError('palette.pack-registry-none', `The uid of ${what} cannot be read: this profile API client reads no pack registry.`, { hint: 'Run against a Palette API whose pack registry can be read.' });
  }
  // A tag the registry does not hold is an InputError naming pack, tag and registry (registry.ts):
  // for a spectro pack the end of it; a helm or OCI pack goes by name and tag.
  const found = await registry.values(change.name, change.tag, registryUid, ctx.signal).catch((err: unknown) => {
    if (!required && err instanceof PilotError && err.kind === 'input') return undefined;
    throw err;
  });
  if (!found) return change;
  if (!found.uid) {
    if (!required) return change;
    throw new InputError('palette.pack-uid-unknown', `The pack ${await registry.label(registryUid, ctx.signal)} lists ${what} without its uid.`, { hint: 'Check the pack in the registry; Palette needs the uid of the exact version.' });
  }
  return { ...change, uid: found.uid, registryUid };
}
