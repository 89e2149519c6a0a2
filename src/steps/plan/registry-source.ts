/**
 * The plan's reads of the pack registry, when no reference profile or values folder says: the
 * orchestration pack's tags (the ladder), the tags of the packs that move with it (`moveWith`),
 * and the orchestration pack's defaults per hop (the KubeVirt and CDI versions a hop deploys).
 * Which registry: the one each deployed pack names (`registryUid`), else the params' fallback.
 */
import { InputError } from '../../errors.js';
import type { Params } from '../../engine/params.js';
import type { PackDoc, PaletteApi } from '../../palette/api.js';
import { missingTagError, registryApi, type PackRegistryApi } from '../../palette/registry.js';
import { registryLadder } from '../../domain/ladder/reference-sources.js';

export interface RegistryView {
  api: PackRegistryApi;
  /** The registry each pack of the profiles comes from. */
  registryOf(pack: string): string;
}

export function registryView(site: Params, palette: PaletteApi, packs: ReadonlyArray<Pick<PackDoc, 'name' | 'registryUid'>>): RegistryView | undefined {
  const api = registryApi(palette);
  if (!api) return undefined;
  const named = new Map(packs.flatMap((p) => (p.registryUid ? [[p.name, p.registryUid] as const] : [])));
  return {
    api,
    registryOf(pack) {
      const uid = named.get(pack) ?? site.palette.registryUid;
      if (!uid) {
        throw new InputError('registry.unknown', `The profile's ${pack} entry names no pack registry (registryUid), so its defaults cannot be read from one.`, {
          hint: 'Set palette.registryUid in the params file to the registry the packs come from, or give the defaults with references: or valuesDir:.',
        });
      }
      return uid;
    },
  };
}

/** The orchestration pack's tags in its registry, with the target checked (the ladder's source). */
export async function registryVersions(reg: RegistryView, pack: string, target: string, signal: AbortSignal): Promise<{ versions: string[]; label: string; target: string }> {
  const uid = reg.registryOf(pack);
  const [tags, label] = await Promise.all([reg.api.tags(pack, uid, signal), reg.api.label(uid, signal)]);
  const { versions, found } = registryLadder(tags, target);
  if (!found) throw missingTagError(pack, target, label, versions, 'the target');
  return { versions, label, target: found };
}

/**
 * The registry tags of every `moveWith` pack the profiles hold, with the tags the params name
 * checked: a tag the registry does not hold is bad input (exit 2) naming pack, tag and registry.
 */
export async function moveWithTags(site: Params, reg: RegistryView, held: ReadonlySet<string>, signal: AbortSignal): Promise<Map<string, string[]>> {
  const entries = Object.entries(site.moveWith);
  for (const [pack] of entries) {
    if (!held.has(pack)) {
      throw new InputError('plan.move-with-unknown', `moveWith names ${pack}, which neither profile holds.`, { hint: `Fix moveWith in the params file: name packs of ${site.profiles.addon.name ?? 'the add-on profile'} or ${site.profiles.infra.name ?? 'the infrastructure profile'}.` });
    }
  }
  const lists = await Promise.all(
    entries.map(async ([pack, how]) => {
      const uid = reg.registryOf(pack);
      const tags = await reg.api.tags(pack, uid, signal);
      if (how !== 'latest-patch') {
        for (const [hop, tag] of Object.entries(how)) {
          if (!tags.includes(tag)) throw missingTagError(pack, tag, await reg.api.label(uid, signal), tags, `moveWith for ${hop}`);
        }
      }
      return [pack, tags] as const;
    }),
  );
  return new Map(lists);
}
