/**
 * zod schemas for a real Palette's cluster answers (palette-sdk-go `api/models`: V1SpectroCluster,
 * V1ClusterProfileTemplate, V1ClusterPackStatus, V1ClusterCondition, V1Events, V1Notifications,
 * V1SpectroClusterRepave, V1ClusterProfileCloneEntity's answer V1Uid). Lenient on what the tool
 * does not read (Go's `null` for an empty list passes), strict on what it relies on.
 */
import { z } from 'zod';

const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().nullish(),
  message: z.string().nullish(),
});

const TemplatePackSchema = z.looseObject({
  name: z.string(),
  tag: z.string().nullish(),
  version: z.string().nullish(),
  values: z.string().nullish(),
});

const TemplateSchema = z.looseObject({
  uid: z.string(),
  name: z.string(),
  profileVersion: z.string().nullish(),
  type: z.string().nullish(),
  packs: z.array(TemplatePackSchema).nullish(),
});

export const SpectroClusterSchema = z.looseObject({
  metadata: z.looseObject({ uid: z.string(), name: z.string().nullish() }),
  spec: z.looseObject({ clusterProfileTemplates: z.array(TemplateSchema).nullish() }).nullish(),
  status: z
    .looseObject({
      state: z.string().nullish(),
      conditions: z.array(ConditionSchema).nullish(),
      packs: z
        .array(
          z.looseObject({
            name: z.string(),
            version: z.string().nullish(),
            profileUid: z.string().nullish(),
            condition: ConditionSchema.nullish(),
          }),
        )
        .nullish(),
      repave: z.looseObject({ state: z.string().nullish() }).nullish(),
      spcApply: z.looseObject({ canBeApplied: z.boolean().nullish(), actionType: z.string().nullish() }).nullish(),
    })
    .nullish(),
});
export type SpectroClusterJson = z.infer<typeof SpectroClusterSchema>;

const ListMeta = z.looseObject({ continue: z.string().nullish() }).nullish();

export const EventsSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ creationTimestamp: z.string().nullish() }).nullish(),
        involvedObject: z.looseObject({ kind: z.string().nullish(), name: z.string().nullish() }).nullish(),
        reason: z.string().nullish(),
        message: z.string().nullish(),
        severity: z.string().nullish(),
      }),
    )
    .nullish(),
  listmeta: ListMeta,
});

export const NotificationsSchema = z.looseObject({
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ uid: z.string() }),
        action: z
          .looseObject({
            actionType: z.string().nullish(),
            actionMessage: z.string().nullish(),
            isDone: z.boolean().nullish(),
            ack: z.boolean().nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  listmeta: ListMeta,
});

const PackRefLite = z.looseObject({ name: z.string().nullish(), tag: z.string().nullish() }).nullish();

export const RepaveSchema = z.looseObject({
  spec: z
    .looseObject({
      reasons: z
        .array(
          z.looseObject({
            code: z.string().nullish(),
            message: z.string().nullish(),
            pack: z.looseObject({ current: PackRefLite, target: PackRefLite }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  status: z.looseObject({ state: z.string().nullish() }).nullish(),
});
