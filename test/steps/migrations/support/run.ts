/**
 * Runs the migration step kinds through the real runner and session store, with the real kubectl
 * against a Kubernetes double (or the lab), and test steps that stand in for the snapshot and the
 * plan. Every kubectl call is recorded, so tests can count calls per poll.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { noApprovals, type Approvals } from '../../../../src/engine/approval-policy.js';
import { systemClock, type Clock } from '../../../../src/engine/clock.js';
import { unavailable, type Effects } from '../../../../src/engine/effects.js';
import type { ConfirmFn, Decision, GateRequest } from '../../../../src/engine/gate.js';
import { parseRunbook } from '../../../../src/steps/runbook-load.js';
import type { Params } from '../../../../src/engine/params.js';
import type { Runner, RunOutcome } from '../../../../src/engine/runner.js';
import { findStep, type SessionState, type StepState } from '../../../../src/engine/state.js';
import { defineStepKind, StepRegistry, succeeded } from '../../../../src/engine/step-kind.js';
import { KubeClient } from '../../../../src/kube/client.js';
import { Kubectl, type KubectlCall } from '../../../../src/kube/kubectl.js';
import type { PaletteApi } from '../../../../src/palette/api.js';
import { Redactor } from '../../../../src/session/redact.js';
import { SessionStore } from '../../../../src/session/store.js';
import type { PlanContract, SnapshotContract } from '../../../../src/steps/contracts.js';
import { diagnoseStep, migrationsStep, recoverStep } from '../../../../src/steps/migrations/index.js';
import { policyConfirm } from '../../../support/engine-harness.js';
import { createTestSession, runnerOver } from '../../../support/session-harness.js';
import { verifyStep } from '../../../../src/steps/verify/verify.js';
import { confirmOfferingRestarts } from '../../../../src/steps/hop/outstanding.js';
import { approveOrDecline } from '../../../../src/engine/gate.js';
import { knownIssuesYaml } from './known-issues.js';

/** Stands in for the snapshot step (same kind name, so recovery finds its baseline): the VMIs running at the baseline. */
export const fixedSnapshot = defineStepKind({
  kind: 'snapshot',
  title: 'Snapshot (fixed for the test)',
  description: 'Outputs the baseline given in params',
  params: z.strictObject({ runningVmis: z.array(z.string()) }),
  async run(ctx) {
    const baseline: SnapshotContract['baseline'] = {
      runningVmis: ctx.params.runningVmis,
      nads: [],
      vms: [],
      loadBalancerServices: [],
      storageClasses: [],
      nodes: { total: 0, notReady: [] },
      deployedProfiles: [],
    };
    return succeeded<SnapshotContract>({ baseline });
  },
});

/** Stands in for the plan step: outputs the plan given in params (no hops: the steps run once). */
export const fixedImpact = defineStepKind({
  kind: 'fixed-impact',
  title: 'Plan (fixed for the test)',
  description: 'Outputs a plan without hops, with the VM impact given in params',
  params: z.strictObject({ impact: z.array(z.object({ vm: z.string(), node: z.string().optional(), fate: z.enum(['live-migrate', 'evict', 'restart', 'not-running']), reason: z.string() })) }),
  async run(ctx) {
    return succeeded<PlanContract>({ hops: [], impact: ctx.params.impact });
  },
});

/** Stands in for the plan step with hops (their KubeVirt version and window as given), so steps run per hop. */
export const fixedHops = defineStepKind({
  kind: 'fixed-hops',
  title: 'Plan with hops (fixed for the test)',
  description: 'Outputs a plan with the hops given in params',
  params: z.strictObject({ hops: z.array(z.unknown()) }),
  async run(ctx) {
    return succeeded<PlanContract>({ hops: ctx.params.hops as PlanContract['hops'], impact: [] });
  },
});

/**
 * Stands in for the next hop's draft gate (the same gate name and the same offer of the outstanding
 * restarts the draft and apply steps make), writing nothing: it records who approved it.
 */
export const gatedWrite = defineStepKind({
  kind: 'gated-write',
  title: 'Next hop’s draft (stand-in)',
  description: 'Asks the draft gate, offering the outstanding restarts first',
  params: z.strictObject({}),
  async run(ctx) {
    const { decision, key } = await confirmOfferingRestarts(
      ctx,
      `${ctx.step.id}/draft`,
      (o) => ({ gate: 'draft', title: 'Write the draft (stand-in)', lines: [], ...(o.warning ? { warnings: [o.warning] } : {}), options: [...approveOrDecline('Write draft'), ...(o.option ? [o.option] : [])], safeChoice: 'abort' }),
      () => undefined,
    );
    return succeeded({ choice: decision.choice, key });
  },
});

export function registry(): StepRegistry {
  return new StepRegistry().register(migrationsStep, diagnoseStep, recoverStep, verifyStep, fixedSnapshot, fixedImpact, fixedHops, gatedWrite);
}

export function runbookYaml(steps: string, extra = knownIssuesYaml): string {
  return `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: migrations-test, title: Migrations test }
steps:
${steps}
${extra}`;
}

export interface RunOptions {
  approvals?: Approvals;
  confirm?: ConfirmFn;
  dryRun?: boolean;
  signal?: AbortSignal;
  clock?: Clock;
  site?: Params;
}

export interface MigrationRun {
  store: SessionStore;
  id: string;
  calls: KubectlCall[];
  kubectl: Kubectl;
  runner(opts?: RunOptions): Runner;
  run(opts?: RunOptions): Promise<RunOutcome>;
  state(): SessionState;
  step(id: string): StepState;
}

/**
 * `began`: when the session began, in the cluster's time (a lab test passes the lab's time before it
 * publishes). Without it a run on a clock starts at the clock's now, and one without a clock at the
 * fixtures' fixed date. Never the fixed date against a lab: the lab's seeded past ("a week ago") moves
 * with the calendar and would fall after it.
 */
export function migrationRun(kubeconfig: string, yaml: string, opts: { dryRun?: boolean; clock?: Clock; context?: string; began?: number } = {}): MigrationRun {
  const reg = registry();
  const { runbook } = parseRunbook(yaml, '/test/migrations.yaml', undefined, reg);
  const dir = mkdtempSync(join(tmpdir(), 'up-migr-'));
  const store = new SessionStore(join(dir, 'state'), new Redactor());
  const began = opts.began ?? opts.clock?.now();
  const id = createTestSession(store, runbook, reg, 'migr', { mode: opts.dryRun ? 'rehearsal' : 'live', ...(began !== undefined ? { createdAt: new Date(began).toISOString() } : {}) });
  const calls: KubectlCall[] = [];
  const kubectl = new Kubectl({ kubeconfig, context: opts.context, requestTimeoutMs: 10_000, processTimeoutMs: 20_000, cacheDir: join(dir, 'kube-cache'), concurrency: 6, onCall: (c) => calls.push(c) });
  const runner = (o: RunOptions = {}) => {
    const dryRun = o.dryRun ?? opts.dryRun ?? false;
    const effects: Effects = {
      palette: unavailable<PaletteApi>('profile API', 'not in this test'),
      kube: new KubeClient(kubectl),
      clock: o.clock ?? opts.clock ?? systemClock,
      confirm: o.confirm ?? policyConfirm(o.approvals ?? noApprovals, dryRun),
      log: () => undefined,
    };
    return runnerOver(store, id, { registry: reg, runbook, site: o.site, effects, dryRun, signal: o.signal ?? new AbortController().signal });
  };
  return {
    store,
    id,
    calls,
    kubectl,
    runner,
    run: (o) => runner(o).run(),
    state: () => store.load(id),
    step: (stepId) => {
      const s = findStep(store.load(id), stepId);
      if (!s) throw new Error(`no step ${stepId}`);
      return s;
    },
  };
}

export interface ScriptedConfirm {
  confirm: ConfirmFn;
  /** Every gate asked, in order. */
  asked: GateRequest[];
}

/**
 * An operator who answers each gate by a rule (a function of the request): a choice, or a choice
 * with data (an inline gate's structured answer); unanswered gates fail the test.
 */
export function scripted(answer: (request: GateRequest) => Decision['choice'] | Pick<Decision, 'choice' | 'data'> | undefined): ScriptedConfirm {
  const asked: GateRequest[] = [];
  return {
    asked,
    confirm: async (request) => {
      asked.push(request);
      const a = answer(request);
      if (!a) throw new Error(`unexpected gate ${request.key}: ${request.title}`);
      return { ...(typeof a === 'string' ? { choice: a } : a), by: 'operator', at: new Date().toISOString() };
    },
  };
}

/** The lab's clock as the tool's: reads its time, and sleeps on its timers. */
export { simClock } from '../../../support/lab-harness.js';
