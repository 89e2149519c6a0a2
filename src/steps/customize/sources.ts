/**
 * Where each pack version's values come from: the profile as deployed, a reference profile in the
 * profile API (the "new reference defaults" of spec 9.1.5), or a folder of `<pack>/<tag>.yaml`.
 * Each profile is read once however many packs and hops ask for it.
 */
import { existsSync } from 'node:fs';
import { readValuesFile } from '../../io/bounded-read.js';
import { join } from 'node:path';
import type { PaletteApi, ProfileDoc } from '../../palette/api.js';
import type { Manifest } from '../../values/index.js';

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

  fromFolder(pack: string, tag: string): PackContent | undefined {
    if (!this.valuesDir) return undefined;
    const file = join(this.valuesDir, pack, `${tag}.yaml`);
    if (!existsSync(file)) return undefined;
    return { values: readValuesFile(file), manifests: [], from: file };
  }
}
