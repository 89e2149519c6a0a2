/** Evaluates each check of the runbook on data fetched once; pure. */
import type { CheckSpec } from '../../kube/check-schema.js';
import { checkComponents } from './components.js';
import { checkNetwork } from './network.js';
import { checkNodes } from './nodes.js';
import { checkProfiles } from './profiles.js';
import { checkStorage } from './storage.js';
import type { CheckResult, VerifyExpectations } from './types.js';
import type { Fetched, VerifyData } from '../../kube/checks/verify-data.js';
import { checkWorkloads } from './workloads.js';
import type { Verdict } from './verdict.js';

const needs: Record<CheckSpec['kind'], Array<keyof VerifyData>> = {
  profiles: ['profiles'],
  components: ['kubevirt', 'cdi', 'componentPods'],
  workloads: ['vmis', 'migrations'],
  storage: ['storageCluster', 'storageClasses'],
  network: ['services', 'nads'],
  nodes: ['nodes', 'unhealthyPods', 'agentPods', 'backOffPods'],
};

function evaluate(spec: CheckSpec, data: VerifyData, exp: VerifyExpectations): Verdict {
  switch (spec.kind) {
    case 'profiles':
      return checkProfiles(data, exp);
    case 'components':
      return checkComponents(data, exp, spec.with);
    case 'workloads':
      return checkWorkloads(data, exp);
    case 'storage':
      return checkStorage(data, spec.with, exp);
    case 'network':
      return checkNetwork(data, exp, spec.with);
    case 'nodes':
      return checkNodes(data, spec.with, exp);
  }
}

export function runChecks(specs: CheckSpec[], data: VerifyData, exp: VerifyExpectations): CheckResult[] {
  return specs.map((spec) => {
    const started = Date.now();
    const v = evaluate(spec, data, exp);
    // A check takes as long as its slowest read (they run concurrently) plus its own evaluation.
    const fetchMs = Math.max(0, ...needs[spec.kind].map((k) => (data[k] as Fetched<unknown> | undefined)?.ms ?? 0));
    return { id: spec.id, kind: spec.kind, title: spec.title, ...(spec.spec ? { spec: spec.spec } : {}), ...v, durationMs: fetchMs + (Date.now() - started) };
  });
}

export function overallStatus(results: CheckResult[]): 'pass' | 'fail' | 'warn' | 'unknown' {
  if (results.some((r) => r.status === 'fail')) return 'fail';
  if (results.some((r) => r.status === 'unknown')) return 'unknown';
  if (results.some((r) => r.status === 'warn')) return 'warn';
  return 'pass';
}

/** The panels counted by colour, as the verify command and the verify step's headline say it. */
export function countLine(results: CheckResult[]): string {
  const n = (s: string) => results.filter((r) => r.status === s).length;
  return `${n('pass')} green, ${n('fail')} red, ${n('warn')} amber, ${n('unknown')} unknown`;
}
