/**
 * zod schemas for a real Palette's cluster answers (palette-sdk-go `api/models`: V1SpectroCluster,
 * V1ClusterProfileTemplate, V1ClusterPackStatus, V1ClusterCondition, V1Events, V1Notifications,
 * V1SpectroClusterRepave, V1ClusterProfileCloneEntity's answer V1Uid). Lenient on what the tool
 * does not read (Go's `null` for an empty list passes), strict on what it relies on.
 */
import { z } from 'zod';
import { opt } from '../io/optional-field.js';

const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: opt(z.string()),
  message: opt(z.string()),
});

const TemplatePackSchema = z.looseObject({
  name: z.string(),
  tag: opt(z.string()),
  version: opt(z.string()),
  values: opt(z.string()),
});

const TemplateSchema = z.looseObject({
  uid: z.string(),
  name: z.string(),
  profileVersion: opt(z.string()),
  type: opt(z.string()),
  packs: opt(z.array(TemplatePackSchema)),
});

export const SpectroClusterSchema = z.looseObject({
  // `metadata.labels` are the cluster's tags (domain-notes: a key-only tag has the value `spectro__tag`).
  metadata: z.looseObject({ uid: z.string(), name: opt(z.string()), labels: opt(z.record(z.string(), z.string())) }),
  // `spec.clusterTemplate` (`v1SpectroClusterTemplateRef`, palette-sdk-go spec): set on a cluster a cluster template manages.
  spec: opt(z.looseObject({ clusterProfileTemplates: opt(z.array(TemplateSchema)), clusterTemplate: opt(z.looseObject({ uid: opt(z.string()) })) })),
  status: opt(
    z.looseObject({
      state: opt(z.string()),
      conditions: opt(z.array(ConditionSchema)),
      packs: opt(
        z.array(
          z.looseObject({
            name: z.string(),
            version: opt(z.string()),
            profileUid: opt(z.string()),
            condition: opt(ConditionSchema),
          }),
        ),
      ),
      repave: opt(z.looseObject({ state: opt(z.string()) })),
      spcApply: opt(z.looseObject({ canBeApplied: opt(z.boolean()), actionType: opt(z.string()) })),
    }),
  ),
});
export type SpectroClusterJson = z.infer<typeof SpectroClusterSchema>;

const ListMeta = opt(z.looseObject({ continue: opt(z.string()) }));

export const EventsSchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: opt(z.looseObject({ creationTimestamp: opt(z.string()) })),
        involvedObject: opt(z.looseObject({ kind: opt(z.string()), name: opt(z.string()) })),
        reason: opt(z.string()),
        message: opt(z.string()),
        severity: opt(z.string()),
      }),
    ),
  ),
  listmeta: ListMeta,
});

export const NotificationsSchema = z.looseObject({
  items: opt(
    z.array(
      z.looseObject({
        metadata: z.looseObject({ uid: z.string() }),
        action: opt(
          z.looseObject({
            actionType: opt(z.string()),
            actionMessage: opt(z.string()),
            isDone: opt(z.boolean()),
            ack: opt(z.boolean()),
          }),
        ),
      }),
    ),
  ),
  listmeta: ListMeta,
});

const PackRefLite = opt(z.looseObject({ name: opt(z.string()), tag: opt(z.string()) }));

export const RepaveSchema = z.looseObject({
  spec: opt(
    z.looseObject({
      reasons: opt(
        z.array(
          z.looseObject({
            code: opt(z.string()),
            message: opt(z.string()),
            pack: opt(z.looseObject({ current: PackRefLite, target: PackRefLite })),
          }),
        ),
      ),
    }),
  ),
  status: opt(z.looseObject({ state: opt(z.string()) })),
});
