/** A cluster session's state → what its row on the fleet screen shows (step, hop, VMs, health). Pure. */
import { currentStep, steps, type SessionState } from '../../engine/state.js';
import { vmSummary } from '../../fleet/report-build.js';
import { vmFates } from '../../report/vms.js';
import type { ClusterLive } from './types.js';

export function clusterLive(state: SessionState, gateTitle?: string): ClusterLive {
  const step = currentStep(state);
  const all = steps(state);
  const hops = all.find((s) => s.hop)?.hop?.count;
  const verify = [...all].reverse().find((s) => s.kind === 'verify' && s.output !== undefined)?.output as { overall?: string } | undefined;
  const vms = vmSummary(vmFates(state));
  const health = gateTitle ? 'gate' : state.run.status === 'failed' ? 'failed' : (verify?.overall ?? 'ok');
  // Every step finished: the last hop reached, the run's end in words.
  const ended = !step && state.run.status === 'done';
  return {
    ...(step ? { step: step.title } : ended ? { step: 'finished' } : {}),
    ...(step?.hop ? { hop: `${step.hop.index}/${step.hop.count}` } : hops ? { hop: ended ? `${hops}/${hops}` : `-/${hops}` } : {}),
    vms: { migrated: vms.migrated, restarted: vms.restarted, outstanding: vms.outstanding },
    health,
    ...(gateTitle ? { gate: gateTitle } : {}),
  };
}
