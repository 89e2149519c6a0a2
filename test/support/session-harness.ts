/**
 * The part every test harness shares: a session on disk for a runbook, and a Runner over it that
 * opens the session (taking its lock) and closes it when the run ends, as the CLI does.
 */
import { plannedEntries } from '../../src/engine/entries.js';
import type { Runbook } from '../../src/engine/runbook.js';
import { Runner, type RunnerOptions } from '../../src/engine/runner.js';
import type { SessionMeta } from '../../src/engine/state.js';
import type { StepRegistry } from '../../src/engine/step-kind.js';
import type { SessionStore } from '../../src/session/store.js';
import { meta } from './state-fixtures.js';

export function createTestSession(store: SessionStore, runbook: Runbook, registry: StepRegistry, prefix: string, overrides: Partial<SessionMeta> = {}): string {
  const id = `${prefix}-${Math.random().toString(16).slice(2, 8)}`;
  store.create({ type: 'session.created', at: new Date().toISOString(), meta: { ...meta, ...overrides, id }, entries: plannedEntries(runbook, registry) }).close();
  return id;
}

export function runnerOver(store: SessionStore, id: string, opts: Omit<RunnerOptions, 'state' | 'journal' | 'resuming'>): Runner {
  const session = store.open(id);
  const runner = new Runner({ ...opts, state: session.state, journal: session, resuming: session.state.seq > 1 });
  const run = runner.run.bind(runner);
  runner.run = async () => {
    try {
      return await run();
    } finally {
      session.close();
    }
  };
  return runner;
}
