import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KnownIssue } from '../../../src/steps/known-issue-schema.js';
import { KnownIssueSchema } from '../../../src/steps/known-issue-schema.js';
import type { SourceText } from '../../../src/steps/migrations/diagnose-types.js';
import { matchKnownIssues, unknownFailures } from '../../../src/steps/migrations/signatures.js';
import { knownIssuesYaml } from './support/known-issues.js';
import { closedSocket, dirtyRateLine, networkCacheLine } from './support/objects.js';

const issues: KnownIssue[] = (parse(knownIssuesYaml) as { knownIssues: unknown[] }).knownIssues.map((i) => KnownIssueSchema.parse(i));

const reason = (label: string, line = closedSocket): SourceText => ({ kind: 'migrationFailureReason', label, lines: [line] });
const handler = (node: string, lines: string[]): SourceText => ({ kind: 'virtHandlerLogs', label: `virt-handler kubevirt/virt-handler-${node} on ${node}`, lines });
const launcher = (vmi: string, lines: string[]): SourceText => ({ kind: 'launcherLogs', label: `virt-launcher ${vmi}`, lines });

describe('matchKnownIssues', () => {
  it('confirms the skipped-minor issue with each symptom’s lines and where they came from', () => {
    const [f, ...rest] = matchKnownIssues(issues, [
      reason('migration vms/m1 (VMI vms/web-01)'),
      handler('node-1', ['{"msg":"STARTING informer"}', dirtyRateLine('vms', 'web-01'), dirtyRateLine('vms', 'web-01')]),
      launcher('vms/virt-launcher-web-01', [networkCacheLine('vms', 'web-01', 'u1')]),
    ]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ issue: 'launcher-skipped-minor', title: 'launcher incompatible after a skipped minor', confirmed: true });
    expect(f!.signatures.map((s) => `${s.id}:${s.matches}`)).toEqual(['closed-client-socket:1', 'dirty-rate-unimplemented:2', 'network-info-cache-missing:1']);
    // The same periodic line from the same pod is one piece of evidence.
    expect(f!.evidence.map((e) => `${e.signature} @ ${e.source}`)).toEqual([
      'closed-client-socket @ migration vms/m1 (VMI vms/web-01)',
      'dirty-rate-unimplemented @ virt-handler kubevirt/virt-handler-node-1 on node-1',
      'network-info-cache-missing @ virt-launcher vms/virt-launcher-web-01',
    ]);
    expect(f!.recovery).toHaveLength(3);
  });

  it('matches a pattern only against its own source kind, and a secondary symptom alone does not confirm', () => {
    const found = matchKnownIssues(issues, [handler('node-1', [closedSocket]), launcher('vms/x', [networkCacheLine('vms', 'x', 'u')])]);
    expect(found).toHaveLength(1);
    expect(found[0]!.confirmed).toBe(false);
    expect(found[0]!.signatures.find((s) => s.id === 'closed-client-socket')!.matches).toBe(0);
  });

  it('keeps at most three lines of evidence per signature but counts them all', () => {
    const [f] = matchKnownIssues(issues, [1, 2, 3, 4, 5].map((i) => reason(`migration vms/m${i}`)));
    expect(f!.signatures[0]!.matches).toBe(5);
    expect(f!.evidence).toHaveLength(3);
  });

  it('finds nothing in healthy logs', () => {
    expect(matchKnownIssues(issues, [handler('node-1', ['{"msg":"STARTING informer"}'])])).toEqual([]);
  });
});

describe('unknownFailures', () => {
  it('keeps the raw reasons no known issue explains, grouped, with their VMIs', () => {
    const unknown = unknownFailures(issues, [
      { reason: closedSocket, vmi: 'vms/a' },
      { reason: 'migration timed out: progress stalled for 150s', vmi: 'vms/b' },
      { reason: 'migration timed out: progress stalled for 150s', vmi: 'vms/c' },
    ]);
    expect(unknown).toEqual([{ reason: 'migration timed out: progress stalled for 150s', count: 2, vmis: ['vms/b', 'vms/c'] }]);
  });
});
