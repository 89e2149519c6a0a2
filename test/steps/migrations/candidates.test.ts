import { describe, expect, it } from 'vitest';
import type { Vm, Vmi, Vmim } from '../../../src/kube/schemas.js';
import { migrationsToCancel, predictedCandidates, selectCandidates, type Baseline } from '../../../src/steps/migrations/candidates.js';
import { cancelProgress } from '../../../src/steps/migrations/cancel-phase.js';
import { vm, vmi, vmim } from './support/objects.js';

const snapshot = (...vmis: string[]): Baseline => ({ vmis: new Set(vmis), source: 'snapshot' });

describe('selectCandidates: which VMs recovery may offer to restart', () => {
  const outdated = [
    vmi('vms', 'web', { node: 'n1' }),
    vmi('vms', 'started-later', { node: 'n1' }),
    vmi('vms', 'booting', { phase: 'Scheduling' }),
    vmi('vms', 'standalone'),
    vmi('vms', 'halted'),
    vmi('ns-packs', 'cache', { migratable: false, node: 'n3' }),
  ] as Vmi[];
  const vms = [vm('vms', 'web'), vm('vms', 'started-later'), vm('vms', 'booting'), vm('vms', 'halted', 'Halted'), vm('ns-packs', 'cache')] as Vm[];

  it.each([
    ['vms/web', 'offered'],
    ['ns-packs/cache', 'offered'],
    ['vms/started-later', 'was not running at the snapshot baseline: never restarted'],
    ['vms/booting', 'not running now (phase Scheduling): not restarted'],
    ['vms/standalone', 'no VirtualMachine owns this VMI, so KubeVirt cannot restart it'],
    ['vms/halted', 'runStrategy Halted does not allow a restart'],
  ])('%s: %s', (key, verdict) => {
    const { offered, notOffered } = selectCandidates(outdated, vms, snapshot('vms/web', 'vms/booting', 'vms/standalone', 'vms/halted', 'ns-packs/cache'));
    if (verdict === 'offered') expect(offered.map((c) => c.vm)).toContain(key);
    else expect(notOffered).toContainEqual({ vm: key, reason: verdict });
  });

  it('offers in namespace/name order, with what the gate needs to say', () => {
    const { offered } = selectCandidates(outdated, vms, snapshot('vms/web', 'ns-packs/cache'));
    expect(offered).toEqual([
      { vm: 'ns-packs/cache', namespace: 'ns-packs', name: 'cache', node: 'n3', migratable: false, notMigratableReason: 'DisksNotLiveMigratable: cannot migrate VMI: PVC cache-rootdisk is not shared', launcher: 'v1.2.0' },
      { vm: 'vms/web', namespace: 'vms', name: 'web', node: 'n1', migratable: true, launcher: 'v1.2.0' },
    ]);
  });

  it('says which baseline refused a VM when the session had no snapshot', () => {
    const { notOffered } = selectCandidates([vmi('vms', 'x')] as Vmi[], [vm('vms', 'x')] as Vm[], { vmis: new Set(), source: 'first-look' });
    expect(notOffered).toEqual([{ vm: 'vms/x', reason: 'was not running when recovery first looked: never restarted' }]);
  });

  it('rehearsal: adds the VMs the plan predicts will need a restart, only from the baseline', () => {
    const impact = [
      { vm: 'ns-packs/cache', node: 'w3', fate: 'restart' as const, reason: 'node-local disk: cannot live-migrate' },
      { vm: 'vms/web', fate: 'live-migrate' as const, reason: 'shared storage' },
      { vm: 'ns-adv/legacy', fate: 'restart' as const, reason: 'x' },
    ];
    expect(predictedCandidates(impact, snapshot('ns-packs/cache', 'vms/web'), new Set())).toEqual([
      { vm: 'ns-packs/cache', namespace: 'ns-packs', name: 'cache', node: 'w3', migratable: false, predicted: { reason: 'node-local disk: cannot live-migrate' } },
    ]);
  });
});

describe('migrationsToCancel', () => {
  it('lists the migrations in flight for outdated VMIs only', () => {
    const migrations = [
      vmim('vms', 'running', 'a', { phase: 'Running', runningForMs: 40 * 60_000 }),
      vmim('vms', 'pending', 'a', { phase: 'Pending' }),
      vmim('vms', 'failed', 'a', { phase: 'Failed' }),
      vmim('vms', 'other', 'up-to-date', { phase: 'Running' }),
    ] as unknown as Vmim[];
    expect(migrationsToCancel(migrations, [vmi('vms', 'a')] as Vmi[], Date.now()).map((m) => `${m.key} ${m.phase}`)).toEqual(['vms/pending Pending', 'vms/running Running']);
  });
});

describe('cancelProgress: a delete is a request, not a cancel', () => {
  const m = (phase: string, extra: Record<string, unknown> = {}, abortStatus?: string) =>
    ({ metadata: { name: 'm', namespace: 'vms', deletionTimestamp: '2026-03-11T14:09:31Z', ...extra }, spec: { vmiName: 'v' }, status: { phase, migrationState: { abortRequested: true, ...(abortStatus ? { abortStatus } : {}) } } }) as unknown as Vmim;
  it.each<[string, Vmim | undefined, string]>([
    ['gone (the finalizer let it go)', undefined, 'cancelled'],
    ['failed: the abort stopped it', m('Failed', {}, 'Succeeded'), 'cancelled'],
    ['abort succeeded, phase not yet updated', m('Running', {}, 'Succeeded'), 'cancelled'],
    ['held by the finalizer while aborting', m('Running', {}, 'Aborting'), 'aborting'],
    ['deleted, KubeVirt has not looked yet', m('Running'), 'aborting'],
    ['the abort failed: it runs on', m('Running', {}, 'Failed'), 'abort-failed'],
    ['it finished before the abort took', m('Succeeded', {}, 'Failed'), 'finished'],
  ])('%s', (_what, vmim, expected) => {
    expect(cancelProgress(vmim)).toBe(expected);
  });
});
