/** 9.3.6: all nodes Ready; no pods outside Running/Succeeded; the platform agent is healthy. */
import type { CheckSpec } from '../check-schema.js';
import { podProblem } from './pod-health.js';
import type { VerifyData } from './types.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'nodes' }>['with'];

export function checkNodes(data: VerifyData, p: Params): Verdict {
  const blocked = unreadable(data.nodes, data.unhealthyPods, data.agentPods, data.backOffPods);
  if (blocked) return blocked;
  const problems: string[] = [];
  const warnings: string[] = [];
  const nodes = value(data.nodes);
  for (const n of nodes) {
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') problems.push(`node ${n.metadata.name}: not Ready${ready?.reason ? ` (${ready.reason})` : ''}`);
    if (n.spec?.unschedulable) warnings.push(`node ${n.metadata.name}: cordoned (unschedulable)`);
  }
  for (const pod of value(data.unhealthyPods)) problems.push(`pod ${nsName(pod.metadata)}: ${podProblem(pod) ?? pod.status?.phase ?? 'not Running'}`);
  for (const pod of value(data.backOffPods)) {
    const problem = podProblem(pod);
    if (problem) problems.push(`pod ${nsName(pod.metadata)}: ${problem}`);
  }
  const agents = value(data.agentPods);
  for (const ns of p.agentNamespaces) {
    if (!agents.some((a) => a.metadata.namespace === ns)) problems.push(`platform agent: no pods in ${ns}`);
  }
  for (const a of agents) {
    const problem = podProblem(a);
    if (problem) problems.push(`platform agent ${nsName(a.metadata)}: ${problem}`);
  }
  const summary = `${nodes.length} node(s), ${nodes.length - problems.filter((x) => x.startsWith('node ')).length} Ready; ${agents.length} agent pod(s)`;
  if (problems.length) return verdict('fail', summary, [...problems, ...warnings], 'Look at NotReady nodes (kubectl describe node) and failing pods before declaring the upgrade done.');
  if (warnings.length) return verdict('warn', summary, warnings, 'Uncordon nodes once maintenance is over.');
  return verdict('pass', summary);
}
