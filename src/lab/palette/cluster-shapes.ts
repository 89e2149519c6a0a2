/**
 * How the double renders a real Palette's cluster, after palette-sdk-go `api/models`:
 * `V1SpectroCluster` (`spec.clusterProfileTemplates[]` as `V1ClusterProfileTemplate` with the semver
 * `profileVersion`; `status.packs[]` as `V1ClusterPackStatus` with a `V1ClusterCondition`;
 * `status.conditions`, `status.repave.state`, `status.spcApply`), `V1Events`, `V1Notifications` and
 * `V1SpectroClusterRepave`. Lists page with `limit` and `continue` (an offset), as Palette's do.
 */
import type { DeployedProfile, LabClusterEvent, LabClusterView, LabNotification, LabPack, LabProfile } from './types.js';

type Json = Record<string, unknown>;

function templatePack(p: LabPack): Json {
  return { name: p.name, tag: p.tag, packUid: p.uid, registryUid: p.registryUid, layer: p.layer, type: p.type, values: p.values, manifests: p.manifests.map((m) => ({ name: m.name, uid: m.uid })) };
}

/**
 * `shape.emptyProfileVersion`: the templates carry no `profileVersion`. The field is optional in
 * `v1ClusterProfileTemplate` and Go leaves an empty one out of the JSON, so a client must not
 * count on it (it reads the label from the version object, by the template's uid).
 */
export function clusterDocument(view: LabClusterView, shape: { emptyProfileVersion?: boolean } = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'SpectroCluster',
    metadata: { uid: view.uid, name: view.name, creationTimestamp: view.createdAt, annotations: {}, labels: { ...view.labels } },
    spec: {
      cloudType: 'maas',
      clusterType: 'PureManage',
      clusterProfileTemplates: view.templates.map((t) => ({
        uid: t.uid,
        name: t.name,
        type: t.type,
        cloudType: t.cloudType,
        ...(shape.emptyProfileVersion ? {} : { profileVersion: t.version }),
        packs: t.packs.map(templatePack),
      })),
      ...(view.clusterTemplate ? { clusterTemplate: { ...view.clusterTemplate } } : {}),
    },
    status: {
      state: view.state,
      conditions: view.conditions.map((c) => ({ ...c })),
      packs: view.packs.map((p) => ({ name: p.name, version: p.tag, type: 'spectro', profileUid: p.profileUid, condition: { ...p.condition } })),
      repave: view.repave ? { state: view.repave } : {},
      spcApply: { canBeApplied: view.canBeApplied, actionType: 'DownloadAndInstall' },
    },
  };
}

/** A settled cluster from what is deployed (doubles that model no rollout): every pack Ready. */
export function settledView(uid: string, deployed: DeployedProfile[], lookup: (uid: string) => LabProfile | undefined): LabClusterView {
  const templates = deployed.map((d) => {
    const profile = lookup(d.uid);
    const known = profile?.published?.packs ?? [];
    const packs: LabPack[] = d.packs.map((x) => known.find((k) => k.name === x.name && k.tag === x.tag) ?? { name: x.name, tag: x.tag, uid: '', registryUid: '', layer: 'addon', type: 'spectro', values: x.values, manifests: [] });
    return { uid: d.uid, name: d.name, version: d.version, type: profile?.type ?? 'add-on', cloudType: profile?.cloudType ?? 'all', packs };
  });
  return {
    uid,
    name: uid,
    state: 'Running',
    createdAt: new Date(0).toISOString(),
    templates,
    packs: templates.flatMap((t) => t.packs.map((p) => ({ name: p.name, tag: p.tag, profileUid: t.uid, condition: { type: 'Ready', status: 'True' } }))),
    conditions: [],
    canBeApplied: true,
  };
}

/** One page of a list: `limit` (default 50, at most 50 as Palette) from the offset in `continue`. */
export function page<T>(all: T[], query: URLSearchParams): { items: T[]; listmeta: Json } {
  const limit = Math.max(1, Math.min(Number(query.get('limit')) || 50, 50));
  const offset = Math.max(0, Number(query.get('continue')) || 0);
  const items = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? String(offset + limit) : '';
  return { items, listmeta: { count: all.length, limit, offset, continue: next } };
}

export function eventItem(e: LabClusterEvent, cluster: { uid: string; name: string }, i: number): Json {
  return {
    metadata: { uid: `${cluster.uid.slice(0, 8)}-event-${i}`, creationTimestamp: e.at },
    involvedObject: { kind: 'SpectroCluster', name: cluster.name, uid: cluster.uid },
    relatedObject: { kind: 'spectrocluster', name: cluster.name, uid: cluster.uid },
    reason: e.reason,
    message: e.message,
    severity: e.severity,
    source: { component: 'palette-agent' },
  };
}

export function notificationItem(n: LabNotification, cluster: { uid: string; name: string }): Json {
  return {
    metadata: { uid: n.uid, creationTimestamp: n.createdAt },
    type: 'NotificationNone',
    action: { actionType: 'NotifyActionClusterProfileUpdate', actionMessage: n.message, ack: false, isDone: n.isDone, isInfo: false },
    relatedObject: { kind: 'spectrocluster', name: cluster.name, uid: cluster.uid },
    source: { component: 'clusterprofile' },
  };
}
