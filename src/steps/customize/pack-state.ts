/**
 * A pack's values and manifests as the customization carries them from hop to hop, and the small
 * reads it needs on them: where a version's defaults come from, the value a path holds, whether a
 * path lies under another, the counts of an entry list.
 */
import type { Params, ProfileRole } from '../../engine/params.js';
import { parseConcretePath, resolvePattern, showValue, type Manifest, type ValuesDocument } from '../../values/index.js';
import type { PackContent, PackSources } from './sources.js';
import type { CustomizeEntry, EntryLabel } from './types.js';

export interface PackState {
  values: ValuesDocument;
  manifests: Manifest[];
  from: string;
}

export function countLabels(entries: readonly CustomizeEntry[], ignored: number): Record<EntryLabel, number> {
  const counts: Record<EntryLabel, number> = { carried: 0, newDefault: 0, conflict: 0, ignored, candidate: 0, ruleFix: 0 };
  for (const e of entries) counts[e.label]++;
  return counts;
}

/** The reference set of the version a hop starts from (for the old defaults of a 3-way diff). */
export function referenceFor(site: Params, version: string, role: ProfileRole): string | undefined {
  return site.references.find((r) => r.version === version)?.[role];
}

/**
 * A pack version's defaults: the reference profile, else the values folder, else the pack registry
 * (`profileUid` is the profile whose pack names its registry). Old defaults are optional: a registry
 * without the deployed tag only turns the comparison 2-way.
 */
export async function sourceFor(sources: PackSources, profileRef: string | undefined, profileUid: string, pack: string, tag: string, optional = false): Promise<PackContent | undefined> {
  return (profileRef ? await sources.fromProfile(profileRef, pack, tag) : undefined) ?? sources.fromFolder(pack, tag) ?? (await sources.fromRegistry(profileUid, pack, tag, optional));
}

/** The value a path holds in a document (undefined when it does not exist). */
export function valueAt(values: ValuesDocument, path: string): { found: boolean; value?: unknown } {
  const [m] = resolvePattern(values, parseConcretePath(path));
  return m && m.found ? { found: true, value: m.value } : { found: false };
}

/** What follows `prefix` in `path`, when `path` is at or under `prefix` (for "moved from" notes); undefined when it is not. */
export function under(path: string, prefix: string): string | undefined {
  if (path === prefix) return '';
  if (path.startsWith(prefix) && (path[prefix.length] === '.' || path[prefix.length] === '[')) return path.slice(prefix.length);
  return undefined;
}

/** "sets `path` to value", for the additions' words. */
export const entryWords = (e: { path: string; result?: unknown }) => `sets \`${e.path}\` to ${showValue(e.result)}`;
