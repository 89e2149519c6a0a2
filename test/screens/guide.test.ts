/** The lab guide's line about what waits: a gate's title that is a question keeps its own mark. */
import { describe, expect, it } from 'vitest';
import { approveOrDecline, type GateRequest } from '../../src/engine/gate.js';
import { initialState } from '../../src/engine/reducer.js';
import { guideProgress } from '../../src/screens/Guide.js';
import { created, step } from '../support/state-fixtures.js';

const gate = (title: string): GateRequest => ({ gate: 'health', key: 'preflight/health', title, lines: [], options: approveOrDecline('Upgrade anyway'), safeChoice: 'abort' });

describe('guideProgress', () => {
  it.each<[string, string]>([
    ['vmo-prod-east is not healthy: upgrade it anyway?', ' Waiting for you now: vmo-prod-east is not healthy: upgrade it anyway?'],
    ['Create vmo-infra 1.5.0 (clone) and write its draft', ' Waiting for you now: Create vmo-infra 1.5.0 (clone) and write its draft.'],
  ])('%s', (title, tail) => {
    const text = guideProgress(initialState(created([step('preflight')])), gate(title));
    expect(text.endsWith(tail)).toBe(true);
    expect(text).not.toMatch(/\?\./);
  });
});
