/**
 * zod schemas for Palette's pack registry reads (palette-sdk-go `api/spec/palette-apis-spec.json`):
 * - `GET /v1/packs?filters=...` → `V1PackSummaries` `{items[] {metadata, spec {name, version, values,
 *   registryUid, layer, type}}, listmeta {continue}}`;
 * - `GET /v1/packs/{name}/registries/{registryUid}` → `V1PackTagEntity` `{name, registryUid, layer,
 *   tags[] {tag, version, packUid, parentTags}, packValues[] {packUid, values, readme}}`;
 * - `GET /v1/registries/metadata` → `V1RegistriesMetadata` `{items[] {uid, name, kind, scope, isDefault}}`.
 * Lenient where the API is (unknown fields pass, Go's null for empty lists), strict on what is used.
 */
import { z } from 'zod';

export const PackSummariesSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ uid: z.string() }),
        spec: z.looseObject({
          name: z.string(),
          version: z.string(),
          values: z.string().nullish(),
          registryUid: z.string().nullish(),
          layer: z.string().nullish(),
          type: z.string().nullish(),
        }),
      }),
    )
    .nullish(),
  listmeta: z.looseObject({ continue: z.string().nullish() }).nullish(),
});
export type PackSummariesJson = z.infer<typeof PackSummariesSchema>;

export const PackTagEntitySchema = z.looseObject({
  name: z.string().nullish(),
  registryUid: z.string().nullish(),
  layer: z.string().nullish(),
  tags: z.array(z.looseObject({ tag: z.string(), version: z.string().nullish(), packUid: z.string().nullish() })).nullish(),
  packValues: z.array(z.looseObject({ packUid: z.string().nullish(), values: z.string().nullish() })).nullish(),
});
export type PackTagEntityJson = z.infer<typeof PackTagEntitySchema>;

export const RegistriesMetadataSchema = z.looseObject({
  items: z.array(z.looseObject({ uid: z.string(), name: z.string().nullish(), kind: z.string().nullish(), isDefault: z.boolean().nullish() })).nullish(),
});
export type RegistriesMetadataJson = z.infer<typeof RegistriesMetadataSchema>;
