/**
 * What the plan reads from the pack registry before the (pure) hop planning, and only what the
 * hops without a reference profile need: the `moveWith` packs' tags and the orchestration pack's
 * defaults per hop (for the KubeVirt and CDI versions it deploys). Reads run together.
 */
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { ProfileDoc } from '../../palette/api.js';
import type { Hop } from '../../domain/ladder/ladder.js';
import type { RegistryFacts } from '../../domain/ladder/hops.js';
import { moveWithTags, type RegistryView } from './registry-source.js';
import { referenceFor, type ValuesFolder } from '../../domain/ladder/reference-sources.js';

export interface FactsInput {
  site: Params;
  registry: RegistryView;
  ladder: Hop[];
  references: ReadonlyMap<string, ProfileDoc>;
  folder: ValuesFolder | undefined;
  /** Every pack the two profiles hold. */
  held: ReadonlySet<string>;
  /** The profile that holds the orchestration pack. */
  vmoRole: ProfileRole;
  signal: AbortSignal;
  progress?: ((headline: string) => void) | undefined;
}

export async function registryFacts(input: FactsInput): Promise<RegistryFacts | undefined> {
  const { site, registry, ladder, folder, signal } = input;
  const vmo = site.packs.orchestration;
  const unreferenced = ladder.filter((h) => profileRoles.some((r) => referenceFor(site, h.to)?.[r] === undefined));
  if (unreferenced.length === 0) return undefined;
  input.progress?.('Reading the pack registry…');
  const vmoHops = unreferenced.filter((h) => referenceFor(site, h.to)?.[input.vmoRole] === undefined && folder?.read(vmo, h.to) === undefined);
  const registryUid = registry.registryOf(vmo);
  const [tags, values, label] = await Promise.all([
    Object.keys(site.moveWith).length ? moveWithTags(site, registry, input.held, signal) : Promise.resolve(new Map<string, string[]>()),
    Promise.all(vmoHops.map(async (h) => [h.to, (await registry.api.values(vmo, h.to, registryUid, signal)).values] as const)),
    registry.api.label(registryUid, signal),
  ]);
  return { registryUid, label, vmoValues: new Map(values), moveWithTags: tags };
}

/** The plan says what happens to the packs no reference profile moves. */
export function moveWithNote(site: Params): string {
  const named = Object.entries(site.moveWith).map(([pack, how]) => `${pack} (${how === 'latest-patch' ? 'latest patch' : 'a tag per hop'})`);
  return named.length
    ? `Without a reference profile, a hop moves ${site.packs.orchestration} and the packs moveWith names: ${named.join(', ')}; every other pack keeps its tag.`
    : `Without a reference profile, a hop moves only ${site.packs.orchestration}; every other pack keeps its tag (moveWith in the params moves others with it).`;
}
