/**
 * One poll of what the migration monitor, the diagnosis and the recovery look at: the VMIs that
 * carry the outdated-launcher label, every migration, and the KubeVirt CR. Three list/get calls per
 * poll whatever the cluster's size; the label selector is the server's job (the apiserver supports
 * label selectors on custom resources, not field selectors beyond name and namespace).
 */
import type { ClusterReader } from '../../kube/reader.js';
import { OUTDATED_LABEL, type KubeVirt, type Vmi, type Vmim } from '../../kube/schemas.js';

export interface KubevirtRef {
  namespace: string;
  name: string;
}

export interface MigrationView {
  outdated: Vmi[];
  migrations: Vmim[];
  kubevirt: KubeVirt | undefined;
}

export const defaultKubevirtRef: KubevirtRef = { namespace: 'kubevirt', name: 'kubevirt' };

export async function readMigrationView(reader: ClusterReader, kubevirt: KubevirtRef): Promise<MigrationView> {
  const [outdated, migrations, kv] = await Promise.all([reader.vmis({ labelSelector: OUTDATED_LABEL }), reader.migrations(), reader.kubeVirt(kubevirt.namespace, kubevirt.name)]);
  return { outdated, migrations, kubevirt: kv };
}

export const keyOf = (o: { metadata: { namespace?: string | undefined; name: string } }): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** `namespace/vmi` of a migration. */
export const vmiKeyOf = (m: Vmim): string => `${m.metadata.namespace ?? ''}/${m.spec.vmiName}`;

/** The LiveMigratable condition: false means KubeVirt will never live-migrate this VMI. */
export function liveMigratable(vmi: Vmi): { migratable: boolean; reason?: string } {
  const c = vmi.status?.conditions?.find((x) => x.type === 'LiveMigratable');
  if (!c || c.status !== 'False') return { migratable: true };
  const reason = [c.reason, c.message].filter(Boolean).join(': ');
  return { migratable: false, ...(reason ? { reason } : {}) };
}

/** `…/virt-launcher:v1.2.0` → `v1.2.0` */
export const imageTag = (image: string | undefined): string | undefined => (image ? image.slice(image.lastIndexOf(':') + 1) : undefined);

export const parseTime = (ts: string | undefined): number | undefined => {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  return Number.isFinite(t) ? t : undefined;
};
