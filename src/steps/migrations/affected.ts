/**
 * Which VMIs and nodes a diagnosis is about: outdated VMIs whose migrations failed or hang, and the
 * nodes those migrations ran between (virt-handler there logs the evidence). Also the failure
 * reasons as signature sources. Pure over one read of the cluster and the monitor's findings.
 */
import type { Vmi } from '../../kube/schemas.js';
import { keyOf, parseTime, vmiKeyOf, type MigrationView } from './cluster-view.js';
import type { SourceText } from './diagnose-types.js';
import type { MigrationsOutput } from './monitor-types.js';
import { failuresSinceSuccess, phaseOf } from './phases.js';
import type { FailureReason } from './signatures.js';

export interface AffectedVmi {
  key: string;
  uid?: string;
  node?: string;
  /** How many failed or hanging migrations point at it (to read the worst first). */
  weight: number;
}

export interface Affected {
  vmis: AffectedVmi[];
  /** Nodes, most affected first. */
  nodes: string[];
  reasons: FailureReason[];
  reasonSources: SourceText[];
  stuck: Array<{ migration: string; vmi: string; ageMs: number }>;
}

export function findAffected(view: MigrationView, monitor: MigrationsOutput | undefined, now: number): Affected {
  const outdated = new Map<string, Vmi>(view.outdated.map((v) => [keyOf(v), v]));
  const weight = new Map<string, number>();
  const nodeWeight = new Map<string, number>();
  const bump = (vmi: string, nodes: Array<string | undefined>) => {
    weight.set(vmi, (weight.get(vmi) ?? 0) + 1);
    for (const n of nodes) if (n && n !== '?' && n !== '—') nodeWeight.set(n, (nodeWeight.get(n) ?? 0) + 1);
  };

  const reasons: FailureReason[] = [];
  const reasonSources: SourceText[] = [];
  const withFailedVmim = new Set<string>();
  // A VMI is judged by its latest migrations: failures a later success superseded are not evidence.
  const failing = failuresSinceSuccess(
    view.migrations.filter((m) => outdated.has(vmiKeyOf(m))),
    { vmi: vmiKeyOf, phase: phaseOf, created: (m) => parseTime(m.metadata.creationTimestamp) ?? now },
  );
  for (const m of [...failing.values()].flat()) {
    const vmi = vmiKeyOf(m);
    const ms = m.status?.migrationState;
    withFailedVmim.add(vmi);
    bump(vmi, [ms?.sourceNode, ms?.targetNode, outdated.get(vmi)?.status?.nodeName]);
    if (ms?.failureReason) {
      reasons.push({ reason: ms.failureReason, vmi });
      reasonSources.push({ kind: 'migrationFailureReason', label: `migration ${keyOf(m)} (VMI ${vmi})`, lines: [ms.failureReason] });
    }
  }
  // KubeVirt garbage-collects old migrations; the VMI still remembers how its last one ended.
  for (const [vmi, v] of outdated) {
    const ms = v.status?.migrationState;
    if (withFailedVmim.has(vmi) || !ms?.failed || !ms.failureReason) continue;
    bump(vmi, [ms.sourceNode, ms.targetNode, v.status?.nodeName]);
    reasons.push({ reason: ms.failureReason, vmi });
    reasonSources.push({ kind: 'migrationFailureReason', label: `VMI ${vmi} (its last migration)`, lines: [ms.failureReason] });
  }

  const stuck = (monitor?.problems ?? []).filter((p) => p.kind === 'stuck' && outdated.has(p.vmi)).map((p) => ({ migration: p.migration, vmi: p.vmi, ageMs: p.ageMs }));
  if (!monitor) {
    // Without the monitor's limit, every Running migration of an outdated VMI is worth a look.
    for (const m of view.migrations) {
      const vmi = vmiKeyOf(m);
      if (phaseOf(m) !== 'Running' || !outdated.has(vmi)) continue;
      const started = parseTime(m.status?.migrationState?.startTimestamp ?? m.metadata.creationTimestamp);
      stuck.push({ migration: keyOf(m), vmi, ageMs: started === undefined ? 0 : Math.max(0, now - started) });
    }
  }
  const stuckNodes = new Map<string, Array<string | undefined>>();
  for (const m of view.migrations) {
    const ms = m.status?.migrationState;
    if (stuck.some((s) => s.migration === keyOf(m))) stuckNodes.set(keyOf(m), [ms?.sourceNode, ms?.targetNode]);
  }
  for (const s of stuck) bump(s.vmi, [...(stuckNodes.get(s.migration) ?? []), outdated.get(s.vmi)?.status?.nodeName]);
  for (const p of monitor?.problems ?? []) if (outdated.has(p.vmi) && !weight.has(p.vmi)) bump(p.vmi, [p.source, p.target]);

  const vmis = [...weight]
    .map(([key, w]) => {
      const v = outdated.get(key);
      return { key, weight: w, ...(v?.metadata.uid ? { uid: v.metadata.uid } : {}), ...(v?.status?.nodeName ? { node: v.status.nodeName } : {}) };
    })
    .sort((a, b) => b.weight - a.weight || a.key.localeCompare(b.key));
  const nodes = [...nodeWeight].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n]) => n);
  return { vmis, nodes, reasons, reasonSources, stuck };
}
