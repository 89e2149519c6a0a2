/** 9.3.6: all nodes Ready; no pods outside Running/Succeeded; the platform agent is healthy. Pods that failed before this upgrade are listed as pre-existing. */
import type { CheckSpec } from '../../kube/check-schema.js';
import type { Pod } from '../../kube/schemas.js';
import { PRE_EXISTING_HINT, timelineOf } from './history.js';
import { judgePod } from './pod-health.js';
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'nodes' }>['with'];

export function checkNodes(data: VerifyData, p: Params, exp: VerifyExpectations = {}): Verdict {
  const blocked = unreadable(data.nodes, data.unhealthyPods, data.agentPods, data.backOffPods);
  if (blocked) return blocked;
  const t = timelineOf(exp);
  const problems: string[] = [];
  const warnings: string[] = [];
  const past: string[] = [];
  const nodes = value(data.nodes);
  for (const n of nodes) {
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') problems.push(`node ${n.metadata.name}: not Ready${ready?.reason ? ` (${ready.reason})` : ''}`);
    if (n.spec?.unschedulable) warnings.push(`node ${n.metadata.name}: cordoned (unschedulable)`);
  }
  const seen = new Set<string>();
  const judge = (label: string, pods: Pod[]) => {
    for (const pod of pods) {
      const key = nsName(pod.metadata);
      if (seen.has(key)) continue;
      seen.add(key);
      const v = judgePod(pod, t);
      if (v.kind === 'problem') problems.push(`${label} ${key}: ${v.text}`);
      else if (v.kind === 'pre-existing') past.push(`${label} ${key}: ${v.text}`);
    }
  };
  judge('pod', value(data.unhealthyPods));
  judge('pod', value(data.backOffPods));
  const agents = value(data.agentPods);
  for (const ns of p.agentNamespaces) {
    if (!agents.some((a) => a.metadata.namespace === ns)) problems.push(`platform agent: no pods in ${ns}`);
  }
  judge('platform agent', agents);
  const notReady = problems.filter((x) => x.startsWith('node ')).length;
  const summary = `${nodes.length} node(s), ${nodes.length - notReady} Ready; ${agents.length} agent pod(s)${past.length ? `; ${past.length} pod(s) failed before this upgrade` : ''}`;
  if (problems.length) return verdict('fail', summary, [...problems, ...warnings, ...past], 'Look at NotReady nodes (kubectl describe node) and failing pods before declaring the upgrade done.');
  if (warnings.length || past.length) return verdict('warn', summary, [...warnings, ...past], warnings.length ? 'Uncordon nodes once maintenance is over.' : PRE_EXISTING_HINT);
  return verdict('pass', summary);
}
