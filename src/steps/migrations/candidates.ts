/**
 * Which VMs recovery may offer to restart, and which migrations it offers to cancel. The rules are
 * the safety rules of spec 9.1.4 and this tool: only VMIs still on the old launcher, only those
 * Running now, only those that were running at the baseline (a VM the operator had stopped is
 * never started by a "restart"), only VMs KubeVirt can restart. Pure, tested with tables.
 */
import type { Vm, Vmi, Vmim } from '../../kube/schemas.js';
import type { VmImpact } from '../../domain/impact/vm-impact.js';
import { imageTag, keyOf, liveMigratable, parseTime, vmiKeyOf } from './cluster-view.js';
import { isInFlight, phaseOf } from './phases.js';

export interface RestartCandidate {
  /** `namespace/name` (VM and VMI share it). */
  vm: string;
  namespace: string;
  name: string;
  node: string;
  migratable: boolean;
  notMigratableReason?: string;
  launcher?: string;
  /** Rehearsal only: not outdated today, but the plan predicts it will need a restart. */
  predicted?: { reason: string };
}

export interface NotOffered {
  vm: string;
  reason: string;
}

export interface Baseline {
  vmis: ReadonlySet<string>;
  /** `snapshot`: the session's snapshot step; `first-look`: no snapshot, what recovery saw running first. */
  source: 'snapshot' | 'first-look';
}

const refusingStrategies = new Set(['Halted', 'Once']);

export function selectCandidates(outdated: Vmi[], vms: Vm[], baseline: Baseline): { offered: RestartCandidate[]; notOffered: NotOffered[] } {
  const vmByKey = new Map(vms.map((v) => [keyOf(v), v]));
  const offered: RestartCandidate[] = [];
  const notOffered: NotOffered[] = [];
  for (const vmi of [...outdated].sort((a, b) => keyOf(a).localeCompare(keyOf(b)))) {
    const key = keyOf(vmi);
    const phase = vmi.status?.phase ?? 'Pending';
    const vm = vmByKey.get(key);
    const strategy = vm?.spec?.runStrategy;
    if (phase !== 'Running') notOffered.push({ vm: key, reason: `not running now (phase ${phase}): not restarted` });
    else if (!baseline.vmis.has(key)) {
      notOffered.push({ vm: key, reason: baseline.source === 'snapshot' ? 'was not running at the snapshot baseline: never restarted' : 'was not running when recovery first looked: never restarted' });
    } else if (!vm) notOffered.push({ vm: key, reason: 'no VirtualMachine owns this VMI, so KubeVirt cannot restart it' });
    else if (strategy && refusingStrategies.has(strategy)) notOffered.push({ vm: key, reason: `runStrategy ${strategy} does not allow a restart` });
    else {
      const lm = liveMigratable(vmi);
      const launcher = imageTag(vmi.status?.launcherContainerImageVersion);
      offered.push({
        vm: key,
        namespace: vmi.metadata.namespace ?? '',
        name: vmi.metadata.name,
        node: vmi.status?.nodeName ?? '?',
        migratable: lm.migratable,
        ...(lm.reason ? { notMigratableReason: lm.reason } : {}),
        ...(launcher ? { launcher } : {}),
      });
    }
  }
  return { offered, notOffered };
}

/** Rehearsal: VMs the plan predicts will need a restart, that are not outdated today. */
export function predictedCandidates(impact: VmImpact[], baseline: Baseline, already: ReadonlySet<string>): RestartCandidate[] {
  return impact
    .filter((i) => i.fate === 'restart' && !already.has(i.vm) && baseline.vmis.has(i.vm))
    .map((i) => {
      const [namespace = '', name = ''] = i.vm.split('/');
      return { vm: i.vm, namespace, name, node: i.node ?? '?', migratable: false, predicted: { reason: i.reason } };
    });
}

export interface StuckMigration {
  key: string;
  namespace: string;
  name: string;
  vmi: string;
  phase: string;
  ageMs: number;
  source?: string;
  target?: string;
}

/** Migrations still in flight for VMIs on the old launcher: the stuck ones recovery cancels. */
export function migrationsToCancel(migrations: Vmim[], outdated: Vmi[], now: number): StuckMigration[] {
  const outdatedKeys = new Set(outdated.map(keyOf));
  return migrations
    .filter((m) => isInFlight(phaseOf(m)) && outdatedKeys.has(vmiKeyOf(m)))
    .map((m) => {
      const ms = m.status?.migrationState;
      const started = parseTime(m.metadata.creationTimestamp);
      return {
        key: keyOf(m),
        namespace: m.metadata.namespace ?? '',
        name: m.metadata.name,
        vmi: vmiKeyOf(m),
        phase: phaseOf(m),
        ageMs: started === undefined ? 0 : Math.max(0, now - started),
        ...(ms?.sourceNode ? { source: ms.sourceNode } : {}),
        ...(ms?.targetNode ? { target: ms.targetNode } : {}),
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
