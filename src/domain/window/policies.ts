/**
 * MigrationPolicies (`migrations.kubevirt.io/v1alpha1`, cluster-scoped): each overrides the cluster's
 * migration settings for the VMIs it selects by namespace labels and VMI labels (maps of labels;
 * some docs show them under `matchLabels`, read both). Every label of a selector must match. Of
 * several that match, KubeVirt takes the one with the most matching labels, then the one with the
 * most matching VMI labels (kubevirt pkg/virt-controller/watch/migrationpolicy.go,
 * `migrationPolicyMatchScore`), then the first by name.
 */
import { parseQuantity } from '../units/quantity.js';
import type { MigrationLimits, MigrationPolicyView, VmMigrationLimits } from './types.js';

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function labelMap(v: unknown): Record<string, string> {
  const o = obj(v);
  const inner = 'matchLabels' in o ? obj(o.matchLabels) : o;
  return Object.fromEntries(Object.entries(inner).map(([k, x]) => [k, x === null || x === undefined ? '' : String(x)]));
}

export function policyView(raw: unknown): MigrationPolicyView | undefined {
  const o = obj(raw);
  const name = obj(o.metadata).name;
  if (typeof name !== 'string') return undefined;
  const spec = obj(o.spec);
  const sel = obj(spec.selectors);
  const bandwidth = parseQuantity(spec.bandwidthPerMigration);
  const timeout = typeof spec.completionTimeoutPerGiB === 'number' ? spec.completionTimeoutPerGiB : undefined;
  return {
    name,
    ...(typeof spec.allowAutoConverge === 'boolean' ? { allowAutoConverge: spec.allowAutoConverge } : {}),
    ...(typeof spec.allowPostCopy === 'boolean' ? { allowPostCopy: spec.allowPostCopy } : {}),
    ...(bandwidth !== undefined ? { bandwidthPerMigration: bandwidth } : {}),
    ...(timeout !== undefined ? { completionTimeoutPerGiB: timeout } : {}),
    namespaceSelector: labelMap(sel.namespaceSelector),
    vmiSelector: labelMap(sel.virtualMachineInstanceSelector),
  };
}

/** How many labels of a selector match, or undefined when one does not. */
function matching(selector: Record<string, string>, labels: Record<string, string>): number | undefined {
  let n = 0;
  for (const [k, v] of Object.entries(selector)) {
    if (labels[k] !== v) return undefined;
    n += 1;
  }
  return n;
}

/** The policy KubeVirt applies to a VMI with these labels in a namespace with those, if any. */
export function policyFor(policies: readonly MigrationPolicyView[], vmiLabels: Record<string, string>, namespaceLabels: Record<string, string>): MigrationPolicyView | undefined {
  let best: { p: MigrationPolicyView; total: number; vmi: number } | undefined;
  for (const p of [...policies].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const vmi = matching(p.vmiSelector, vmiLabels);
    const ns = matching(p.namespaceSelector, namespaceLabels);
    if (vmi === undefined || ns === undefined) continue;
    const total = vmi + ns;
    if (!best || total > best.total || (total === best.total && vmi > best.vmi)) best = { p, total, vmi };
  }
  return best?.p;
}

/** The limits one VM's migration runs under. */
export function limitsFor(limits: MigrationLimits, policy: MigrationPolicyView | undefined): VmMigrationLimits {
  return {
    ...(policy ? { policy: policy.name } : {}),
    bandwidthPerMigration: policy?.bandwidthPerMigration ?? limits.bandwidthPerMigration,
    completionTimeoutPerGiB: policy?.completionTimeoutPerGiB ?? limits.completionTimeoutPerGiB,
    allowAutoConverge: policy?.allowAutoConverge ?? limits.allowAutoConverge,
    allowPostCopy: policy?.allowPostCopy ?? limits.allowPostCopy,
  };
}
