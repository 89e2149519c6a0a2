/** The fleet row's HEALTH column: the cluster's health as last read, never its run status or a gate. */
import { describe, expect, it } from 'vitest';
import type { StepState } from '../../src/engine/state.js';
import type { HealthFact } from '../../src/domain/checks/upgrade-health.js';
import { healthOf } from '../../src/fleet-ui/fleet-live.js';
import type { PreflightItem } from '../../src/steps/preflight/types.js';

const step = (kind: string, extra: Partial<StepState> = {}): StepState => ({ id: kind, localId: kind, kind, title: kind, with: {}, status: 'succeeded', durationMs: 0, attempts: 1, decisions: {}, notes: {}, ...extra });
const item = (status: PreflightItem['status'], extra: Partial<PreflightItem> = {}): PreflightItem => ({ id: 'x', title: 'x', status, summary: '', lines: [], ...extra });
const fact = (key: string): HealthFact => ({ key, area: 'nodes', text: key });

describe('healthOf', () => {
  it.each<[string, StepState[], string]>([
    ['nothing read yet', [step('preflight', { status: 'running' })], '-'],
    ['preflight reading, every panel green so far', [step('preflight', { status: 'running', live: { headline: '', running: true, items: [item('pass')] } })], 'ok'],
    ['at the health gate: its facts counted as preflight reads them', [step('preflight', { status: 'running', live: { headline: '', running: false, items: [item('fail', { failure: 'health', health: [fact('a'), fact('b')] }), item('fail', { failure: 'health', health: [fact('c')] })] } })], '3 red'],
    ['a red panel that is not health (an input error) is not the cluster unwell', [step('preflight', { output: { items: [item('fail', { failure: 'input' }), item('warn')], overall: 'fail' } })], 'ok'],
    ['a health panel without facts still counts once', [step('preflight', { output: { items: [item('fail', { failure: 'health' })], overall: 'fail' } })], '1 red'],
    ['verification ran: its verdict, newer than preflight', [step('preflight', { output: { items: [item('fail', { failure: 'health', health: [fact('a')] })], overall: 'fail' } }), step('verify', { output: { overall: 'pass' } })], 'pass'],
    ['the latest verification wins', [step('verify', { id: 'v1', output: { overall: 'pass' } }), step('verify', { id: 'v2', output: { overall: 'warn' } })], 'warn'],
    ['a verification that has not finished is not a verdict', [step('preflight', { output: { items: [], overall: 'pass' } }), step('verify', { status: 'running' })], 'ok'],
  ])('%s', (_name, steps, want) => {
    expect(healthOf(steps)).toBe(want);
  });
});
