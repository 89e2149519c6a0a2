/**
 * zod schemas for the profile API's answers, in both dialects. Lenient where the real API is
 * (unknown fields pass, Go's `null` for empty lists is accepted), strict on the fields the tool
 * relies on, so a surprising answer fails with the field's path instead of a crash later.
 * Shapes: spec sections 2.1-2.4 and palette-sdk-go `api/models` (V1ClusterProfile, V1PackRef,
 * V1ObjectReference, V1ManifestEntities, V1SpectroClusterProfileList, V1Error).
 */
import { z } from 'zod';
import { opt } from '../io/optional-field.js';

const StringMap = opt(z.record(z.string(), z.string()));

const ManifestRef = z.looseObject({
  name: z.string(),
  uid: opt(z.string()),
  content: opt(z.string()),
});

export const PackRefSchema = z.looseObject({
  name: z.string(),
  tag: z.string(),
  uid: opt(z.string()),
  packUid: opt(z.string()),
  registryUid: opt(z.string()),
  layer: opt(z.string()),
  type: opt(z.string()),
  values: opt(z.string()),
  manifests: opt(z.array(ManifestRef)),
});
export type PackRefJson = z.infer<typeof PackRefSchema>;

const TemplateSchema = z.looseObject({
  cloudType: opt(z.string()),
  type: opt(z.string()),
  profileVersion: opt(z.string()),
  packs: opt(z.array(PackRefSchema)),
  packServerRefs: opt(z.array(z.unknown())),
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
      type: opt(z.string()),
      cloudType: opt(z.string()),
      version: opt(z.string()),
      template: opt(TemplateSchema),
      draft: opt(TemplateSchema),
      published: opt(TemplateSchema),
      versions: opt(z.array(z.looseObject({ uid: opt(z.string()), version: z.string() }))),
    }),
    status: opt(z.looseObject({ isPublished: opt(z.boolean()) })),
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
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: opt(z.looseObject({ version: opt(z.string()) })),
      }),
    ),
  ),
  listmeta: opt(z.looseObject({ continue: opt(z.string()) })),
});

export const ManifestEntitiesSchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: z.string() }),
        spec: opt(
          z.looseObject({
            draft: opt(z.looseObject({ content: opt(z.string()) })),
            published: opt(z.looseObject({ content: opt(z.string()) })),
          }),
        ),
      }),
    ),
  ),
});

/** A deployed pack: the spec's `{name, tag}` or Palette's `{metadata, spec: {name, version, values}}`. */
const DeployedPackSchema = z
  .looseObject({
    name: opt(z.string()),
    tag: opt(z.string()),
    values: opt(z.string()),
    spec: opt(z.looseObject({ name: z.string(), version: z.string(), values: opt(z.string()) })),
  })
  .superRefine((pack, ctx) => {
    if (pack.spec) return;
    if (pack.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'expected string (or spec.name)' });
    if (pack.tag === undefined) ctx.addIssue({ code: 'custom', path: ['tag'], message: 'expected string (or spec.version)' });
  });

export const ClusterProfilesSchema = z.looseObject({
  profiles: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string(), uid: opt(z.string()) }),
        spec: opt(
          z.looseObject({
            // A label in the spec; Palette's integer revision in the real API (label in `profileVersion`).
            version: opt(z.union([z.string(), z.number()])),
            profileVersion: opt(z.string()),
            packs: opt(z.array(DeployedPackSchema)),
          }),
        ),
        packs: opt(z.array(DeployedPackSchema)),
      }),
    ),
  ),
});

export const ErrorBodySchema = z.looseObject({
  code: opt(z.string()),
  message: opt(z.string()),
  ref: opt(z.string()),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
