import { describe, expect, it } from 'vitest';
import type { MutationRecord } from '../../src/engine/mutation.js';
import { initialState } from '../../src/engine/reducer.js';
import type { HopInfo, SessionState, StepState } from '../../src/engine/state.js';
import type { MovedOutput } from '../../src/steps/migrations/moved.js';
import type { RestartTiming } from '../../src/steps/migrations/restart-timing.js';
import { labTimeIn, vmFates } from '../../src/report/vms.js';
import { at, created, step } from '../support/state-fixtures.js';

const hop = (index: number): HopInfo => ({ index, count: 2, from: '1', to: '2' });

const monitor = (id: string, h: HopInfo | undefined, moved: Partial<MovedOutput>): StepState =>
  step(id, { kind: 'migrations', status: 'succeeded', ...(h ? { hop: h } : {}), output: { moved: { since: at(0), migrated: [], evicted: [], totals: { migrated: 0, evicted: 0 }, ...moved } } });

const restartSent = (stepId: string, vm: string, sentAt: string, outcome: MutationRecord['outcome'] = 'sent'): MutationRecord => ({
  key: `${stepId}/restart/${vm}/send`,
  stepId,
  request: { target: 'kube', program: 'kubectl', argv: ['replace'], summary: `restart VM ${vm}` },
  intentAt: sentAt,
  resultAt: sentAt,
  outcome,
  dryRun: outcome === 'recorded',
});

const timing = (vm: string, down: number, wall?: boolean): RestartTiming => ({
  vm,
  downAt: at(10),
  downFrom: 'vmi-deletion',
  runningAt: at(10 + down),
  runningFrom: 'phase-transition',
  downtimeSeconds: down,
  ...(wall ? { wall: { downAt: at(10), runningAt: at(11) } } : {}),
});

function state(entries: StepState[], mutations: MutationRecord[] = []): SessionState {
  return { ...initialState(created(entries)), mutations: Object.fromEntries(mutations.map((m) => [m.key, m])) };
}

describe('VM fates per hop', () => {
  it('each VM once per hop: a restart after a failed migration is a restart, a VM restarted in two hops appears in both', () => {
    const s = state(
      [
        monitor('hop1.migrations', hop(1), { migrated: [{ vm: 'vms/web-1', migration: 'vms/m1', seconds: 21, source: 'n1', target: 'n2' }] }),
        step('hop1.recover', { kind: 'recover', status: 'succeeded', hop: hop(1), notes: { 'timing/vms/db-1': timing('vms/db-1', 63) }, output: { restarted: ['vms/db-1'], outstanding: [], vms: [], notOffered: [] } }),
        monitor('hop2.migrations', hop(2), { migrated: [{ vm: 'vms/web-1', migration: 'vms/m7', seconds: 30 }, { vm: 'vms/db-1', migration: 'vms/m8', seconds: 9 }], evicted: ['vms/batch-1'] }),
        step('hop2.recover', { kind: 'recover', status: 'succeeded', hop: hop(2), notes: { 'timing/vms/db-1': timing('vms/db-1', 70) }, output: { restarted: ['vms/db-1'], outstanding: [], vms: [], notOffered: [] } }),
      ],
      [restartSent('hop1.recover', 'vms/db-1', at(9)), restartSent('hop2.recover', 'vms/db-1', at(30))],
    );
    const fates = vmFates(s).map((v) => [v.hop, v.name, v.fate, v.downtimeSeconds ?? v.migration?.durationSeconds ?? '-']);
    expect(fates).toEqual([
      [1, 'vms/db-1', 'restarted', 63],
      [1, 'vms/web-1', 'live-migrated', 21],
      [2, 'vms/batch-1', 'evicted', '-'],
      [2, 'vms/db-1', 'restarted', 70],
      [2, 'vms/web-1', 'live-migrated', 30],
    ]);
    expect(vmFates(s)[0]).toMatchObject({ sentAt: at(9), runningAt: at(73), downtimeFrom: 'vmi-deletion', backRunning: true });
  });

  it('a recovery stopped inside its step (no output) still tells restarted, skipped and awaiting approval apart, never one VM twice', () => {
    const recover = step('hop.recover', {
      kind: 'recover',
      status: 'awaitingApproval',
      notes: { 'skipped/vms/cache-1': { at: at(5), by: 'flag' }, 'timing/vms/db-1': timing('vms/db-1', 40) },
      decisions: {
        'hop.recover/restart/vms/cache-1': { choice: 'skip', by: 'flag', flag: '--skip-restart vms/cache-1', at: at(5) },
        'hop.recover/restart/vms/web-2': { choice: 'pending', by: 'policy', policy: 'no flag approves this gate', at: at(6) },
      },
    });
    const fates = vmFates(state([recover], [restartSent('hop.recover', 'vms/db-1', at(4))]));
    expect(fates.map((v) => [v.hop, v.name, v.fate, v.reason ?? `down ${v.downtimeSeconds}`])).toEqual([
      [null, 'vms/cache-1', 'outstanding', 'restart skipped'],
      [null, 'vms/db-1', 'restarted', 'down 40'],
      [null, 'vms/web-2', 'outstanding', 'awaiting approval (--approve-restart vms/web-2)'],
    ]);
  });

  it('a skip names who skipped it (from the timeline), a VM not back is restarted but says so, a rehearsal would restart', () => {
    const recover = step('hop.recover', {
      kind: 'recover',
      status: 'failed',
      notes: { 'skipped/vms/cache-1': { at: at(5), by: 'operator' }, 'timing/vms/db-1': { vm: 'vms/db-1', downAt: at(4), downFrom: 'request' } },
      output: { restarted: ['vms/db-1'], outstanding: ['vms/cache-1', 'vms/old-1'], vms: [{ vm: 'vms/db-1', node: 'n', why: '', state: 'not-back', note: 'after 10m00s: starting (Scheduling)' }], notOffered: [{ vm: 'vms/old-1', reason: 'not running at the snapshot' }] },
    });
    const s = state([recover], [restartSent('hop.recover', 'vms/db-1', at(4)), restartSent('hop.recover', 'vms/rehearsed', at(4), 'recorded')]);
    s.timeline = [{ type: 'decided', at: at(5), step: 'hop.recover', gate: 'restart', key: 'hop.recover/restart/vms/cache-1', title: 'Restart VM vms/cache-1', subject: 'vms/cache-1', choice: 'skip', offeredSkip: true, by: 'operator', pressed: 's' }];
    const byName = Object.fromEntries(vmFates(s).map((v) => [v.name, v]));
    expect(byName['vms/cache-1']).toMatchObject({ fate: 'outstanding', reason: 'restart skipped (operator, key s)' });
    expect(byName['vms/old-1']).toMatchObject({ fate: 'outstanding', reason: 'not running at the snapshot' });
    expect(byName['vms/db-1']).toMatchObject({ fate: 'restarted', backRunning: false, reason: 'after 10m00s: starting (Scheduling)' });
    expect(byName['vms/db-1']!.downtimeSeconds).toBeUndefined();
    expect(byName['vms/rehearsed']).toMatchObject({ fate: 'would-restart' });
  });

  it('lab time is flagged when the cluster clock was the lab’s', () => {
    expect(labTimeIn(state([monitor('m', undefined, { labTime: true })]))).toBe(true);
    const lab = step('r', { kind: 'recover', status: 'succeeded', notes: { 'timing/vms/a': timing('vms/a', 5, true) } });
    expect(labTimeIn(state([lab]))).toBe(true);
    expect(labTimeIn(state([monitor('m', undefined, {})]))).toBe(false);
  });
});
