import { render } from 'ink-testing-library';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KnownIssue } from '../../../src/steps/known-issue-schema.js';
import type { SessionState, StepState } from '../../../src/engine/state.js';
import { DiagnoseScreen } from '../../../src/screens/DiagnoseScreen.js';
import { KnownIssueSchema } from '../../../src/steps/known-issue-schema.js';
import type { DiagnoseOutput } from '../../../src/steps/migrations/diagnose-types.js';
import { diagnosisHeadline } from '../../../src/steps/migrations/diagnose-step.js';
import { matchKnownIssues, unknownFailures } from '../../../src/steps/migrations/signatures.js';
import { knownIssuesYaml } from '../../steps/migrations/support/known-issues.js';
import { closedSocket, dirtyRateLine, networkCacheLine } from '../../steps/migrations/support/objects.js';
import { meta, step } from '../../support/state-fixtures.js';
import { keys, plain, press, waitForFrame, words } from '../../support/ui.js';

const issues: KnownIssue[] = (parse(knownIssuesYaml) as { knownIssues: unknown[] }).knownIssues.map((i) => KnownIssueSchema.parse(i));

function diagnosed(): { step: StepState; state: SessionState } {
  const findings = matchKnownIssues(issues, [
    { kind: 'migrationFailureReason', label: 'migration vms/m1 (VMI vms/web-01)', lines: [closedSocket] },
    { kind: 'virtHandlerLogs', label: 'virt-handler kubevirt/virt-handler-x on node-1 (last 500 lines)', lines: [dirtyRateLine('vms', 'web-01')] },
    { kind: 'launcherLogs', label: 'virt-launcher vms/virt-launcher-web-01-abcde (VMI vms/web-01, last 200 lines)', lines: [networkCacheLine('vms', 'web-01', 'u1')] },
  ]);
  const unknown = unknownFailures(issues, [
    { reason: 'migration timed out: no progress for 150s', vmi: 'vms/db-01' },
    { reason: 'migration timed out: no progress for 150s', vmi: 'vms/db-01' },
  ]);
  const output: DiagnoseOutput = {
    headline: diagnosisHeadline(findings, unknown),
    findings,
    unknown,
    stuck: [{ migration: 'vms/m2', vmi: 'vms/web-02', ageMs: 40 * 60_000 }],
    affectedVmis: ['vms/web-01', 'vms/web-02', 'vms/db-01'],
    affectedNodes: ['node-1', 'node-2'],
    read: { failureReasons: 3, handlerPods: ['kubevirt/virt-handler-x'], launcherPods: ['vms/virt-launcher-web-01-abcde'], handlerTail: 500, launcherTail: 200, unreadable: [] },
  };
  const s = step('diagnose', { kind: 'diagnose', title: 'Diagnose migrations', status: 'succeeded', output, summary: output.headline });
  return { step: s, state: { meta, entries: [s], mutations: {}, run: { status: 'running', updatedAt: '', resumes: 0 }, log: [], seq: 1 } as SessionState };
}

describe('DiagnoseScreen', () => {
  it('names the issue, shows each symptom found, the recovery, and each matched line with where it came from; scrolls to the unknown failures', async () => {
    const { step: s, state } = diagnosed();
    const ui = render(<DiagnoseScreen step={s} state={state} isActive rehearsal={false} width={59} height={24} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toBe(ui.lastFrame());
    const text = words(frame);
    expect(text).toMatch(/Known issue: launcher incompatible after a skipped minor \(3 of 3 symptom\(s\) found\); 1 other failure reason\(s\) unexplained/);
    expect(text).toMatch(/KNOWN ISSUE launcher incompatible after a skipped minor Symptoms/);
    expect(text).toMatch(/FOUND migration error reporting a closed client socket — 1 line\(s\) in migration failure reasons/);
    expect(text).toMatch(/FOUND missing network-info cache file — 1 line\(s\) in launcher logs · secondary/);
    expect(text).toMatch(/What the runbook prescribes 1\. List the VMIs carrying the outdated-launcher label/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);

    await press(ui.stdin, ...Array<string>(14).fill(keys.down));
    const middle = words(await waitForFrame(ui.lastFrame, (f) => f.includes('rows 15-')));
    expect(middle).toMatch(/• dirty-rate-unimplemented, from virt-handler kubevirt\/virt-handler-x on node-1 \(last 500 lines\): 2026-11-22T04:00:00 virt-handler error: failed to get domain dirty rate stats: rpc error: code = Unimplemented desc = unknown method GetDomainDirtyRateStats for service kubevirt\.cmd\.v1\.Cmd \(vms\/web-01\)/);
    await press(ui.stdin, ...Array<string>(20).fill(keys.down));
    const end = words(await waitForFrame(ui.lastFrame, (f) => f.includes('UNKNOWN')));
    expect(end).toMatch(/• network-info-cache-missing, from virt-launcher vms\/virt-launcher-web-01-abcde \(VMI vms\/web-01, last 200 lines\):/);
    expect(end).toMatch(/UNKNOWN Failure no known issue explains \(2×\) migration timed out: no progress for 150s VMIs: vms\/db-01/);
    expect(end).toMatch(/Hanging in Running: vms\/web-02 \(40m00s\)/);
    ui.unmount();
  });

  it('says why it was skipped', () => {
    const s = step('diagnose', { kind: 'diagnose', title: 'Diagnose migrations', status: 'skipped', skipReason: 'the migration monitor found nothing wrong' });
    const state = { meta, entries: [s], mutations: {}, run: { status: 'running', updatedAt: '', resumes: 0 }, log: [], seq: 1 } as SessionState;
    const ui = render(<DiagnoseScreen step={s} state={state} isActive rehearsal={false} width={59} height={24} />);
    expect(words(plain(ui.lastFrame()))).toMatch(/Diagnose migrations Skipped: the migration monitor found nothing wrong/);
    ui.unmount();
  });
});
