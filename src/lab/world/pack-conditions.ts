/**
 * The condition Palette reports for one pack of an attached profile version (`status.packs[].condition`):
 * `Ready`/True once the agent has applied it and everything settled, `Progressing` while the change
 * waits (queued, for the agent, for a repave approval) or deploys, `Error` with the helm message
 * when its upgrade failed.
 */
import type { LabCondition } from '../palette/types.js';
import type { ProfileRole, Reconciler } from './reconcile.js';

const ready: LabCondition = { type: 'Ready', status: 'True', reason: 'Deployed' };
const progressing = (reason: string, message: string): LabCondition => ({ type: 'Progressing', status: 'True', reason, message });

export function packStateLabel(reconciler: Reconciler, role: ProfileRole, uid: string, pack: string, waitingForRepave: boolean): LabCondition {
  const p = reconciler.progress(role);
  if (!p || p.uid !== uid) {
    return reconciler.appliedProfile(role).uid === uid ? ready : progressing('Queued', 'waiting for the agent to pick up the change');
  }
  if (p.error?.pack === pack) return { type: 'Error', status: 'True', reason: 'HelmUpgradeFailed', message: p.error.message };
  switch (p.phase) {
    case 'held':
      return waitingForRepave ? progressing('WaitingForRepaveApproval', 'the change rebuilds nodes: waiting for the repave approval') : progressing('Queued', 'waiting for the change to be released');
    case 'queued':
      return progressing('Queued', 'another change is being applied first');
    case 'pickup':
      return progressing('WaitingForAgent', 'the cluster agent is picking up the change');
    default:
      if (!p.changed.includes(pack)) return ready;
      return p.applied.has(pack) ? progressing('Deploying', 'applied; waiting for its workloads to settle') : progressing('Pending', 'waiting for its turn');
  }
}
