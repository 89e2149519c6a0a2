/**
 * A session against the in-process lab with the real effects (PaletteClient over HTTP, kubectl
 * through the lab's kubeconfig), through the real runner and session store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import type { ConfirmFn } from '../../src/engine/gate.js';
import { loadParams } from '../../src/engine/load.js';
import { loadRunbook } from '../../src/steps/runbook-load.js';
import type { Params } from '../../src/engine/params.js';
import type { Runner } from '../../src/engine/runner.js';
import type { StepRegistry } from '../../src/engine/step-kind.js';
import type { LabHandle } from '../../src/lab/index.js';
import { buildEffects } from '../../src/run/effects.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { builtinSteps } from '../../src/steps/index.js';
import { policyConfirm } from './engine-harness.js';
import { labTime, type LabTimeClock } from './lab-time.js';
import { createTestSession, runnerOver } from './session-harness.js';

export interface LabRun {
  store: SessionStore;
  id: string;
  /** The tool's clock: the lab's, its waits on lab timers (a test that holds the lab steps both). */
  clock: LabTimeClock;
  runner(opts?: { approvals?: Approvals; confirm?: ConfirmFn; signal?: AbortSignal }): Runner;
}

export function labRun(lab: LabHandle, runbookFile: string, opts: { dryRun?: boolean; registry?: StepRegistry; params?: (p: Params) => Params } = {}): LabRun {
  const registry = opts.registry ?? builtinSteps();
  const loaded = loadParams(lab.params).params;
  const params = opts.params ? opts.params(loaded) : loaded;
  const { runbook } = loadRunbook(runbookFile, params, registry);
  const redactor = new Redactor().add(lab.apiKey);
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'up-labrun-')), redactor);
  const id = createTestSession(store, runbook, registry, 'lab', { lab: true, mode: opts.dryRun ? 'rehearsal' : 'live', cluster: { uid: params.cluster.uid, ...(params.cluster.name ? { name: params.cluster.name } : {}) } });
  const clock = labTime(lab.clock);
  return {
    store,
    id,
    clock,
    runner(o = {}) {
      const confirm = o.confirm ?? policyConfirm(o.approvals ?? noApprovals, opts.dryRun);
      const effects = buildEffects({
        clock,
        params,
        runbook,
        apiKey: lab.apiKey,
        kubeconfig: lab.kubeconfig,
        context: params.cluster.context,
        redactor,
        confirm,
        log: () => undefined,
        cacheDir: mkdtempSync(join(tmpdir(), 'up-labrun-kube-')),
      });
      return runnerOver(store, id, { registry, runbook, site: params, effects, dryRun: opts.dryRun ?? false, signal: o.signal ?? new AbortController().signal });
    },
  };
}

/** The lab's simulated clock as the tool's clock (ages, time-outs and intervals in cluster time, waits on lab timers). */
export const simClock = labTime;
