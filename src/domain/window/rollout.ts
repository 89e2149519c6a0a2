/**
 * How long the pack rollout takes before any VM moves: Palette's agent picks the published change up
 * and applies the packs, then virt-operator replaces virt-api and virt-controller and rolls
 * virt-handler (a canary node, then a tenth of the nodes at a time: virt-operator's DaemonSet
 * update), and CDI's operator replaces its four deployments. The workload updater acts only once
 * the KubeVirt rollout is done (observed = target).
 *
 * KubeVirt's part is learned from the cluster's own last rollout when it left a record: the pods
 * virt-operator manages carry the version they run (`app.kubernetes.io/version`), so the earliest
 * creation among those of the observed version is when that rollout began, and the KubeVirt CR's
 * `Progressing` condition turning False (`AllComponentsReady`, both timestamps stamped by
 * pkg/virt-operator/util/client.go) is when it ended. Events would say the same, but the API server
 * keeps them an hour (`--event-ttl`), so they are seldom there a week later. Without such a record
 * (a fresh install: every pod created at once; pods replaced since: the span is not a rollout)
 * the runbook's figures per step are used, those of a small real cluster; the pessimistic bound
 * doubles what is assumed (image pulls, a slow node) and adds half to what was learned.
 */
import type { Pod } from '../../kube/schemas.js';
import type { SecondsRange } from './types.js';
import { roughDuration } from '../../text/duration.js';

const agentPickupAndApply = 90;
const controlPlaneDeployments = 3 * 30;
const handlerBatch = 30;
const cdiDeployments = 4 * 20;

/** A span shorter than this is a fresh install (all at once), longer is not one rollout (pods replaced later). */
const plausible = { min: 30, max: 6 * 3600 };

export interface LastRollout {
  version: string;
  seconds: number;
  /** The pods the start came from. */
  pods: number;
}

/** KubeVirt's last rollout on this cluster, from its pods and the KubeVirt CR's `Progressing` transition. */
export function lastKubevirtRollout(pods: readonly Pod[], observedVersion: string | undefined, progressingFalseAt: string | undefined): LastRollout | undefined {
  if (!observedVersion || !progressingFalseAt) return undefined;
  const end = Date.parse(progressingFalseAt);
  const mine = pods.filter((p) => {
    const l = p.metadata.labels ?? {};
    return l['app.kubernetes.io/managed-by'] === 'virt-operator' && l['app.kubernetes.io/version'] === observedVersion && l['kubevirt.io'] !== 'virt-operator';
  });
  const created = mine.map((p) => Date.parse(p.metadata.creationTimestamp ?? '')).filter((t) => Number.isFinite(t));
  if (!created.length || !Number.isFinite(end)) return undefined;
  const seconds = (end - Math.min(...created)) / 1000;
  return seconds >= plausible.min && seconds <= plausible.max ? { version: observedVersion, seconds: Math.round(seconds), pods: created.length } : undefined;
}

export function rolloutEstimate(nodes: number, last?: LastRollout): SecondsRange & { basis: string; source: 'last-rollout' | 'runbook' } {
  if (last) {
    const assumed = agentPickupAndApply + cdiDeployments;
    return {
      p50: assumed + last.seconds,
      p90: 2 * assumed + Math.round(1.5 * last.seconds),
      source: 'last-rollout',
      basis: `pack rollout: KubeVirt's part learned from this cluster's last rollout (to ${last.version}: ${roughDuration(last.seconds)} from its first new pod to Progressing=False on the KubeVirt resource, ${last.pods} pod(s) of that version); Palette's apply and CDI from the runbook's figure`,
    };
  }
  const batches = 1 + Math.ceil(Math.max(0, nodes - 1) / Math.max(1, Math.ceil(nodes / 10)));
  const p50 = agentPickupAndApply + controlPlaneDeployments + batches * handlerBatch + cdiDeployments;
  return {
    p50,
    p90: p50 * 2,
    source: 'runbook',
    basis: `pack rollout: the runbook's figure: Palette applies the packs, KubeVirt replaces its control plane and rolls virt-handler over ${nodes} node(s) in ${batches} batch(es), CDI follows (no rollout of this cluster on record to learn from)`,
  };
}
