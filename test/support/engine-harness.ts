/** Builds a session on disk and a runner over the test step kinds, with scripted effects. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import { plainConfirm } from '../../src/run/confirm.js';
import type { Clock } from '../../src/engine/clock.js';
import type { ConfirmFn } from '../../src/engine/gate.js';
import { parseRunbook } from '../../src/steps/runbook-load.js';
import type { Params } from '../../src/engine/params.js';
import type { Runner, RunnerOptions } from '../../src/engine/runner.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { fakeEffects, fakeWorld, type FakeWorld } from './fake-effects.js';
import { meta } from './state-fixtures.js';
import { createTestSession, runnerOver } from './session-harness.js';
import { testSteps } from './test-steps.js';

/** Plain mode's own answer: flags, rehearsal, and informational gates taking their safe choice. */
export const policyConfirm = (approvals: Approvals, rehearsal = false): ConfirmFn => plainConfirm(approvals, rehearsal);

export interface Harness {
  store: SessionStore;
  world: FakeWorld;
  id: string;
  runner(opts?: { approvals?: Approvals; confirm?: ConfirmFn; resuming?: boolean; dryRun?: boolean; site?: Params; signal?: AbortSignal; clock?: Clock; stopAfterStep?: AbortSignal; noResume?: string; carry?: RunnerOptions['carry'] }): Runner;
}

export function harness(runbookYaml: string, opts: { dryRun?: boolean } = {}): Harness {
  const stateDir = mkdtempSync(join(tmpdir(), 'up-runner-'));
  const store = new SessionStore(stateDir, new Redactor());
  const registry = testSteps();
  const { runbook } = parseRunbook(runbookYaml, '/test/runbook.yaml', undefined, registry);
  const id = createTestSession(store, runbook, registry, meta.id, { mode: opts.dryRun ? 'rehearsal' : 'live' });
  const world = fakeWorld();
  return {
    store,
    world,
    id,
    runner(o = {}) {
      const confirm = o.confirm ?? policyConfirm(o.approvals ?? noApprovals, o.dryRun ?? opts.dryRun);
      return runnerOver(store, id, { registry, runbook, site: o.site, effects: fakeEffects(world, confirm, o.clock), dryRun: o.dryRun ?? opts.dryRun ?? false, signal: o.signal ?? new AbortController().signal, ...(o.stopAfterStep ? { stopAfterStep: o.stopAfterStep } : {}), ...(o.noResume !== undefined ? { noResume: o.noResume } : {}), ...(o.carry ? { carry: o.carry } : {}) });
    },
  };
}
