/** From validated Palette cluster answers to the client's documents (see cluster-types.ts). */
import type { z } from 'zod';
import type { AttachedProfile, ClusterDoc, ClusterEvent, ClusterNotification, Condition, RepaveStatus } from './cluster-types.js';
import type { EventsSchema, NotificationsSchema, RepaveSchema, SpectroClusterJson } from './cluster-schemas.js';
import type { DeployedProfileDoc } from './types.js';

type RawCondition = { type: string; status: string; reason?: string | null | undefined; message?: string | null | undefined };

function condition(c: RawCondition): Condition {
  return { type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
}

/**
 * The value Palette stores in `metadata.labels` for a tag that is a key alone (domain-notes, "Palette
 * for fleets"; terraform-provider-spectrocloud's toTags writes `tags[key] = "spectro__tag"` for a tag
 * without `:value`).
 */
export const KEY_ONLY_TAG = 'spectro__tag';

/** The packs are names and tags: their values, when the answer was read whole, are not kept (see ClusterReads.cluster). */
export function toClusterDoc(json: SpectroClusterJson): ClusterDoc {
  const status = json.status ?? undefined;
  const profiles: AttachedProfile[] = (json.spec?.clusterProfileTemplates ?? []).map((t) => ({
    uid: t.uid,
    name: t.name,
    version: t.profileVersion ?? '',
    type: t.type ?? '',
    packs: (t.packs ?? []).map((p) => ({ name: p.name, tag: p.tag ?? p.version ?? '' })),
  }));
  const doc: ClusterDoc = {
    uid: json.metadata.uid,
    name: json.metadata.name ?? '',
    state: status?.state ?? '',
    profiles,
    packs: (status?.packs ?? []).map((p) => ({
      name: p.name,
      version: p.version ?? '',
      profileUid: p.profileUid ?? '',
      ...(p.condition ? { condition: condition(p.condition) } : {}),
    })),
    conditions: (status?.conditions ?? []).map(condition),
    tags: Object.entries(json.metadata.labels ?? {}).map(([k, v]) => (v === KEY_ONLY_TAG ? k : `${k}=${v}`)),
  };
  if (status?.repave?.state) doc.repave = status.repave.state;
  const template = json.spec?.clusterTemplate?.uid;
  if (template) doc.templateUid = template;
  if (status?.spcApply) {
    doc.spcApply = {
      ...(typeof status.spcApply.canBeApplied === 'boolean' ? { canBeApplied: status.spcApply.canBeApplied } : {}),
      ...(status.spcApply.actionType ? { actionType: status.spcApply.actionType } : {}),
    };
  }
  return doc;
}

/** What the cluster runs, in the palette flavor: the attached templates, with their semver labels. */
export function deployedFromCluster(cluster: ClusterDoc): DeployedProfileDoc[] {
  return cluster.profiles.map((p) => ({ name: p.name, uid: p.uid, version: p.version, packs: p.packs.map((k) => ({ ...k })) }));
}

export function toClusterEvents(parsed: z.infer<typeof EventsSchema>): ClusterEvent[] {
  return (parsed.items ?? []).map((e) => ({
    at: e.metadata?.creationTimestamp ?? '',
    reason: e.reason ?? '',
    message: e.message ?? '',
    severity: e.severity ?? '',
    object: [e.involvedObject?.kind, e.involvedObject?.name].filter(Boolean).join('/'),
  }));
}

export function toNotifications(parsed: z.infer<typeof NotificationsSchema>): ClusterNotification[] {
  return (parsed.items ?? []).map((n) => ({
    uid: n.metadata.uid,
    actionType: n.action?.actionType ?? '',
    message: n.action?.actionMessage ?? '',
    isDone: n.action?.isDone ?? false,
    ack: n.action?.ack ?? false,
  }));
}

export function toRepaveStatus(parsed: z.infer<typeof RepaveSchema>): RepaveStatus {
  return {
    ...(parsed.status?.state ? { state: parsed.status.state } : {}),
    reasons: (parsed.spec?.reasons ?? []).map((r) => {
      const from = r.pack?.current;
      const to = r.pack?.target;
      const name = to?.name ?? from?.name;
      const pack = name ? `${name} ${from?.tag ?? '(none)'} → ${to?.tag ?? '(removed)'}` : undefined;
      return { code: r.code ?? '', message: r.message ?? '', ...(pack ? { pack } : {}) };
    }),
  };
}
