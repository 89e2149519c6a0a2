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
import { opt } from '../io/optional-field.js';

const ListMeta = opt(z.looseObject({ continue: opt(z.string()) }));

export const ProfilesMetadataSchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: opt(z.looseObject({ version: opt(z.string()), cloudType: opt(z.string()) })),
      }),
    ),
  ),
});

export const ProfilesSummarySchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        specSummary: opt(
          z.looseObject({
            version: opt(z.string()),
            versions: opt(z.array(z.looseObject({ uid: opt(z.string()), version: opt(z.string()) }))),
          }),
        ),
      }),
    ),
  ),
  listmeta: ListMeta,
});
