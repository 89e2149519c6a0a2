/**
 * Which VMs left the old launcher during a hop, and how: live-migrated (a migration that Succeeded
 * since the hop began, with its duration from the migration's own start and end stamps) or evicted
 * (seen outdated, not live-migratable, then no longer outdated without a migration). The monitor
 * feeds every poll in; what it records is what the report lists per hop. One pass over lists the
 * monitor already read: no extra call to the cluster.
 */
import { wallOf, type Clock } from '../../engine/clock.js';
import type { Vmim } from '../../kube/schemas.js';
import type { PollAssessment } from './assess.js';
import type { MigratedVm, MovedOutput } from './types.js';
import { keyOf, parseTime, vmiKeyOf } from './cluster-view.js';
import { phaseOf } from './phases.js';

export type { MigratedVm, MovedOutput } from './types.js';

export interface MovedLedger {
  since: number;
  migrated: Map<string, MigratedVm>;
  /** Outdated VMIs seen so far, and whether the workload updater would evict rather than migrate them. */
  outdated: Map<string, { evictable: boolean }>;
  /** The workload updater's migrations of the hop: the first one's creation and the latest end, in the cluster's time. */
  firstUpdate?: number;
  lastEnd?: number;
}

/** KubeVirt marks the migrations its workload updater makes (pkg/virt-controller/watch/workload-updater). */
const workloadUpdate = (m: Vmim) => m.metadata.annotations?.['kubevirt.io/workloadUpdateMigration'] !== undefined;

export const MOVED_CAP = 5000;

export const startLedger = (since: number): MovedLedger => ({ since, migrated: new Map(), outdated: new Map() });

const seconds = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : Math.max(0, Math.round((to - from) / 100) / 10));

function migrated(m: Vmim, clock: Pick<Clock, 'simulated'>): MigratedVm {
  const ms = m.status?.migrationState;
  const start = parseTime(ms?.startTimestamp);
  const end = parseTime(ms?.endTimestamp);
  const took = seconds(start, end);
  return {
    vm: vmiKeyOf(m),
    migration: keyOf(m),
    ...(took !== undefined ? { seconds: took } : {}),
    ...(end !== undefined ? { endedAt: new Date(wallOf(clock, end)).toISOString() } : {}),
    ...(ms?.sourceNode ? { source: ms.sourceNode } : {}),
    ...(ms?.targetNode ? { target: ms.targetNode } : {}),
  };
}

/** Adds one poll: migrations that Succeeded since the hop began, and the outdated VMIs seen. */
export function recordPoll(ledger: MovedLedger, migrations: Vmim[], poll: Pick<PollAssessment, 'outdated'>, clock: Pick<Clock, 'simulated'>): void {
  // Stamps are whole seconds: compare at that grain so a migration ending in the hop's first second counts.
  const since = Math.floor(ledger.since / 1000) * 1000;
  for (const m of migrations) {
    const created = parseTime(m.metadata.creationTimestamp);
    if (workloadUpdate(m) && created !== undefined && created >= since) {
      ledger.firstUpdate = Math.min(ledger.firstUpdate ?? created, created);
      const end = parseTime(m.status?.migrationState?.endTimestamp);
      const phase = phaseOf(m);
      if (end !== undefined && (phase === 'Succeeded' || phase === 'Failed')) ledger.lastEnd = Math.max(ledger.lastEnd ?? end, end);
    }
    if (phaseOf(m) !== 'Succeeded') continue;
    const ended = parseTime(m.status?.migrationState?.endTimestamp) ?? parseTime(m.metadata.creationTimestamp);
    if (ended === undefined || ended < since) continue;
    const row = migrated(m, clock);
    const prior = ledger.migrated.get(row.vm);
    // The latest successful migration of a VMI in the hop is the one that moved it onto the new launcher.
    if (!prior || (prior.endedAt ?? '') <= (row.endedAt ?? '')) ledger.migrated.set(row.vm, row);
  }
  for (const o of poll.outdated) if (!ledger.outdated.has(o.vmi)) ledger.outdated.set(o.vmi, { evictable: o.willMove && !o.migratable });
}

export function movedOutput(ledger: MovedLedger, poll: Pick<PollAssessment, 'outdated'>, clock: Pick<Clock, 'simulated'>): MovedOutput {
  const still = new Set(poll.outdated.map((o) => o.vmi));
  const evicted = [...ledger.outdated].filter(([vmi, o]) => o.evictable && !still.has(vmi) && !ledger.migrated.has(vmi)).map(([vmi]) => vmi).sort();
  const all = [...ledger.migrated.values()].sort((a, b) => a.vm.localeCompare(b.vm));
  return {
    since: new Date(ledger.since).toISOString(),
    migrated: all.slice(0, MOVED_CAP),
    evicted: evicted.slice(0, MOVED_CAP),
    totals: { migrated: all.length, evicted: evicted.length },
    ...(clock.simulated ? { labTime: true, labSpeed: clock.simulated.speed() } : {}),
    ...(ledger.firstUpdate !== undefined
      ? { phase: { firstCreated: new Date(wallOf(clock, ledger.firstUpdate)).toISOString(), ...(ledger.lastEnd !== undefined && ledger.lastEnd >= ledger.firstUpdate ? { seconds: Math.round((ledger.lastEnd - ledger.firstUpdate) / 1000) } : {}) } }
      : {}),
  };
}
