/**
 * The log tails a diagnosis reads, bounded twice: a tail of each log, and a cap on how many pods.
 * virt-handler pods are found with one list call (label `kubevirt.io=virt-handler`) and read only
 * on the affected nodes; launcher pods with one list call, read only for the affected VMIs.
 *
 * Every read names its container. A virt-handler pod has a second container when image pull
 * secrets are set (`virt-launcher-image-holder`) or with persistent reservation (`pr-helper`), and
 * for a pod of several containers the apiserver refuses a read that names none (400, "a container
 * name must be specified for pod ..., choose one of: [...]"). virt-handler logs in its
 * `virt-handler` container, the launcher in `compute` (KubeVirt's pod templates,
 * pkg/virt-operator/resource/generate/components/daemonsets.go and pkg/virt-controller/services/template.go).
 *
 * A log that cannot be read (the pod went away since the list, the apiserver refused the read) is
 * evidence the diagnosis goes without: it is listed as such, with the cluster's words, never
 * dropped. An unreachable cluster or expired credentials stop the step.
 */
import { isKubeError } from '../../kube/errors.js';
import type { ClusterReader } from '../../kube/reader.js';
import type { Pod } from '../../kube/schemas.js';
import type { AffectedVmi } from './affected.js';
import { keyOf } from './cluster-view.js';
import type { SourceText } from './diagnose-types.js';

export interface LogRead {
  sources: SourceText[];
  pods: string[];
  unreadable: string[];
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/** The container each kind of pod logs in. */
export const HANDLER_CONTAINER = 'virt-handler';
export const LAUNCHER_CONTAINER = 'compute';

interface ReadTarget {
  pod: Pod;
  tail: number;
  container: string;
  label: string;
  kind: SourceText['kind'];
}

async function readLog(reader: ClusterReader, t: ReadTarget, out: LogRead, signal: AbortSignal | undefined): Promise<void> {
  const { pod, tail, container, label, kind } = t;
  const ns = pod.metadata.namespace ?? '';
  try {
    const text = await reader.podLog(ns, pod.metadata.name, tail, container);
    out.sources.push({ kind, label, lines: lines(text) });
    out.pods.push(keyOf(pod));
  } catch (err) {
    // A read cut short by the operator stopping the run is an interruption, not an unreadable log.
    if (signal?.aborted || (!isKubeError(err, 'not-found') && !isKubeError(err, 'failed'))) throw err;
    out.unreadable.push(`the ${container} log of ${keyOf(pod)}: ${err.message}`);
  }
}

export async function handlerLogs(reader: ClusterReader, namespace: string, nodes: string[], maxPods: number, tail: number, signal?: AbortSignal): Promise<LogRead> {
  const out: LogRead = { sources: [], pods: [], unreadable: [] };
  if (nodes.length === 0) return out;
  const pods = await reader.pods({ namespace, labelSelector: 'kubevirt.io=virt-handler' });
  const onNode = new Map(pods.map((p) => [p.spec?.nodeName ?? '', p]));
  const chosen = nodes.flatMap((n) => (onNode.has(n) ? [onNode.get(n)!] : [])).slice(0, maxPods);
  await Promise.all(chosen.map((pod) => readLog(reader, { pod, tail, container: HANDLER_CONTAINER, label: `virt-handler ${keyOf(pod)} on ${pod.spec?.nodeName ?? '?'} (last ${tail} lines)`, kind: 'virtHandlerLogs' }, out, signal)));
  out.sources.sort((a, b) => a.label.localeCompare(b.label));
  out.pods.sort();
  return out;
}

export async function launcherLogs(reader: ClusterReader, vmis: AffectedVmi[], maxPods: number, tail: number, signal?: AbortSignal): Promise<LogRead> {
  const out: LogRead = { sources: [], pods: [], unreadable: [] };
  if (vmis.length === 0) return out;
  const pods = await reader.pods({ labelSelector: 'kubevirt.io=virt-launcher' });
  const byVmi = new Map<string, Pod[]>();
  for (const p of pods) {
    const uid = p.metadata.labels?.['kubevirt.io/created-by'];
    if (uid) byVmi.set(uid, [...(byVmi.get(uid) ?? []), p]);
  }
  // The active launcher of each VMI first (migration targets carry a migrationJobUID), one per VMI, then the rest.
  const ordered = vmis.map((v) => (v.uid ? (byVmi.get(v.uid) ?? []) : []).sort((a, b) => Number('kubevirt.io/migrationJobUID' in (a.metadata.labels ?? {})) - Number('kubevirt.io/migrationJobUID' in (b.metadata.labels ?? {}))));
  const chosen: Array<{ pod: Pod; vmi: string }> = [];
  for (let round = 0; chosen.length < maxPods && ordered.some((list) => list.length > round); round++) {
    ordered.forEach((list, i) => {
      if (chosen.length < maxPods && list[round]) chosen.push({ pod: list[round]!, vmi: vmis[i]!.key });
    });
  }
  await Promise.all(chosen.map(({ pod, vmi }) => readLog(reader, { pod, tail, container: LAUNCHER_CONTAINER, label: `virt-launcher ${keyOf(pod)} (VMI ${vmi}, last ${tail} lines)`, kind: 'launcherLogs' }, out, signal)));
  out.sources.sort((a, b) => a.label.localeCompare(b.label));
  out.pods.sort();
  return out;
}
