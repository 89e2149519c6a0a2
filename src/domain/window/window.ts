/**
 * The window estimate for a plan, from what the plan read of the cluster (MigrationPolicies, the
 * namespaces' labels they select by, the finished migrations to learn the bandwidth from, the
 * nodes: steps/plan/window-reads.ts), purely: each VM's limits and the hop's duration.
 */
import type { MigrationPolicy, Namespace, Node, Pod, Vm, Vmi, Vmim } from '../../kube/schemas.js';
import { ownLimitFields } from '../impact/own-limits.js';
import { ownLimitsOf } from '../impact/vm-limits.js';
import type { VmImpact } from '../impact/vm-impact.js';
import { estimateBandwidth, migrationSamples, vmiMemoryBytes } from './bandwidth.js';
import { estimateHop, type VmFacts } from './estimate.js';
import { limitsFor, policyFor, policyView } from './policies.js';
import { restartTime } from './restarts.js';
import { rolloutEstimate, type LastRollout } from './rollout.js';
import type { BandwidthEstimate, HopEta, MigrationLimits, MigrationPolicyView } from './types.js';

export interface WindowReads {
  policies: MigrationPolicy[];
  /** Said once when the MigrationPolicy CRD is not installed. */
  policiesNote?: string;
  namespaces: Namespace[];
  migrations: Vmim[];
  nodes: Node[];
  /** KubeVirt's own pods (its namespace): the start of its last rollout. */
  kubevirtPods: Pod[];
  /** KubeVirt's last rollout, once the KubeVirt resource's end of it is known (rollout.ts). */
  lastRollout?: LastRollout;
}

/** What the plan shows of KubeVirt's limits. */
export interface WindowView {
  limits: MigrationLimits;
  policies: Array<MigrationPolicyView & { vms: string[] }>;
  bandwidth: BandwidthEstimate;
  eta: HopEta;
}

const key = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);

export interface OwnersInput {
  vms: readonly Vm[];
  /** When the hop would be published (the plan's now). */
  nowMs: number;
}

export function planWindow(limits: MigrationLimits, impact: readonly VmImpact[], vmis: readonly Vmi[], reads: WindowReads, dirtyRates: ReadonlyMap<string, number> = new Map(), owners?: OwnersInput): { view: WindowView; impact: VmImpact[] } {
  const policies = reads.policies.map(policyView).filter((p): p is MigrationPolicyView => p !== undefined);
  const nsLabels = new Map(reads.namespaces.map((n) => [n.metadata.name, n.metadata.labels ?? {}]));
  const byVmi = new Map(vmis.map((v) => [key(v.metadata), v]));
  const selected = new Map(policies.map((p) => [p.name, [] as string[]]));
  const facts: VmFacts[] = impact.map((i) => {
    const vmi = byVmi.get(i.vm);
    const policy = vmi ? policyFor(policies, vmi.metadata.labels ?? {}, nsLabels.get(vmi.metadata.namespace ?? '') ?? {}) : undefined;
    if (policy) selected.get(policy.name)!.push(i.vm);
    const memoryBytes = vmi ? vmiMemoryBytes(vmi) : undefined;
    const dirtyRate = dirtyRates.get(i.vm);
    return { impact: i, limits: limitsFor(limits, policy), ...(memoryBytes !== undefined ? { memoryBytes } : {}), ...(dirtyRate !== undefined ? { dirtyRate } : {}), ...(i.fate === 'restart' ? { restart: restartTime(vmi) } : {}) };
  });
  const bandwidth = estimateBandwidth(migrationSamples(reads.migrations, vmis), limits.bandwidthPerMigration);
  const { eta, byVm } = estimateHop({ vms: facts, limits, bandwidth, rollout: rolloutEstimate(Math.max(1, reads.nodes.length), reads.lastRollout) });
  const annotations = new Map((owners?.vms ?? []).map((v) => [key(v.metadata), v.metadata.annotations]));
  const hop = { rolloutSeconds: eta.parts.find((p) => p.what === 'pack-rollout')?.p50Seconds ?? 0, totalSeconds: eta.p50Seconds };
  return {
    view: { limits, policies: policies.map((p) => ({ ...p, vms: selected.get(p.name) ?? [] })), bandwidth, eta },
    impact: impact.map((i) => {
      const timed = { ...i, ...byVm.get(i.vm) };
      return owners ? { ...timed, ...ownLimitFields(timed, ownLimitsOf(annotations.get(i.vm)), owners.nowMs, hop) } : timed;
    }),
  };
}
