/** Verification offers a restart only to a VM that, as this round read it, still runs the old launcher. */
import { describe, expect, it } from 'vitest';
import { outdatedNow } from '../../src/steps/verify/verify.js';

describe('verification offers restarts from what it just read', () => {
  it('outdatedNow lists only the VMs whose instance still carries the outdated-launcher label; unread VMs say nothing', () => {
    const vmi = (name: string, outdated: boolean) => ({ metadata: { namespace: 'vms', name, labels: (outdated ? { 'kubevirt.io/outdatedLauncherImage': '' } : {}) as Record<string, string> }, status: { phase: 'Running' } });
    expect([...outdatedNow({ vmis: { ok: true, value: [vmi('db-01', false), vmi('web-01', true)], ms: 1 } })!]).toEqual(['vms/web-01']);
    expect(outdatedNow({ vmis: { ok: false, reason: 'timeout', ms: 1 } })).toBeUndefined();
  });
});
