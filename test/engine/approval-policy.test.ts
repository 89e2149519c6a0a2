import { describe, expect, it } from 'vitest';
import { approvalFlagsText, decideByPolicy, fixesByFlag, noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import { approveOrDecline, restartOptions, type GateRequest } from '../../src/engine/gate.js';

const gate = (name: string): GateRequest => ({ gate: name, key: `k/${name}`, title: name, lines: [], options: approveOrDecline('ok'), safeChoice: 'abort' });
const restart = (ns: string, name: string): GateRequest => ({ gate: 'restart', key: `k/${ns}/${name}`, title: 'restart', lines: [], options: restartOptions, safeChoice: 'skip', subject: { namespace: ns, name } });
const a = (x: Partial<Approvals>): Approvals => ({ ...noApprovals, ...x });
const stage = (gates: string[], allRestarts = false) => ({ name: 'fleet edge, stage wave-2', gates, allRestarts });

const cases: Array<[string, GateRequest, Approvals, boolean, string]> = [
  ['nothing approved asks', gate('draft'), noApprovals, false, 'ask'],
  ['--approve draft approves draft', gate('draft'), a({ gates: ['draft'] }), false, 'approve'],
  ['--approve draft does not approve publish', gate('publish'), a({ gates: ['draft'] }), false, 'ask'],
  ['--approve publish,draft approves publish', gate('publish'), a({ gates: ['draft', 'publish'] }), false, 'approve'],
  ['--approve cancel-migrations approves it', gate('cancel-migrations'), a({ gates: ['cancel-migrations'] }), false, 'approve'],
  ['gate approvals never approve a restart', restart('vms', 'a'), a({ gates: ['draft', 'publish', 'cancel-migrations', 'restart'] }), false, 'ask'],
  ['--approve-restart approves that VM', restart('vms', 'a'), a({ restarts: ['vms/a'] }), false, 'approve'],
  ['--approve-restart is per namespace too', restart('other', 'a'), a({ restarts: ['vms/a'] }), false, 'ask'],
  ['--approve-restart of another VM does not count', restart('vms', 'b'), a({ restarts: ['vms/a'] }), false, 'ask'],
  ['--approve-all-restarts approves any VM', restart('vms', 'b'), a({ allRestarts: true }), false, 'approve'],
  ['--skip-restart wins over --approve-all-restarts', restart('vms', 'b'), a({ allRestarts: true, skipRestarts: ['vms/b'] }), false, 'skip'],
  ['outside its restart window: --approve-all-restarts does not restart it', { ...restart('vms', 'b'), byNameOnly: 'outside its restart window' }, a({ allRestarts: true }), false, 'ask'],
  ['outside its restart window: approved by its name', { ...restart('vms', 'b'), byNameOnly: 'outside its restart window' }, a({ allRestarts: true, restarts: ['vms/b'] }), false, 'approve'],
  ['a restart without a subject is always asked', { ...restart('vms', 'a'), subject: undefined } as unknown as GateRequest, a({ allRestarts: true }), false, 'ask'],
  ['a rehearsal needs no approval', gate('publish'), noApprovals, true, 'approve'],
  ['a rehearsal needs no approval for restarts either', restart('vms', 'a'), noApprovals, true, 'approve'],
  // A fleet stage's written policy answers what no flag did.
  ['a stage policy approves the gates it names', gate('apply'), a({ policy: stage(['draft', 'apply']) }), false, 'approve'],
  ['a stage policy does not approve a gate it does not name', gate('repave'), a({ policy: stage(['draft', 'apply']) }), false, 'ask'],
  ['a stage policy naming gates approves no restart', restart('vms', 'a'), a({ policy: stage(['draft', 'apply']) }), false, 'ask'],
  ['a stage policy with restarts: approve approves any VM', restart('vms', 'a'), a({ policy: stage([], true) }), false, 'approve'],
  ['outside its restart window: a stage policy does not restart it', { ...restart('vms', 'b'), byNameOnly: 'outside its restart window' }, a({ policy: stage([], true) }), false, 'ask'],
  ['--skip-restart wins over a stage policy', restart('vms', 'b'), a({ skipRestarts: ['vms/b'], policy: stage([], true) }), false, 'skip'],
];

describe('approval policy', () => {
  it.each(cases)('%s', (_n, request, approvals, rehearsal, expected) => {
    expect(decideByPolicy(request, approvals, rehearsal).choice).toBe(expected);
  });
  it('says where an approval came from', () => {
    expect(decideByPolicy(gate('draft'), a({ gates: ['draft'] }), false)).toEqual({ choice: 'approve', by: 'flag', flag: '--approve draft' });
    expect(decideByPolicy(gate('draft'), noApprovals, true)).toMatchObject({ choice: 'approve', by: 'rehearsal' });
  });

  it('a flag is named before a stage policy; a stage policy is named as the fleet file\'s', () => {
    expect(decideByPolicy(gate('apply'), a({ gates: ['apply'], policy: stage(['apply']) }), false)).toEqual({ choice: 'approve', by: 'flag', flag: '--approve apply' });
    expect(decideByPolicy(gate('apply'), a({ policy: stage(['apply']) }), false)).toEqual({ choice: 'approve', by: 'policy', policy: 'fleet edge, stage wave-2: approve apply' });
    expect(decideByPolicy(restart('vms', 'a'), a({ policy: stage([], true) }), false)).toEqual({ choice: 'approve', by: 'policy', policy: 'fleet edge, stage wave-2: restarts: approve' });
    expect(approvalFlagsText(a({ gates: ['stage'], policy: stage(['draft', 'apply'], true) }))).toBe('--approve stage (fleet edge, stage wave-2: approve draft,apply; restarts: approve)');
  });

  it('names the exact flag that answered a restart', () => {
    const restart: GateRequest = { ...gate('restart'), subject: { namespace: 'vms', name: 'db-1' } };
    expect(decideByPolicy(restart, a({ restarts: ['vms/db-1'], allRestarts: true }), false)).toMatchObject({ by: 'flag', flag: '--approve-restart vms/db-1' });
    expect(decideByPolicy(restart, a({ allRestarts: true }), false)).toMatchObject({ by: 'flag', flag: '--approve-all-restarts' });
    expect(decideByPolicy(restart, a({ skipRestarts: ['vms/db-1'], allRestarts: true }), false)).toMatchObject({ choice: 'skip', by: 'flag', flag: '--skip-restart vms/db-1' });
  });
});

describe('--accept-fix at the customizations review', () => {
  const review = (offers: GateRequest['offers']): GateRequest => ({ gate: 'customize', key: 'k/review', title: 'review', lines: [], options: approveOrDecline('ok'), safeChoice: 'approve', informational: true, ...(offers ? { offers } : {}) });
  it.each<[string, GateRequest, Approvals, ReturnType<typeof fixesByFlag>]>([
    ['no flag chooses nothing', review([{ id: 'a', accepted: false }]), noApprovals, undefined],
    ['a flag chooses the fix it names, saying so', review([{ id: 'a', accepted: false }, { id: 'b', accepted: false }]), a({ acceptFixes: ['b'] }), { ids: ['b'], flag: '--accept-fix b' }],
    ['a fix already chosen is not chosen again (the review then goes on)', review([{ id: 'a', accepted: true }]), a({ acceptFixes: ['a'] }), undefined],
    ['a flag for a fix not offered here chooses nothing', review([{ id: 'a', accepted: false }]), a({ acceptFixes: ['z'] }), undefined],
    ['a gate without offers is not a review of fixes', gate('draft'), a({ acceptFixes: ['a'] }), undefined],
  ])('%s', (_n, request, approvals, expected) => {
    expect(fixesByFlag(request, approvals)).toEqual(expected);
  });
});
