/** A fleet cluster's gates on the fleet screen: flags first, reviews unattended as in plain mode, the rest waits for a key. */
import { describe, expect, it } from 'vitest';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { approveOrDecline, type GateRequest } from '../../src/engine/gate.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { attachedConfirm } from '../../src/run/confirm.js';

const draft: GateRequest = { gate: 'draft', key: 'h1.draft', title: 'Write the draft', lines: [], options: approveOrDecline('Write'), safeChoice: 'abort' };
const review: GateRequest = { ...draft, gate: 'customize', key: 'customize', title: 'Review', informational: true, options: [{ choice: 'approve', label: 'Continue', key: 'c' }], safeChoice: 'approve' };

describe('attachedConfirm', () => {
  it('a review takes its safe choice unattended; nothing waits on the screen', async () => {
    const queue = new ConfirmQueue();
    expect(await attachedConfirm(queue, noApprovals, false)(review)).toMatchObject({ choice: 'approve', by: 'policy' });
    expect(queue.current()).toBeUndefined();
  });

  it('a flag answers a gate it names', async () => {
    const queue = new ConfirmQueue();
    expect(await attachedConfirm(queue, { ...noApprovals, gates: ['draft'] }, false)(draft)).toMatchObject({ choice: 'approve', by: 'flag', flag: '--approve draft' });
  });

  it('any other gate waits in the queue for a key, and the key is recorded', async () => {
    const queue = new ConfirmQueue();
    const decided = attachedConfirm(queue, noApprovals, false)(draft);
    expect(queue.current()?.key).toBe('h1.draft');
    queue.answer('h1.draft', 'approve', undefined, 'y');
    expect(await decided).toMatchObject({ choice: 'approve', by: 'operator', key: 'y' });
  });
});
