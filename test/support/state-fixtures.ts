import type { Entry, SessionEvent, SessionMeta, StepState } from '../../src/engine/state.js';

export const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 4, 0, s)).toISOString();

export const meta: SessionMeta = {
  id: 'test-session',
  schema: 1,
  createdAt: at(0),
  tool: 'upgrade-pilot test',
  user: 'tester',
  host: 'localhost',
  mode: 'live',
  lab: false,
  runbook: { name: 'test', title: 'Test', file: '/tmp/test.yaml', digest: 'abc' },
  cluster: { uid: 'c1', name: 'cluster-1' },
};

export const step = (id: string, extra: Partial<StepState> = {}): StepState => ({
  id,
  localId: id,
  kind: 'noop',
  title: id,
  with: {},
  status: 'pending',
  durationMs: 0,
  attempts: 0,
  decisions: {},
  notes: {},
  ...extra,
});

export const created = (entries: Entry[]): Extract<SessionEvent, { type: 'session.created' }> => ({ type: 'session.created', at: at(0), meta, entries });
