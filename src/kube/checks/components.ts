/** 9.3.2: VM orchestration and data importer pods Running and Ready; the observed versions are the new ones. */
import type { CheckSpec } from '../check-schema.js';
import type { Pod } from '../schemas.js';
import { podProblem } from './pod-health.js';
import type { VerifyData, VerifyExpectations } from './types.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'components' }>['with'];

function podFindings(pods: Pod[], namespace: string, prefixes: string[]): string[] {
  const inNs = pods.filter((p) => p.metadata.namespace === namespace);
  const out: string[] = [];
  for (const prefix of prefixes) {
    const matching = inNs.filter((p) => p.metadata.name.startsWith(`${prefix}-`) || p.metadata.name === prefix);
    if (matching.length === 0) out.push(`${namespace}/${prefix}-*: no pod found`);
    for (const pod of matching) {
      const problem = podProblem(pod);
      if (problem) out.push(`${nsName(pod.metadata)}: ${problem}`);
    }
  }
  return out;
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
  problems.push(...podFindings(pods, p.kubevirt.namespace, p.kubevirtPods), ...podFindings(pods, p.cdi.namespace, p.cdiPods));
  const versions = `KubeVirt ${observed || '?'}, CDI ${cdi?.status?.observedVersion ?? '?'}`;
  // Healthy but older than expected: the upgrade has not reached the cluster (yet), nothing is broken.
  const onlyVersions = problems.length > 0 && problems.every((p) => / observed version .*, expected /.test(p));
  const remediation = onlyVersions
    ? 'The cluster does not run the target versions yet: upgrade it (upgrade-pilot start), or let a rollout in progress finish.'
    : 'Look at the failing pods (kubectl -n kubevirt describe pod ...) and the KubeVirt resource conditions; a rollout in progress finishes on its own.';
  return problems.length ? verdict('fail', `${problems.length} problem(s) with the VM orchestration components (${versions}).`, problems, remediation) : verdict('pass', `Deployed and healthy: ${versions}.`);
}
