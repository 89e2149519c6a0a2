/** 9.3.5: only intended services hold load-balancer addresses; the ingress has the fixed address; secondary networks remain. */
import type { CheckSpec } from '../../kube/check-schema.js';
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { strayAddresses } from './upgrade-health.js';
import { nsName, unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'network' }>['with'];

export function checkNetwork(data: VerifyData, exp: VerifyExpectations, p: Params): Verdict {
  const blocked = unreadable(data.services, data.nads);
  if (blocked) return blocked;
  const problems: string[] = [];
  // A site without an ingress controller (no ingressIP in the params) has no ingress to expect.
  const expectIngress = p.ingressIP !== null;
  const intended = new Set([...p.loadBalancerServices, ...(expectIngress ? [p.ingressService] : [])]);
  const services = value(data.services);
  const holders = services.filter((s) => (s.status?.loadBalancer?.ingress ?? []).length > 0);
  for (const s of strayAddresses(services, intended)) problems.push(`${s.service} holds ${s.addresses.join(', ')} but should hold no load-balancer address`);
  const ingress = services.find((s) => nsName(s.metadata) === p.ingressService);
  const ingressIps = (ingress?.status?.loadBalancer?.ingress ?? []).map((i) => i.ip);
  if (p.ingressIP === null) {
    // no ingress controller: nothing to expect of one
  } else if (!ingress) problems.push(`ingress service ${p.ingressService} not found`);
  else if (!ingressIps.includes(p.ingressIP)) problems.push(`ingress service ${p.ingressService} holds ${ingressIps.join(', ') || 'no address'}, expected ${p.ingressIP}`);
  const nads = new Set(value(data.nads).map((n) => nsName(n.metadata)));
  const missing = (exp.baseline?.nads ?? []).filter((n) => !nads.has(n));
  for (const n of missing) problems.push(`network attachment definition ${n} is gone (it existed before the upgrade)`);
  const nadNote = data.nads?.ok ? data.nads.note : undefined;
  const summary = `${holders.length} service(s) with load-balancer addresses; ${nadNote ?? `${nads.size} network attachment definition(s)`}`;
  return problems.length
    ? verdict('fail', summary, problems, 'Leaked addresses mean autoAssign was lost from the load balancer pack; a wrong ingress address means loadBalancerIP was lost. Restore them and publish again.')
    : verdict('pass', expectIngress ? `${summary}; ingress at ${p.ingressIP}.` : `${summary}; no ingress controller on this site.`);
}
