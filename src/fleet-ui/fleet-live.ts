/** A cluster session's state → what its row on the fleet screen shows (step, hop, VMs, health). Pure. */
import { currentStep, steps, type SessionState, type StepState } from '../engine/state.js';
import type { PreflightItem } from '../steps/preflight/types.js';
import { vmSummary } from '../fleet/report-build.js';
import { motionOf } from '../fleet/motion.js';
import { vmFates } from '../report/vms.js';
import type { ClusterLive } from './types.js';

export function clusterLive(state: SessionState, gateTitle?: string): ClusterLive {
  const step = currentStep(state);
  const all = steps(state);
  const hops = all.find((s) => s.hop)?.hop?.count;
  const vms = vmSummary(vmFates(state));
  const health = healthOf(all);
  // Every step finished: the last hop reached, the run's end in words.
  const ended = !step && state.run.status === 'done';
  const motion = motionOf(state);
  return {
    ...(step ? { step: step.title } : ended ? { step: 'finished' } : {}),
    ...(step?.hop ? { hop: `${step.hop.index}/${step.hop.count}` } : hops ? { hop: ended ? `${hops}/${hops}` : `-/${hops}` } : {}),
    vms: { migrated: vms.migrated, restarted: vms.restarted, outstanding: vms.outstanding },
    health,
    ...(gateTitle ? { gate: gateTitle } : {}),
    ...(motion && !motion.settled ? { applied: true } : {}),
    ...(motion?.rolling ? { rolling: true } : {}),
  };
}

/**
 * The cluster's health as last read: the verification's verdict once it ran, else preflight's
 * unhealthy facts (as it reads them, so a health gate shows them), else "-" (not read yet). Never
 * the run's status or a gate: those have their own columns.
 */
export function healthOf(all: readonly StepState[]): string {
  const verify = [...all].reverse().find((s) => s.kind === 'verify' && s.output !== undefined)?.output as { overall?: string } | undefined;
  if (verify?.overall) return verify.overall;
  const preflight = all.find((s) => s.kind === 'preflight');
  const items = ((preflight?.output ?? preflight?.live) as { items?: PreflightItem[] } | undefined)?.items;
  if (!items) return '-';
  const unhealthy = items.filter((i) => i.status === 'fail' && i.failure === 'health').reduce((n, i) => n + Math.max(1, i.health?.length ?? 0), 0);
  return unhealthy ? `${unhealthy} red` : 'ok';
}
