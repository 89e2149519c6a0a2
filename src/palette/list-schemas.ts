/**
 * zod schemas for a real Palette's profile lists (see profile-lists.ts; the spec's list is
 * `ProfileListSchema` in schemas.ts). Shapes:
 * - palette-sdk-go `v1ClusterProfilesMetadata`: `items[]` of `v1ClusterProfileMetadata`
 *   (`metadata` `v1ObjectEntity` {name, uid}, `spec {version, cloudType}`);
 * - palette-sdk-go `v1ClusterProfilesSummary`: `items[]` of `v1ClusterProfileSummary` (`metadata`
 *   `v1ObjectMeta`, `specSummary {version, versions[] {uid, version}, draft, published}`) and
 *   `listmeta` `v1ListMetaData` {continue, count, limit, offset}.
 * Every field the Go types leave optional may come as `null`; strict only on what is used.
 */
import { z } from 'zod';

const ListMeta = z.looseObject({ continue: z.string().nullish() }).nullish();

export const ProfilesMetadataSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: z.looseObject({ version: z.string().nullish(), cloudType: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
});

export const ProfilesSummarySchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        specSummary: z
          .looseObject({
            version: z.string().nullish(),
            versions: z.array(z.looseObject({ uid: z.string().nullish(), version: z.string().nullish() })).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  listmeta: ListMeta,
});
