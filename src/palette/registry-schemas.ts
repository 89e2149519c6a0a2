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
import { opt } from '../io/optional-field.js';

export const PackSummariesSchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ uid: z.string() }),
        spec: z.looseObject({
          name: z.string(),
          version: z.string(),
          values: opt(z.string()),
          registryUid: opt(z.string()),
          layer: opt(z.string()),
          type: opt(z.string()),
        }),
      }),
    ),
  ),
  listmeta: opt(z.looseObject({ continue: opt(z.string()) })),
});
export type PackSummariesJson = z.infer<typeof PackSummariesSchema>;

export const PackTagEntitySchema = z.looseObject({
  name: opt(z.string()),
  registryUid: opt(z.string()),
  layer: opt(z.string()),
  tags: opt(z.array(z.looseObject({ tag: z.string(), version: opt(z.string()), packUid: opt(z.string()) }))),
  packValues: opt(z.array(z.looseObject({ packUid: opt(z.string()), values: opt(z.string()) }))),
});
export type PackTagEntityJson = z.infer<typeof PackTagEntitySchema>;

export const RegistriesMetadataSchema = z.looseObject({
  items: opt(z.array(z.looseObject({ uid: z.string(), name: opt(z.string()), kind: opt(z.string()), isDefault: opt(z.boolean()) }))),
});
export type RegistriesMetadataJson = z.infer<typeof RegistriesMetadataSchema>;
