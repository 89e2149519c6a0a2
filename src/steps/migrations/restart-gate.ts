/**
 * The gate before each VM restart: which VM, where it runs, why it needs the restart, what the
 * restart does to it; Restart / Skip / Abort recovery with Skip focused; optionally the VM's name
 * typed to confirm. Also the one gate that cancels every stuck migration at once.
 */
import type { GateAsk } from '../../engine/context.js';
import { restartOptions, type GateOption } from '../../engine/gate.js';
import type { RestartCandidate, StuckMigration } from './candidates.js';
import { durationRange, formatDuration } from '../../text/duration.js';

export interface RestartGateOptions {
  key: string;
  why: string;
  confirmByName: boolean;
  restartWaitMs: number;
  baseline: 'snapshot' | 'first-look';
  position: { index: number; total: number };
  /** The VM owner's limits, as the plan read them, judged now (issue 27). */
  owner?: OwnerVerdict;
  /** How long the plan predicts this restart keeps the VM down (its last boot on record, else the runbook's figure). */
  predicted?: { p50: number; p90: number };
}

export interface OwnerVerdict {
  /** Set when the restart is outside the VM's restart window (or the window cannot be read): why, and when it opens. */
  outside?: string;
  /** A warning when a restart costs more downtime than the owner allows. */
  downtime?: string;
}

export function restartGate(c: RestartCandidate, o: RestartGateOptions): GateAsk {
  const warnings: string[] = [];
  if (o.baseline === 'first-look') warnings.push('This session has no snapshot baseline: only VMs that were running when recovery first looked are offered.');
  if (c.predicted) warnings.push('Predicted by the plan: today this VM is not on an outdated launcher (rehearsal).');
  if (o.owner?.outside) warnings.push(`Its owner limits restarts: ${o.owner.outside}. Only --approve-restart ${c.vm} (or Restart here) restarts it now; --approve-all-restarts does not.`);
  if (o.owner?.downtime) warnings.push(o.owner.downtime);
  return {
    gate: 'restart',
    key: o.key,
    title: `Restart VM ${c.vm} (${o.position.index} of ${o.position.total})${o.owner?.outside ? `: ${o.owner.outside}` : ''}`,
    lines: [
      `VM ${c.name} in namespace ${c.namespace}, running on node ${c.node}${c.launcher ? ` with launcher ${c.launcher}` : ''}.`,
      `Why: ${o.why}`,
      `A restart is a graceful shutdown and boot: the guest OS shuts down, then boots again on the current launcher. The VM is unavailable meanwhile: ${o.predicted ? `about ${durationRange(o.predicted.p50, o.predicted.p90)}, as the plan predicts it` : 'usually a few minutes'}.`,
      `Afterwards upgrade-pilot waits (up to ${formatDuration(o.restartWaitMs)}) until it runs again on the current launcher before asking about the next VM.`,
    ],
    ...(warnings.length ? { warnings } : {}),
    options: restartOptions,
    safeChoice: 'skip',
    ifStopped: `${c.vm} keeps running on launcher ${c.launcher ?? 'the old one'}, untouched; KubeVirt's own work goes on without upgrade-pilot (the rollout, and the live migrations of the VMs it can move); only the restarts wait, and a resume asks about this VM again.`,
    subject: { namespace: c.namespace, name: c.name },
    ...(o.owner?.outside ? { byNameOnly: o.owner.outside } : {}),
    ...(o.confirmByName ? { confirmText: c.name } : {}),
  };
}

const cancelOptions = (n: number): GateOption[] => [
  { choice: 'approve', label: `Cancel ${n === 1 ? 'this migration' : `these ${n} migrations`}`, key: 'y' },
  { choice: 'skip', label: 'Leave them (a restart also stops its VM’s migration)', key: 's' },
  { choice: 'abort', label: 'Abort recovery (send nothing)', key: 'a' },
];

export function cancelGate(key: string, stuck: StuckMigration[]): GateAsk {
  return {
    gate: 'cancel-migrations',
    key,
    title: `Cancel ${stuck.length} stuck migration(s)`,
    lines: [
      'These migrations of VMIs still on the old launcher are in flight but will not complete (the runbook: cancel the stuck migration, then restart the VM).',
      'Cancelling deletes each VirtualMachineInstanceMigration; the VMs keep running where they are. The VM restarts are asked one by one afterwards.',
    ],
    // The VMI and how long first: a narrow gate cuts the end of each item.
    items: stuck.map((m) => `${m.vmi}: ${m.phase} for ${formatDuration(m.ageMs)}${m.source ? `, ${m.source} → ${m.target ?? '?'}` : ''} (${m.key})`),
    options: cancelOptions(stuck.length),
    safeChoice: 'abort',
    ifStopped: 'nothing is cancelled: these migrations stay in flight (KubeVirt aborts them at their own timeouts and may retry them) and the VMs keep running where they are; a resume asks again.',
  };
}
