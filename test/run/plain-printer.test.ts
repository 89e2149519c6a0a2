import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/engine/reducer.js';
import { createPlainPrinter, jsonEvent, JSON_OUTPUT_MAX, stepLabel } from '../../src/run/plain-printer.js';
import { Redactor } from '../../src/session/redact.js';
import type { SessionEvent } from '../../src/engine/state.js';
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
