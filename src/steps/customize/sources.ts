/**
 * Where each pack version's values come from: the profile as deployed, a reference profile in the
 * profile API (the "new reference defaults" of spec 9.1.5), a folder of `<pack>/<tag>.yaml`, or
 * (the default) the pack registry the deployed pack names. Each profile is read once however many
 * packs and hops ask for it; the registry memoizes its own reads.
 */
import { existsSync } from 'node:fs';
import { readValuesFile } from '../../io/bounded-read.js';
import { join } from 'node:path';
import type { PaletteApi, ProfileDoc } from '../../palette/api.js';
import { InputError } from '../../errors.js';
import type { Manifest } from '../../values/index.js';
import { registryApi } from '../../palette/registry.js';

export interface PackContent {
  values: string;
  manifests: Manifest[];
  /** Where it came from, for screens and the report. */
  from: string;
}

export class PackSources {
  private readonly profiles = new Map<string, Promise<ProfileDoc>>();

  constructor(
    private readonly palette: PaletteApi,
    private readonly valuesDir: string | undefined,
    private readonly signal?: AbortSignal,
    /** The params' `palette.registryUid`: the registry of packs whose profile entry names none. */
    private readonly registryFallback?: string,
  ) {}

  profile(uid: string): Promise<ProfileDoc> {
    let p = this.profiles.get(uid);
    if (!p) {
      p = this.palette.getProfile(uid, { ...(this.signal ? { signal: this.signal } : {}) });
      this.profiles.set(uid, p);
    }
    return p;
  }

  /** A pack of a profile, only if it is at `tag` (a reference for another version is not a source). */
  async fromProfile(uid: string, pack: string, tag?: string): Promise<PackContent | undefined> {
    const profile = await this.profile(uid);
    const p = profile.packs.find((x) => x.name === pack);
    if (!p || (tag !== undefined && p.tag !== tag)) return undefined;
    return {
      values: p.values,
      manifests: p.manifests.flatMap((m) => (m.content === undefined ? [] : [{ name: m.name, content: m.content, ...(m.uid ? { uid: m.uid } : {}) }])),
      from: `profile ${profile.name} ${profile.version} (${uid})`,
    };
  }

  /**
   * A pack version's defaults from the registry the pack of profile `uid` names (undefined when
   * there is no registry to ask). A registry that lacks the tag throws (exit 2), unless `optional`.
   */
  async fromRegistry(uid: string, pack: string, tag: string, optional = false): Promise<PackContent | undefined> {
    const registry = registryApi(this.palette);
    const registryUid = (await this.profile(uid)).packs.find((p) => p.name === pack)?.registryUid ?? this.registryFallback;
    if (!registry || !registryUid) return undefined;
    try {
      const found = await registry.values(pack, tag, registryUid, this.signal);
      return { values: found.values, manifests: [], from: `${pack} ${tag} in the pack ${await registry.label(registryUid, this.signal)}` };
    } catch (err) {
      if (optional && err instanceof InputError) return undefined;
      throw err;
    }
  }

  fromFolder(pack: string, tag: string): PackContent | undefined {
    if (!this.valuesDir) return undefined;
    const file = join(this.valuesDir, pack, `${tag}.yaml`);
    if (!existsSync(file)) return undefined;
    return { values: readValuesFile(file), manifests: [], from: file };
  }
}
