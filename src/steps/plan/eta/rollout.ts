/**
 * How long the pack rollout takes before any VM moves: Palette's agent picks the published change up
 * and applies the packs, then virt-operator replaces virt-operator, virt-api and virt-controller and
 * rolls virt-handler (a canary node, then a tenth of the nodes at a time: virt-operator's DaemonSet
 * update), and CDI's operator replaces its four deployments. The workload updater acts only once
 * the KubeVirt rollout is done (observed = target). Figures per step are those of a small real
 * cluster; the pessimistic bound doubles them (image pulls, a slow node).
 */
import type { SecondsRange } from './types.js';

const agentPickupAndApply = 90;
const controlPlaneDeployments = 3 * 30;
const handlerBatch = 30;
const cdiDeployments = 4 * 20;

export function rolloutEstimate(nodes: number): SecondsRange & { basis: string } {
  const batches = 1 + Math.ceil(Math.max(0, nodes - 1) / Math.max(1, Math.ceil(nodes / 10)));
  const p50 = agentPickupAndApply + controlPlaneDeployments + batches * handlerBatch + cdiDeployments;
  return {
    p50,
    p90: p50 * 2,
    basis: `pack rollout: Palette applies the packs, KubeVirt replaces its control plane and rolls virt-handler over ${nodes} node(s) in ${batches} batch(es), CDI follows (no rollout of this cluster on record to learn from)`,
  };
}
