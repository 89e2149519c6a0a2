/**
 * The lab's cluster profiles: each with a published version and at most one draft, as in spec
 * section 3. The store owns the objects it is given (the world may keep and read them); writes go
 * through `writeDraft` and `publish` so the draft → published transition happens in one place.
 */
import { randomBytes } from 'node:crypto';
import type { LabProfile, LabProfileContent } from './types.js';

/** Version labels in numeric order (`1.10.0` after `1.9.0`); suffixes compare as text. */
function compareLabels(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b.split(/[.+-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export class ProfileStore {
  private readonly profiles = new Map<string, LabProfile>();

  constructor(initial: Iterable<LabProfile> = []) {
    for (const profile of initial) this.add(profile);
  }

  add(profile: LabProfile): LabProfile {
    if (this.profiles.has(profile.uid)) throw new Error(`profile ${profile.uid} is already in the store`);
    this.profiles.set(profile.uid, profile);
    return profile;
  }

  get(uid: string): LabProfile | undefined {
    return this.profiles.get(uid);
  }

  has(uid: string): boolean {
    return this.profiles.has(uid);
  }

  /** In insertion order, so list answers are stable. */
  list(): LabProfile[] {
    return [...this.profiles.values()];
  }

  /** Replaces the draft (a PUT writes a draft only; clusters see nothing until `publish`). */
  writeDraft(uid: string, draft: LabProfileContent): LabProfile {
    const profile = this.require(uid);
    profile.draft = draft;
    return profile;
  }

  /**
   * Draft → published; the label joins the history; the draft is gone. Throws without a draft. With
   * `renameInPlace` (a real Palette: a version is its object) a new label replaces the old one, which
   * is gone from the versions list: what the spec's service keeps as history, Palette loses.
   */
  publish(uid: string, opts: { renameInPlace?: boolean } = {}): LabProfile {
    const profile = this.require(uid);
    if (!profile.draft) throw new Error(`profile ${uid} has no draft to publish`);
    const previous = profile.published?.version;
    profile.published = profile.draft;
    profile.draft = undefined;
    const label = profile.published.version;
    if (opts.renameInPlace && previous !== undefined && previous !== label) profile.history = profile.history.filter((v) => v !== previous);
    if (!profile.history.includes(label)) profile.history.push(label);
    return profile;
  }

  /** A real Palette's clone: a new version object (own uid, same name) holding the source's published content. */
  clone(sourceUid: string, to: { uid: string; name: string; version: string }): LabProfile {
    const source = this.require(sourceUid);
    if (!source.published) throw new Error(`profile ${sourceUid} has no published version to clone`);
    const packs = structuredClone(source.published.packs).map((p) => ({ ...p, manifests: p.manifests.map((m) => ({ ...m, uid: randomBytes(12).toString('hex') })) }));
    return this.add({
      ...structuredClone(source),
      uid: to.uid,
      name: to.name,
      published: { version: to.version, packs },
      draft: undefined,
      history: [to.version],
    });
  }

  /** The object holding version `version` of the profile named `name` (its published or draft label). */
  findVersion(name: string, version: string): LabProfile | undefined {
    return this.list().find((p) => p.name === name && (p.published?.version === version || p.draft?.version === version || p.history.includes(version)));
  }

  /** Every published version of the profile named `name`, across its objects, oldest label first. */
  versionsOf(name: string): Array<{ uid: string; version: string }> {
    const seen = new Map<string, string>();
    for (const p of this.list()) if (p.name === name) for (const v of p.history) if (!seen.has(v)) seen.set(v, p.uid);
    return [...seen].map(([version, uid]) => ({ uid, version })).sort((a, b) => compareLabels(a.version, b.version));
  }

  private require(uid: string): LabProfile {
    const profile = this.profiles.get(uid);
    if (!profile) throw new Error(`no profile ${uid} in the store`);
    return profile;
  }
}
