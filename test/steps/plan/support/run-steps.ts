/**
 * Runs preflight, snapshot and plan (or any of them) through the real runner and session store,
 * with a real profile API client and the real kubectl, and hands back the session state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { noApprovals } from '../../../../src/engine/approval-policy.js';
import { systemClock, type Clock } from '../../../../src/engine/clock.js';
import type { Effects } from '../../../../src/engine/effects.js';
import { plannedEntries } from '../../../../src/engine/entries.js';
import { parseRunbook } from '../../../../src/steps/runbook-load.js';
import type { Params } from '../../../../src/engine/params.js';
import { Runner, type RunOutcome } from '../../../../src/engine/runner.js';
import { findStep, type SessionState, type StepState } from '../../../../src/engine/state.js';
import { StepRegistry } from '../../../../src/engine/step-kind.js';
import type { KubeApi } from '../../../../src/kube/api.js';
import { KubeClient } from '../../../../src/kube/client.js';
import { Kubectl } from '../../../../src/kube/kubectl.js';
import type { PaletteApi } from '../../../../src/palette/api.js';
import { Redactor } from '../../../../src/session/redact.js';
import { SessionStore } from '../../../../src/session/store.js';
import { planStep } from '../../../../src/steps/plan/plan.js';
import { preflightStep } from '../../../../src/steps/preflight/preflight.js';
import { snapshotStep } from '../../../../src/steps/snapshot/snapshot.js';
import { policyConfirm } from '../../../support/engine-harness.js';
import { meta } from '../../../support/state-fixtures.js';

/** A folder removed when the current test ends. */
function testDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function kubeFor(kubeconfig: string, context?: string): KubeApi {
  return new KubeClient(new Kubectl({ kubeconfig, context, requestTimeoutMs: 10_000, processTimeoutMs: 20_000, cacheDir: testDir('up6-kube-'), concurrency: 6 }));
}

export const runbookOf = (kinds: string[]) => `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: plan-test, title: Plan test }
steps:
${kinds.map((k) => `  - { id: ${k}, kind: ${k} }`).join('\n')}
`;

export interface StepsRun {
  outcome: RunOutcome;
  state: SessionState;
  step(id: string): StepState;
  /** Runs the session again as a resume (drift pre-conditions are re-checked). */
  resume(effects?: Partial<Effects>): Promise<{ outcome: RunOutcome; state: SessionState }>;
}

export async function runSteps(opts: { site: Params; palette: PaletteApi; kube: KubeApi; kinds: string[]; clock?: Clock; dryRun?: boolean; approve?: string[] }): Promise<StepsRun> {
  const registry = new StepRegistry().register(preflightStep, snapshotStep, planStep);
  const { runbook } = parseRunbook(runbookOf(opts.kinds), '/test/plan.yaml', opts.site, registry);
  const store = new SessionStore(testDir('up6-session-'), new Redactor());
  const id = `plan-${Math.random().toString(16).slice(2, 8)}`;
  store.create({ type: 'session.created', at: new Date().toISOString(), meta: { ...meta, id }, entries: plannedEntries(runbook, registry) }).close();
  const once = async (resuming: boolean, extra: Partial<Effects> = {}) => {
    const session = store.open(id);
    const effects: Effects = { palette: opts.palette, kube: opts.kube, clock: opts.clock ?? systemClock, confirm: policyConfirm({ ...noApprovals, gates: ['drift', ...(opts.approve ?? [])] }), log: () => undefined, ...extra };
    const runner = new Runner({ state: session.state, registry, runbook, site: opts.site, effects, journal: session, dryRun: opts.dryRun ?? false, signal: new AbortController().signal, resuming });
    try {
      const outcome = await runner.run();
      return { outcome, state: runner.getState() };
    } finally {
      session.close();
    }
  };
  const first = await once(false);
  return {
    ...first,
    step: (stepId) => findStep(first.state, stepId)!,
    resume: (extra) => once(true, extra),
  };
}
