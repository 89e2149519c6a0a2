/**
 * What each VM went through, once per hop: live-migrated (with the migration's duration), evicted,
 * restarted (request sent, back running, downtime by the cluster's timestamps), or outstanding (with
 * why). A VM restarted after its migration failed is restarted, not both; a VM restarted in two hops
 * appears in each. Read from the monitor's and the recovery's records. Pure.
 */
import { decisionSourceText } from '../engine/gate.js';
import type { SessionState, StepState } from '../engine/state.js';
import { steps } from '../engine/state.js';
import type { MigrationsOutput } from '../steps/migrations/monitor-types.js';
import { recoverFacts } from '../steps/migrations/recover-facts.js';
import type { RecoverOutput } from '../steps/migrations/recover-types.js';
import type { ReportVm } from './model.js';

/** Later fates win: a restart says more than the failed migration before it. */
const rank: Record<ReportVm['fate'], number> = { 'live-migrated': 0, evicted: 1, outstanding: 2, 'would-restart': 3, restarted: 4 };

type HopKey = number | null;

class HopVms {
  readonly byVm = new Map<string, ReportVm>();
  constructor(readonly hop: HopKey) {}

  set(vm: ReportVm): void {
    const prior = this.byVm.get(vm.name);
    if (!prior || rank[vm.fate] >= rank[prior.fate]) this.byVm.set(vm.name, vm);
  }
}

const hopKeyOf = (s: StepState): HopKey => s.hop?.index ?? null;

function fromMonitor(into: HopVms, out: MigrationsOutput): void {
  for (const m of out.moved?.migrated ?? []) {
    into.set({
      name: m.vm,
      hop: into.hop,
      fate: 'live-migrated',
      migration: { name: m.migration, ...(m.seconds !== undefined ? { durationSeconds: m.seconds } : {}), ...(m.endedAt ? { endedAt: m.endedAt } : {}), ...(m.source ? { source: m.source } : {}), ...(m.target ? { target: m.target } : {}) },
    });
  }
  for (const vm of out.moved?.evicted ?? []) into.set({ name: vm, hop: into.hop, fate: 'evicted', reason: 'not live-migratable: evicted by KubeVirt’s workload updater and started again' });
}

function skipReason(step: StepState, vm: string, state: SessionState): string {
  const decision = [...(state.timeline ?? [])].reverse().find((e) => e.type === 'decided' && e.step === step.id && e.subject === vm && e.choice === 'skip');
  return decision?.type === 'decided' ? `restart skipped (${decisionSourceText({ by: decision.by, key: decision.pressed, flag: decision.flag, policy: decision.policy })})` : 'restart skipped';
}

function fromRecovery(into: HopVms, step: StepState, state: SessionState): void {
  const facts = recoverFacts(step, state.mutations);
  const out = step.output as RecoverOutput | undefined;
  const rows = new Map((out?.vms ?? []).map((r) => [r.vm, r]));
  const refused = new Map((out?.notOffered ?? []).map((n) => [n.vm, n.reason]));
  const outstanding = (vm: string, reason: string) => into.set({ name: vm, hop: into.hop, fate: 'outstanding', reason });

  for (const vm of out?.outstanding ?? []) {
    const row = rows.get(vm);
    outstanding(vm, refused.get(vm) ?? row?.note ?? (row?.state === 'skipped' ? skipReason(step, vm, state) : 'not restarted: still on the old launcher'));
  }
  for (const vm of facts.awaiting) outstanding(vm, `awaiting approval (--approve-restart ${vm})`);
  for (const vm of facts.skipped) outstanding(vm, skipReason(step, vm, state));
  for (const vm of facts.wouldRestart) into.set({ name: vm, hop: into.hop, fate: 'would-restart', reason: 'rehearsal: recorded, not sent' });
  for (const { vm, sentAt } of facts.restarted) {
    const t = facts.timings.get(vm);
    const runningAt = t?.runningAt ? (t.wall?.runningAt ?? t.runningAt) : undefined;
    const notBack = rows.get(vm)?.state === 'not-back' || (t !== undefined && !t.runningAt);
    into.set({
      name: vm,
      hop: into.hop,
      fate: 'restarted',
      sentAt,
      ...(runningAt ? { runningAt } : {}),
      ...(t?.downtimeSeconds !== undefined ? { downtimeSeconds: t.downtimeSeconds, downtimeFrom: t.downFrom } : {}),
      ...(t || notBack ? { backRunning: !notBack } : {}),
      ...(notBack ? { reason: rows.get(vm)?.note ?? 'did not run again on the current launcher within the wait' } : {}),
    });
  }
}

/** Every VM's fate per hop, hops in order (steps outside any hop last), VMs by name. */
export function vmFates(state: SessionState): ReportVm[] {
  const hops = new Map<HopKey, HopVms>();
  const of = (s: StepState) => hops.get(hopKeyOf(s)) ?? hops.set(hopKeyOf(s), new HopVms(hopKeyOf(s))).get(hopKeyOf(s))!;
  for (const s of steps(state)) {
    if (s.kind === 'migrations' && s.output) fromMonitor(of(s), s.output as MigrationsOutput);
    // A recovery that stopped inside (a gate, a kill) has no output, but its journal says what it did.
    if (s.kind === 'recover') fromRecovery(of(s), s, state);
  }
  const order = (h: HopKey) => (h === null ? Number.MAX_SAFE_INTEGER : h);
  return [...hops.values()].sort((a, b) => order(a.hop) - order(b.hop)).flatMap((h) => [...h.byVm.values()].sort((a, b) => a.name.localeCompare(b.name)));
}

/** Whether durations measured from the cluster are the lab's simulated time. */
export function labTimeIn(state: SessionState): boolean {
  return steps(state).some((s) => {
    if (s.kind === 'migrations') return (s.output as MigrationsOutput | undefined)?.moved?.labTime === true;
    if (s.kind === 'recover') return [...recoverFacts(s, state.mutations).timings.values()].some((t) => t.wall !== undefined);
    return false;
  });
}
