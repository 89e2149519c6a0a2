import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/engine/reducer.js';
import { createPlainPrinter, jsonEvent, JSON_OUTPUT_MAX, stepLabel } from '../../src/run/plain-printer.js';
import { Redactor } from '../../src/session/redact.js';
import type { SessionEvent } from '../../src/engine/state.js';
import { migrationWait, overdueWarning, waitHeadline } from '../../src/steps/migrations/waiting.js';
import { at, created, step } from '../support/state-fixtures.js';

const state = initialState(created([step('customize', { title: 'Carry customizations' })]));
const journal = '/state/sessions/x/journal.ndjson';

describe('JSON lines', () => {
  it('a large step output is referenced, not carried; a small one is carried', () => {
    const big = { values: 'x'.repeat(200_000) };
    const line = jsonEvent(state, { type: 'step.succeeded', at: at(1), id: 'customize', output: big, summary: '12 packs' }, journal)!;
    expect(JSON.stringify(line).length).toBeLessThan(1000);
    expect(line).toMatchObject({ type: 'step.succeeded', id: 'customize', title: 'Carry customizations', summary: '12 packs', outputOmitted: { in: journal } });
    expect((line.outputOmitted as { bytes: number }).bytes).toBeGreaterThan(JSON_OUTPUT_MAX);
    expect(jsonEvent(state, { type: 'step.succeeded', at: at(1), id: 'customize', output: { n: 1 } }, journal)).toMatchObject({ output: { n: 1 } });
  });

  it('a mutation names its call and its approval, never its body', () => {
    const line = jsonEvent(
      state,
      { type: 'mutation.intent', at: at(2), key: 'k', stepId: 'customize', dryRun: false, request: { target: 'palette', method: 'PUT', path: '/v1/clusterprofiles/p', body: { spec: 'y'.repeat(190_000) }, summary: 'write the draft' }, approval: { gateKey: 'g', by: 'operator', at: at(2), key: 'y' } },
      journal,
    )!;
    expect(line).toEqual({ type: 'mutation.intent', at: at(2), key: 'k', id: 'customize', summary: 'write the draft', target: 'palette', method: 'PUT', path: '/v1/clusterprofiles/p', dryRun: false, approval: { gateKey: 'g', by: 'operator', at: at(2), key: 'y' }, bodyIn: journal });
  });

  it('names a step by its title and hop', () => {
    expect(stepLabel({ title: 'Watch live migrations', hop: { index: 1, count: 2, from: '4.4', to: '4.5' } })).toBe('Hop 1/2 · Watch live migrations');
    expect(stepLabel({ title: 'Verify the cluster' })).toBe('Verify the cluster');
  });
});

describe('plain lines of a stop', () => {
  it.each<[Extract<SessionEvent, { type: 'session.stopped' }>['status'], string, RegExp]>([
    ['awaitingApproval', 'Stopped at a gate awaiting approval: Write draft', /■ stopped \(at a gate\): awaiting approval: Write draft$/],
    ['stopped', 'Declined: the draft of vmo-core was not written.', /■ stopped \(by the operator\): Declined: the draft of vmo-core was not written\.$/],
    ['interrupted', 'Interrupted; the session is saved.', /■ stopped \(interrupted\): Interrupted; the session is saved\.$/],
    ['failed', 'It failed.', /■ stopped \(failed\): It failed\.$/],
  ])('%s', (status, reason, line) => {
    const lines: string[] = [];
    const print = createPlainPrinter({ json: false, write: (l) => lines.push(l), redactor: new Redactor(), rehearsal: false });
    print(state, { type: 'session.stopped', at: at(9), status, reason });
    expect(lines.at(-1)).toMatch(line);
  });
});

describe('plain lines (issue 33)', () => {
  const printed = () => {
    const lines: string[] = [];
    const print = createPlainPrinter({ json: false, write: (l) => lines.push(l), redactor: new Redactor(), rehearsal: false });
    return { lines, print };
  };
  const watch = initialState(created([step('hop1.migrations', { title: 'Watch live migrations', status: 'running', hop: { index: 1, count: 1, from: '4.4.10', to: '4.5.4' } })]));

  it('the migration watch says what it waits for, and once past the plan’s p90, what to check and how to stop', () => {
    const { lines, print } = printed();
    const wait = migrationWait({ kubevirt: { ref: 'kubevirt/kubevirt', found: true, phase: 'Deployed', observed: 'v1.2.0', target: 'v1.3.1', expected: 'v1.3.1', conditions: [], settled: false }, movable: 0, inFlight: 0, waitedMs: 25 * 60_000, deployedForMs: 0, rollout: { p50Seconds: 600, p90Seconds: 1200 } })!;
    print(watch, { type: 'step.progress', at: at(5), id: 'hop1.migrations', live: { headline: `${waitHeadline(wait)} · 0 in flight` } });
    print(watch, { type: 'log', at: at(6), line: { at: at(6), level: 'warn', message: overdueWarning(wait), stepId: 'hop1.migrations' } });
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d {4}waiting for KubeVirt to report v1\.3\.1: virt-operator is rolling out \(it reports v1\.2\.0, Deployed\) \(25m since the hop was sent, the plan's pack rollout p50 10m, p90 20m: PAST its p90\) · 0 in flight$/);
    expect(lines[1]).toMatch(/⚠ Still waiting for KubeVirt .* Check: kubectl -n kubevirt rollout status deploy\/virt-operator; .* To stop safely: q \(Ctrl\+C in plain mode\) saves the session/);
  });

  it('a gate says what stays as it is if the run stops there', () => {
    const { lines, print } = printed();
    const gated = initialState(created([step('hop1.apply', { title: 'Apply to the cluster', status: 'running' })]));
    print(gated, { type: 'step.awaiting', at: at(1), id: 'hop1.apply', gate: { gate: 'apply', key: 'k', title: 'Apply vmo-infra 1.5.0', lines: [], options: [], safeChoice: 'abort', ifStopped: 'nothing reaches vmo-prod-east: it keeps running vmo-infra 1.4.0' } });
    expect(lines.at(-1)).toBe('             if you stop here: nothing reaches vmo-prod-east: it keeps running vmo-infra 1.4.0');
  });
});
