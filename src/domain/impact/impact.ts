/**
 * What each VM will go through when a hop is published (spec 9.1.2: KubeVirt's workload updater
 * moves every running VM onto the new launcher), predicted before anything is sent:
 *
 * - `live-migrate`: LiveMigrate is a workload update method and the VMI is `LiveMigratable`.
 * - `evict`: Evict is a method and the VMI cannot live-migrate: it is shut down and its VM starts it
 *   again on the new launcher (downtime). An eviction strategy of LiveMigrate (or External) makes
 *   virt-api refuse to evict a VMI that cannot migrate, so that one stays where it is.
 * - `restart`: nothing will move it: it stays on the old launcher until the operator restarts it
 *   (the restart gates), and must be restarted before the next hop.
 * - `not-running`: no running instance; it starts on the new launcher whenever it starts.
 */
import type { Vm, Vmi } from '../../kube/schemas.js';
import type { VmImpact } from './vm-impact.js';
import { reasonText } from './reasons.js';

export interface UpdateStrategy {
  /** `spec.workloadUpdateStrategy.workloadUpdateMethods` of the KubeVirt CR. */
  methods: string[];
  /** `spec.configuration.evictionStrategy`: the default for VMIs that set none. */
  clusterEvictionStrategy?: string;
}

const key = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);
const blocksEviction = new Set(['LiveMigrate', 'External']);

type Fate = Pick<VmImpact, 'fate' | 'reason' | 'reasonCode' | 'explanation' | 'evictionStrategy' | 'runStrategy'>;

function fateOf(strategy: UpdateStrategy, vmi: Vmi, vm: Vm | undefined): Fate {
  const condition = vmi.status?.conditions?.find((c) => c.type === 'LiveMigratable');
  const migratable = condition?.status === 'True';
  // The condition's reason is KubeVirt's code (DisksNotLiveMigratable), said in the reason; what it
  // means and what lifts it goes with it as the explanation.
  const code = !migratable ? condition?.reason : undefined;
  const why = condition ? (condition.reason ?? condition.message ?? 'LiveMigratable is False') : 'no LiveMigratable condition';
  const live = strategy.methods.includes('LiveMigrate');
  const evict = strategy.methods.includes('Evict');
  const eviction = vmi.spec?.evictionStrategy ?? strategy.clusterEvictionStrategy ?? 'None';
  const runStrategy = vm?.spec?.runStrategy ?? (vm?.spec?.running ? 'Always' : vm?.spec?.running === false ? 'Halted' : undefined);
  const facts = { ...(condition && !migratable ? { reasonCode: code ?? 'LiveMigratable=False', explanation: reasonText(code, condition.message) } : {}), evictionStrategy: eviction, ...(runStrategy ? { runStrategy } : {}) };
  if (live && migratable) return { fate: 'live-migrate', reason: 'live-migratable', ...facts };
  if (evict) {
    if (!migratable && blocksEviction.has(eviction)) {
      return { fate: 'restart', reason: `cannot live-migrate (${why}) and its eviction strategy ${eviction} refuses eviction: stays on the old launcher`, ...facts };
    }
    const after = !vm
      ? 'no VM owns it, so nothing starts it again'
      : runStrategy === 'Always' || runStrategy === 'RerunOnFailure'
        ? `started again on the new launcher (runStrategy ${runStrategy})`
        : `stays stopped afterwards (runStrategy ${runStrategy ?? 'unknown'}): start it by hand`;
    return { fate: 'evict', reason: `${live ? `cannot live-migrate (${why}); ` : ''}evicted by the workload updater (downtime), ${after}`, ...facts };
  }
  if (strategy.methods.length === 0) return { fate: 'restart', reason: 'KubeVirt has no workload update method: nothing moves it off the old launcher', ...facts };
  return { fate: 'restart', reason: `cannot live-migrate (${why}) and Evict is not a workload update method: stays on the old launcher`, ...facts };
}

export function predictImpact(strategy: UpdateStrategy, vms: Vm[], vmis: Vmi[]): VmImpact[] {
  const byVmi = new Map(vmis.map((v) => [key(v.metadata), v]));
  const byVm = new Map(vms.map((v) => [key(v.metadata), v]));
  const names = [...new Set([...byVm.keys(), ...byVmi.keys()])].sort();
  return names.map((name): VmImpact => {
    const vmi = byVmi.get(name);
    const vm = byVm.get(name);
    const node = vmi?.status?.nodeName;
    const base = { vm: name, ...(node ? { node } : {}) };
    if (!vmi || vmi.status?.phase !== 'Running') {
      const runStrategy = vm?.spec?.runStrategy;
      const reason = vmi
        ? `instance ${vmi.status?.phase ?? 'not running'}: it starts on the new launcher`
        : `not running${runStrategy ? ` (runStrategy ${runStrategy})` : ''}: it starts on the new launcher when started`;
      return { ...base, fate: 'not-running', reason };
    }
    return { ...base, ...fateOf(strategy, vmi, vm) };
  });
}

export type ImpactCounts = Record<VmImpact['fate'], number>;

export function countImpact(impact: VmImpact[]): ImpactCounts {
  const counts: ImpactCounts = { 'live-migrate': 0, evict: 0, restart: 0, 'not-running': 0 };
  for (const i of impact) counts[i.fate]++;
  return counts;
}

export const impactLine = (c: ImpactCounts): string => `${c['live-migrate']} live-migrate, ${c.evict} evicted, ${c.restart} need a restart, ${c['not-running']} not running`;

/** What costs the operator something first: restarts, evictions, VMs not running, then live migrations. */
export const fateOrder: VmImpact['fate'][] = ['restart', 'evict', 'not-running', 'live-migrate'];

export function sortImpact(impact: VmImpact[]): VmImpact[] {
  return [...impact].sort((a, b) => fateOrder.indexOf(a.fate) - fateOrder.indexOf(b.fate) || (a.vm < b.vm ? -1 : a.vm > b.vm ? 1 : 0));
}
