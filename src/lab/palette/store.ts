/**
 * The lab's cluster profiles: each with a published version and at most one draft, as in spec
 * section 3. The store owns the objects it is given (the world may keep and read them); writes go
 * through `writeDraft` and `publish` so the draft → published transition happens in one place.
 */
import type { LabProfile, LabProfileContent } from './types.js';

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

  /** Draft → published; the label joins the history; the draft is gone. Throws without a draft. */
  publish(uid: string): LabProfile {
    const profile = this.require(uid);
    if (!profile.draft) throw new Error(`profile ${uid} has no draft to publish`);
    profile.published = profile.draft;
    profile.draft = undefined;
    if (!profile.history.includes(profile.published.version)) profile.history.push(profile.published.version);
    return profile;
  }

  private require(uid: string): LabProfile {
    const profile = this.profiles.get(uid);
    if (!profile) throw new Error(`no profile ${uid} in the store`);
    return profile;
  }
}
