/**
 * The profile lists, per flavor. The spec's service: `GET /v1/clusterprofiles` (spec 4, shape 2.4;
 * its paging is not shown, so `continue` is followed as on Palette's lists). A real Palette has no
 * such list - that path takes only POST, the create (palette-sdk-go spec 4.4-4.8) - but two others:
 * `GET /v1/dashboard/clusterprofiles/metadata` (every profile version the project sees, name, uid and
 * label, not paged; what the SDK's own lookup by name and version reads) and
 * `POST /v1/dashboard/clusterprofiles` (`v1ClusterProfilesFilterSpec`, filtered by name here; `limit`
 * at most 50, `continue`), which finds the versions of one profile without reading every profile.
 */
import type { JsonGetter } from './cluster-reads.js';
import { listOf } from './list-paging.js';
import { ProfilesMetadataSchema, ProfilesSummarySchema } from './list-schemas.js';
import { ProfileListSchema } from './schemas.js';
import type { ProfileSummary, ReadOptions } from './types.js';

/** Palette's largest page (`limit` "maximum value of the limit is 50"). */
export const DASHBOARD_PAGE = 50;

const sig = (opts: ReadOptions): { signal?: AbortSignal } => (opts.signal ? { signal: opts.signal } : {});

export class ProfileLists {
  constructor(private readonly getJson: JsonGetter) {}

  /** The spec's `GET /v1/clusterprofiles`, every page. */
  spec(opts: ReadOptions = {}): Promise<ProfileSummary[]> {
    return listOf(async (next) => {
      const path = next ? `/v1/clusterprofiles?continue=${encodeURIComponent(next)}` : '/v1/clusterprofiles';
      const list = await this.getJson({ method: 'GET', path, retry: true, ...sig(opts) }, ProfileListSchema);
      return { items: (list.items ?? []).map((i) => ({ uid: i.metadata.uid, name: i.metadata.name, version: i.spec?.version ?? '' })), next: list.listmeta?.continue ?? '' };
    });
  }

  /** `GET /v1/dashboard/clusterprofiles/metadata`: one entry per profile version object. */
  async metadata(opts: ReadOptions = {}): Promise<ProfileSummary[]> {
    const list = await this.getJson({ method: 'GET', path: '/v1/dashboard/clusterprofiles/metadata', retry: true, ...sig(opts) }, ProfilesMetadataSchema);
    return (list.items ?? []).map((i) => ({ uid: i.metadata.uid, name: i.metadata.name, version: i.spec?.version ?? '' }));
  }

  /**
   * `POST /v1/dashboard/clusterprofiles` filtered by name, every page: each version of the profile
   * `name` (an item's own label, and every `specSummary.versions[]` entry it lists), once.
   */
  named(name: string, opts: ReadOptions = {}): Promise<ProfileSummary[]> {
    const body = { filter: { profileName: { eq: name, ignoreCase: false } } };
    return listOf(async (next) => {
      const query = `limit=${DASHBOARD_PAGE}${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
      const list = await this.getJson({ method: 'POST', path: `/v1/dashboard/clusterprofiles?${query}`, body, retry: true, read: true, ...sig(opts) }, ProfilesSummarySchema);
      const items = (list.items ?? []).filter((i) => i.metadata.name === name);
      const found: ProfileSummary[] = items.flatMap((i) => [
        ...(i.specSummary?.version ? [{ uid: i.metadata.uid, name, version: i.specSummary.version }] : []),
        ...(i.specSummary?.versions ?? []).flatMap((v) => (v.uid && v.version ? [{ uid: v.uid, name, version: v.version }] : [])),
      ]);
      return { items: found, next: list.listmeta?.continue ?? '' };
    }).then((all) => [...new Map(all.map((p) => [`${p.uid}@${p.version}`, p])).values()]);
  }
}
