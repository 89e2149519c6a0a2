/** A cluster session's state for the fleet's tests: a palette-flavor session at a chosen point of its one (or more) hops. */
import type { Entry, SessionState, StepState, StepStatus } from '../../src/engine/state.js';

export const S: StepStatus = 'succeeded';
export const P: StepStatus = 'pending';

const hop = (index: number, count = 2) => ({ index, count, from: `4.${3 + index}.0`, to: `4.${4 + index}.0` });

export const step = (id: string, kind: string, status: StepStatus, extra: Partial<StepState> = {}): StepState => ({ id, localId: id.split('.').at(-1)!, kind, title: kind, with: {}, status, durationMs: 0, attempts: 1, decisions: {}, notes: {}, ...extra });

/** Hop `i` of `count`: draft, publish, apply, repave, reconcile, migrations, recover, with the statuses given (the rest pending). */
export const hopSteps = (i: number, count: number, statuses: StepStatus[], applyOutput: unknown = { confirmed: 'attached' }): StepState[] =>
  (['draft', 'publish', 'apply', 'repave', 'reconcile', 'migrations', 'recover'] as const).map((kind, n) =>
    step(`hop${i}.${kind}`, kind, statuses[n] ?? 'pending', { group: 'hop', hop: hop(i, count), ...(kind === 'apply' && statuses[n] === 'succeeded' ? { output: applyOutput, endedAt: '2026-12-02T01:00:00.000Z' } : {}) }),
  );

export const before = [step('preflight', 'preflight', 'succeeded', { output: { flavor: { flavor: 'palette' } } }), step('plan', 'plan', 'succeeded')];
export const after = [step('verify', 'verify', 'pending'), step('report', 'report', 'pending')];

export const sessionState = (entries: Entry[], extra: Partial<SessionState> = {}): SessionState => ({
  meta: { id: 's', schema: 1, createdAt: '', tool: '', user: 'ana', host: 'jump', mode: 'live', lab: false, runbook: { name: '', title: '', file: '', digest: '' }, cluster: {} },
  entries,
  mutations: {},
  run: { status: 'running', updatedAt: '2026-12-02T01:05:00.000Z', resumes: 0 },
  log: [],
  seq: 0,
  ...extra,
});

/** Applied, its rollout being watched (reconcile running). */
export const applied = () => sessionState([...before, ...hopSteps(1, 1, [S, S, S, S, 'running']), ...after]);
/** Drafting: nothing applied yet. */
export const drafting = () => sessionState([...before, ...hopSteps(1, 1, ['running']), ...after]);
