/** 9.3.2: VM orchestration and data importer pods Running and Ready; the observed versions are the new ones. */
import type { CheckSpec } from '../../kube/check-schema.js';
import type { Pod } from '../../kube/schemas.js';
import { PRE_EXISTING_HINT, timelineOf, type Timeline } from './history.js';
import { judgePod } from './pod-health.js';
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'components' }>['with'];

/** Each component has a pod, and each of its pods is healthy; one that failed before this upgrade is listed apart. */
function podFindings(pods: Pod[], namespace: string, prefixes: string[], t: Timeline): { problems: string[]; past: string[] } {
  const inNs = pods.filter((p) => p.metadata.namespace === namespace);
  const problems: string[] = [];
  const past: string[] = [];
  for (const prefix of prefixes) {
    const matching = inNs.filter((p) => p.metadata.name.startsWith(`${prefix}-`) || p.metadata.name === prefix);
    if (matching.length === 0) problems.push(`${namespace}/${prefix}-*: no pod found`);
    for (const pod of matching) {
      const v = judgePod(pod, t);
      if (v.kind === 'problem') problems.push(`${nsName(pod.metadata)}: ${v.text}`);
      else if (v.kind === 'pre-existing') past.push(`${nsName(pod.metadata)}: ${v.text}`);
    }
  }
  return { problems, past };
}

export function checkComponents(data: VerifyData, exp: VerifyExpectations, p: Params): Verdict {
  const blocked = unreadable(data.kubevirt, data.cdi, data.componentPods);
  if (blocked) return blocked;
  const problems: string[] = [];
  const kv = value(data.kubevirt);
  let observed = '';
  if (!kv) problems.push(`KubeVirt resource ${p.kubevirt.namespace}/${p.kubevirt.name} not found`);
  else {
    const s = kv.status ?? {};
    observed = s.observedKubeVirtVersion ?? '';
    if (s.phase !== 'Deployed') problems.push(`KubeVirt phase ${s.phase ?? 'unknown'}, expected Deployed`);
    if (s.targetKubeVirtVersion && s.observedKubeVirtVersion !== s.targetKubeVirtVersion) problems.push(`KubeVirt rollout not finished: observed ${observed || 'none'}, target ${s.targetKubeVirtVersion}`);
    if (exp.kubevirtVersion && observed !== exp.kubevirtVersion) problems.push(`KubeVirt observed version ${observed || 'none'}, expected ${exp.kubevirtVersion}`);
  }
  const cdi = value(data.cdi);
  if (!cdi) problems.push(`CDI resource ${p.cdi.name} not found`);
  else {
    if (cdi.status?.phase !== 'Deployed') problems.push(`CDI phase ${cdi.status?.phase ?? 'unknown'}, expected Deployed`);
    if (exp.cdiVersion && cdi.status?.observedVersion !== exp.cdiVersion) problems.push(`CDI observed version ${cdi.status?.observedVersion ?? 'none'}, expected ${exp.cdiVersion}`);
  }
  const pods = value(data.componentPods);
  const t = timelineOf(exp);
  const past: string[] = [];
  for (const [ns, prefixes] of [[p.kubevirt.namespace, p.kubevirtPods], [p.cdi.namespace, p.cdiPods]] as const) {
    const found = podFindings(pods, ns, prefixes, t);
    problems.push(...found.problems);
    past.push(...found.past);
  }
  const versions = `KubeVirt ${observed || '?'}, CDI ${cdi?.status?.observedVersion ?? '?'}`;
  // Healthy but older than expected: the upgrade has not reached the cluster (yet), nothing is broken.
  const onlyVersions = problems.length > 0 && problems.every((p) => / observed version .*, expected /.test(p));
  const remediation = onlyVersions
    ? 'The cluster does not run the target versions yet: upgrade it (upgrade-pilot start), or let a rollout in progress finish.'
    : 'Look at the failing pods (kubectl -n kubevirt describe pod ...) and the KubeVirt resource conditions; a rollout in progress finishes on its own.';
  if (problems.length) return verdict('fail', `${problems.length} problem(s) with the VM orchestration components (${versions}).`, [...problems, ...past], remediation);
  if (past.length) return verdict('warn', `Deployed and healthy: ${versions}; ${past.length} pod(s) failed before this upgrade.`, past, PRE_EXISTING_HINT);
  return verdict('pass', `Deployed and healthy: ${versions}.`);
}
