/** The run's approvals (approvals.ts): a resume's flags add, --revoke takes away from flags and stage policies alike; mistakes are said. */
import { describe, expect, it } from 'vitest';
import { amendApprovals, approvalsText, noRunApprovals, stagePolicy, stagePolicyText, type RunApprovals } from '../../src/fleet/approvals.js';
import type { PlannedStage } from '../../src/fleet/types.js';

const run = (o: Partial<RunApprovals>): RunApprovals => ({ ...noRunApprovals, ...o });
const stage = (o: Partial<PlannedStage>): PlannedStage => ({ name: 'wave-2', clusters: ['a'], maxConcurrency: 1, failureThreshold: 1, approval: false, at: { file: '/ops/edge.yaml', line: 42 }, ...o });
const start = run({ gates: ['draft', 'publish', 'apply', 'stage'], allRestarts: true });

describe('amendApprovals', () => {
  it.each<[string, RunApprovals, string[], PlannedStage[], { text: string; added: string[]; revoked: string[]; policyRevoked: string[] }]>([
    ['no flags: the start\'s, unchanged', run({}), [], [stage({})], { text: '--approve draft,publish,apply,stage --approve-all-restarts', added: [], revoked: [], policyRevoked: [] }],
    ['a flag adds, said', run({ restarts: ['vms/db-1'] }), [], [], { text: '--approve draft,publish,apply,stage --approve-restart vms/db-1 --approve-all-restarts', added: ['--approve-restart vms/db-1'], revoked: [], policyRevoked: [] }],
    ['a flag the run has adds nothing', run({ gates: ['apply'] }), [], [], { text: '--approve draft,publish,apply,stage --approve-all-restarts', added: [], revoked: [], policyRevoked: [] }],
    ['--revoke a gate takes it from the flags', run({}), ['apply'], [stage({})], { text: '--approve draft,publish,stage --approve-all-restarts', added: [], revoked: ['apply'], policyRevoked: [] }],
    ['--revoke restarts takes the switch and the stage policy', run({}), ['restarts'], [stage({ restarts: 'approve' })], { text: '--approve draft,publish,apply,stage', added: [], revoked: ['restarts'], policyRevoked: ['restarts'] }],
    ['--revoke a gate only a stage policy approves', run({}), ['repave'], [stage({ approve: ['repave'] })], { text: '--approve draft,publish,apply,stage --approve-all-restarts', added: [], revoked: ['repave'], policyRevoked: ['repave'] }],
  ])('%s', (_name, flags, revoke, stages, want) => {
    const got = amendApprovals(start, flags, revoke, stages);
    expect(approvalsText(got.approvals)).toBe(want.text);
    expect(got.added).toEqual(want.added);
    expect(got.revoked).toEqual(want.revoked);
    expect(got.approvals.revoked).toEqual(want.policyRevoked);
  });

  it.each<[string, RunApprovals, string[], RegExp]>([
    ['revoking what nothing approves', run({}), ['repave'], /--revoke repave: the run does not approve repave/],
    ['revoking and approving at once', run({ gates: ['apply'] }), ['apply'], /contradict/],
    ['revoking a VM the run never named', run({}), ['vms/db-9'], /neither approves nor skips the restart of vms\/db-9/],
  ])('%s is a mistake, said', (_name, flags, revoke, want) => {
    expect(() => amendApprovals(start, flags, revoke, [stage({})])).toThrow(want);
  });

  it('a stage policy names where it is written, less what was revoked', () => {
    const s = stage({ approve: ['draft', 'apply'], restarts: 'approve' });
    expect(stagePolicy('edge', s)).toEqual({ name: 'fleet edge, stage wave-2 (edge.yaml:42)', gates: ['draft', 'apply'], allRestarts: true });
    expect(stagePolicy('edge', s, ['apply', 'restarts'])).toEqual({ name: 'fleet edge, stage wave-2 (edge.yaml:42)', gates: ['draft'], allRestarts: false });
    expect(stagePolicyText(s, ['apply'])).toBe('approves draft; restarts approved (revoked: apply) [edge.yaml:42]');
    expect(stagePolicy('edge', stage({}))).toBeUndefined();
  });
});
