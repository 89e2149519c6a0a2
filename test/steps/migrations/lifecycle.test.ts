import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backOnCurrentLauncher, restartTookEffect, type VmiLifecycle, type VmLifecycle } from '../../../src/steps/migrations/lifecycle.js';
import { cancelMigrationRequest, restartProgram, restartRequest } from '../../../src/steps/migrations/recover-requests.js';

const before = { uid: 'old', created: '2026-10-01T00:00:00Z' };
const vmiOf = (o: { uid?: string; created?: string; deleting?: boolean; outdated?: boolean; phase?: string }): VmiLifecycle => ({
  metadata: {
    name: 'web',
    namespace: 'vms',
    uid: o.uid ?? 'old',
    creationTimestamp: o.created ?? before.created,
    ...(o.deleting ? { deletionTimestamp: '2026-11-22T04:00:00Z' } : {}),
    labels: o.outdated === false ? {} : { 'kubevirt.io/outdatedLauncherImage': '' },
  },
  status: { phase: o.phase ?? 'Running', nodeName: 'n1' },
});
const vmOf = (o: { requests?: string[]; status?: string } = {}): VmLifecycle => ({ metadata: { name: 'web' }, status: { printableStatus: o.status ?? 'Running', ...(o.requests ? { stateChangeRequests: o.requests.map((action) => ({ action })) } : {}) } });

describe('restartTookEffect: settling an intent without a result', () => {
  it.each([
    ['the same VMI, still outdated: not done (ask and send again)', vmiOf({}), vmOf(), false],
    ['a pending stop/start request on the VM', vmiOf({}), vmOf({ requests: ['Stop', 'Start'] }), true],
    ['the VMI is gone', undefined, vmOf({ status: 'Starting' }), true],
    ['the VMI is shutting down', vmiOf({ deleting: true }), vmOf(), true],
    ['a new VMI (uid)', vmiOf({ uid: 'new', phase: 'Scheduling' }), vmOf(), true],
    ['a new VMI (creation time only)', vmiOf({ uid: 'old', created: '2026-11-22T04:00:00Z' }), vmOf(), true],
    ['the VM is stopping', vmiOf({}), vmOf({ status: 'Stopping' }), true],
    ['already on the current launcher', vmiOf({ outdated: false }), vmOf(), true],
  ])('%s', (_name, vmi, vm, done) => {
    expect(restartTookEffect(before, vmi, vm).done).toBe(done);
  });
});

describe('backOnCurrentLauncher', () => {
  it.each([
    ['gone', undefined, false, 'no VMI yet (shutting down or starting)'],
    ['deleting', vmiOf({ deleting: true }), false, 'shutting down'],
    ['same VMI', vmiOf({ outdated: false }), false, 'restart not started yet'],
    ['new, booting', vmiOf({ uid: 'new', phase: 'Scheduled', outdated: false }), false, 'starting (Scheduled)'],
    ['new, outdated', vmiOf({ uid: 'new', outdated: true }), false, 'running, still on the old launcher'],
    ['new, current', vmiOf({ uid: 'new', outdated: false }), true, 'running on n1'],
  ])('%s', (_name, vmi, back, state) => {
    expect(backOnCurrentLauncher(before, vmi as VmiLifecycle | undefined)).toEqual({ back, state });
  });
});

describe('recovery requests', () => {
  it('restarts through virtctl when it is on the PATH, else the same subresource PUT through kubectl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'virtctl-'));
    writeFileSync(join(dir, 'virtctl'), '#!/bin/sh\n', { mode: 0o755 });
    expect(restartProgram('auto', dir)).toBe('virtctl');
    expect(restartProgram('auto', '/nonexistent')).toBe('kubectl');
    expect(restartProgram('kubectl', dir)).toBe('kubectl');
    expect(restartRequest('vms', 'web', 'virtctl')).toEqual({ target: 'kube', program: 'virtctl', argv: ['restart', 'web', '-n', 'vms'], summary: 'restart VM vms/web' });
    expect(restartRequest('vms', 'web', 'kubectl')).toEqual({
      target: 'kube',
      program: 'kubectl',
      argv: ['replace', '--raw', '/apis/subresources.kubevirt.io/v1/namespaces/vms/virtualmachines/web/restart', '-f', '-'],
      stdin: '{}',
      summary: 'restart VM vms/web',
    });
  });

  it('cancels a migration by deleting it without waiting, and a migration already gone is no error', () => {
    expect(cancelMigrationRequest('vms', 'kubevirt-workload-update-abc', 'vms/web').argv).toEqual(['delete', 'vmim', 'kubevirt-workload-update-abc', '-n', 'vms', '--wait=false', '--ignore-not-found']);
  });
});
