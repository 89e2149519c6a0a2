import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/engine/reducer.js';
import { jsonEvent, JSON_OUTPUT_MAX, stepLabel } from '../../src/run/plain-printer.js';
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
