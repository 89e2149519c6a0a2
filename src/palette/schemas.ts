/**
 * zod schemas for the profile API's answers, in both dialects. Lenient where the real API is
 * (unknown fields pass, Go's `null` for empty lists is accepted), strict on the fields the tool
 * relies on, so a surprising answer fails with the field's path instead of a crash later.
 * Shapes: spec sections 2.1-2.4 and palette-sdk-go `api/models` (V1ClusterProfile, V1PackRef,
 * V1ObjectReference, V1ManifestEntities, V1SpectroClusterProfileList, V1Error).
 */
import { z } from 'zod';

const StringMap = z.record(z.string(), z.string()).nullish();

const ManifestRef = z.looseObject({
  name: z.string(),
  uid: z.string().optional(),
  content: z.string().optional(),
});

export const PackRefSchema = z.looseObject({
  name: z.string(),
  tag: z.string(),
  uid: z.string().optional(),
  packUid: z.string().optional(),
  registryUid: z.string().optional(),
  layer: z.string().optional(),
  type: z.string().optional(),
  values: z.string().nullish(),
  manifests: z.array(ManifestRef).nullish(),
});
export type PackRefJson = z.infer<typeof PackRefSchema>;

const TemplateSchema = z.looseObject({
  cloudType: z.string().optional(),
  type: z.string().optional(),
  profileVersion: z.string().optional(),
  packs: z.array(PackRefSchema).nullish(),
  packServerRefs: z.array(z.unknown()).nullish(),
});
export type TemplateJson = z.infer<typeof TemplateSchema>;

const MetadataSchema = z.looseObject({
  name: z.string(),
  uid: z.string(),
  annotations: StringMap,
  labels: StringMap,
});

export const ProfileSchema = z
  .looseObject({
    metadata: MetadataSchema,
    spec: z.looseObject({
      type: z.string().optional(),
      cloudType: z.string().optional(),
      version: z.string().optional(),
      template: TemplateSchema.optional(),
      draft: TemplateSchema.nullish(),
      published: TemplateSchema.nullish(),
      versions: z.array(z.looseObject({ uid: z.string().optional(), version: z.string() })).nullish(),
    }),
    status: z.looseObject({ isPublished: z.boolean().optional() }).nullish(),
  })
  .superRefine((doc, ctx) => {
    const { spec } = doc;
    if (!spec.template && !spec.draft && !spec.published) {
      ctx.addIssue({ code: 'custom', path: ['spec', 'template'], message: 'expected object (or spec.draft / spec.published)' });
    }
    if (spec.template && spec.version === undefined) ctx.addIssue({ code: 'custom', path: ['spec', 'version'], message: 'expected string' });
  });
export type ProfileJson = z.infer<typeof ProfileSchema>;

export const ProfileListSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: z.looseObject({ version: z.string().optional() }).nullish(),
      }),
    )
    .nullish(),
  listmeta: z.looseObject({ continue: z.string().nullish() }).nullish(),
});

export const ManifestEntitiesSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: z
          .looseObject({
            draft: z.looseObject({ content: z.string().nullish() }).nullish(),
            published: z.looseObject({ content: z.string().nullish() }).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
});

/** A deployed pack: the spec's `{name, tag}` or Palette's `{metadata, spec: {name, version, values}}`. */
const DeployedPackSchema = z
  .looseObject({
    name: z.string().optional(),
    tag: z.string().optional(),
    values: z.string().nullish(),
    spec: z.looseObject({ name: z.string(), version: z.string(), values: z.string().nullish() }).optional(),
  })
  .superRefine((pack, ctx) => {
    if (pack.spec) return;
    if (pack.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'expected string (or spec.name)' });
    if (pack.tag === undefined) ctx.addIssue({ code: 'custom', path: ['tag'], message: 'expected string (or spec.version)' });
  });

export const ClusterProfilesSchema = z.looseObject({
  profiles: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string().optional() }),
        spec: z
          .looseObject({
            // A label in the spec; Palette's integer revision in the real API (label in `profileVersion`).
            version: z.union([z.string(), z.number()]).optional(),
            profileVersion: z.string().optional(),
            packs: z.array(DeployedPackSchema).nullish(),
          })
          .nullish(),
        packs: z.array(DeployedPackSchema).nullish(),
      }),
    )
    .nullish(),
});

export const ErrorBodySchema = z.looseObject({
  code: z.string().optional(),
  message: z.string().optional(),
  ref: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
