/** The report's line per request: what the body changes, never "(version ?)" for a body that has no label. */
import { describe, expect, it } from 'vitest';
import { applyProfilesRequest, approveRepaveRequest, cloneRequest, publishRequest, putProfileRequest } from '../../src/palette/mutations.js';
import { bodySummary } from '../../src/report/requests.js';
import { recoverHeadline } from '../../src/steps/migrations/recover-context.js';

describe('bodySummary', () => {
  it.each([
    ['a draft: its label and tags', putProfileRequest('p1', { metadata: { name: 'vmo-core-addon', uid: 'p1' }, spec: { version: '1.5.0', template: { type: 'add-on', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.5.4' }] } } } as never, 'w'), 'version 1.5.0; packs virtual-machine-orchestrator@4.5.4'],
    ['a clone: the new label', cloneRequest('p1', { name: 'vmo-core-addon', version: '1.5.0', projectUid: 'proj' }, 'c'), 'new version 1.5.0 of vmo-core-addon'],
    ['an attach: the versions, each in place of the one it replaces', applyProfilesRequest('c1', [{ uid: 'new1', replaceWithProfile: 'old1' }], 'a'), 'profiles new1 in place of old1'],
    ['a publish says nothing more than its request', publishRequest('p1', 'p'), undefined],
    ['a repave approval neither', approveRepaveRequest('c1', 'r'), undefined],
  ])('%s', (_name, request, expected) => {
    expect(bodySummary({ request })).toBe(expected);
  });
});

describe('recoverHeadline', () => {
  const row = (state: 'restarting' | 'pending' | 'restarted') => ({ vm: `vms/${state}`, node: 'n1', why: 'outdated', state });
  it('counts a restart that was sent and is not back yet as restarting, not as nothing', () => {
    expect(recoverHeadline([row('restarting')], false)).toBe('1 VM(s) on the old launcher · 0 restarted · 1 restarting · 0 skipped · 0 outstanding · 0 to go');
    expect(recoverHeadline([row('restarted'), row('pending')], false)).toBe('2 VM(s) on the old launcher · 1 restarted · 0 skipped · 0 outstanding · 1 to go');
  });
});
