/**
 * Where the versions to step through and each version's new defaults come from (spec 9.1.5, the
 * "new reference defaults"): the params' reference profiles per orchestration pack version, and a
 * values folder of `<pack>/<tag>.yaml` files (read by steps/plan/sources.ts).
 */
import type { Params, ReferenceSet } from '../../engine/params.js';
import { parseVersion, sameVersion } from '../versions/version.js';

/** Reads of the values folder, injectable for tests. */
export interface ValuesFolder {
  /** The folder itself. */
  dir: string;
  /** Tags that have a file for `pack` (file names without `.yaml`). */
  tags(pack: string): string[];
  /** The file's text, or undefined when there is none. */
  read(pack: string, tag: string): string | undefined;
  /** Path of the file for `pack` at `tag`, for messages. */
  path(pack: string, tag: string): string;
}

/** The reference set for an orchestration pack version (`v4.5.4` matches `4.5.4`). */
export function referenceFor(site: Params, version: string): ReferenceSet | undefined {
  return site.references.find((r) => sameVersion(r.version, version));
}

/** Where the ladder's versions came from, in words for the plan (`registry "Palette Registry" (uid)`). */
export interface AvailableVersions {
  versions: string[];
  explicit: boolean;
  source: string;
}

/**
 * The versions that can be stepped through: the operator's explicit `hops`, else every version a
 * reference source knows (reference sets, and the orchestration pack's files in the values folder).
 * Undefined when none says: the pack registry's tags give them then.
 */
export function availableVersions(site: Params, folder: ValuesFolder | undefined): AvailableVersions | undefined {
  if (site.hops && site.hops.length > 0) {
    // Listing the target as the last hop is a natural way to write the list: it is the target, not a repeat.
    const last = site.hops.at(-1)!;
    return { versions: sameVersion(last, site.target) ? site.hops.slice(0, -1) : site.hops, explicit: true, source: 'the hops in the params file' };
  }
  const fromReferences = site.references.map((r) => r.version);
  const fromFolder = folder?.tags(site.packs.orchestration) ?? [];
  const versions = [...new Set([...fromReferences, ...fromFolder])].filter((v) => parseVersion(v) !== undefined);
  if (versions.length === 0) return undefined;
  const source = [fromReferences.length ? 'the reference profiles in the params file' : '', fromFolder.length ? `the values folder ${folder!.dir}` : ''].filter(Boolean).join(' and ');
  return { versions, explicit: false, source };
}

/** The registry's tags of the orchestration pack that read as versions, and the target among them (`v4.5.4` is `4.5.4`). */
export function registryLadder(tags: readonly string[], target: string): { versions: string[]; found: string | undefined } {
  const versions = tags.filter((t) => parseVersion(t) !== undefined);
  const found = versions.find((t) => t === target) ?? versions.find((t) => sameVersion(t, target));
  return { versions, found };
}
