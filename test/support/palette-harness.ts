/**
 * Runs real step kinds (draft, publish, reconcile, ...) with a real PaletteClient against the lab's
 * Palette double, through the real runner and session store. A test `fixed-plan` step supplies the
 * plan, so these tests do not depend on the plan step.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import { systemClock } from '../../src/engine/clock.js';
import { unavailable, type Effects } from '../../src/engine/effects.js';
import type { ConfirmFn } from '../../src/engine/gate.js';
import { parseRunbook } from '../../src/steps/runbook-load.js';
import { ParamsSchema, type Params } from '../../src/engine/params.js';
import type { Runner } from '../../src/engine/runner.js';
import { defineStepKind, succeeded } from '../../src/engine/step-kind.js';
import type { KubeApi } from '../../src/kube/api.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import type { PlanContract } from '../../src/steps/contracts.js';
import { builtinSteps } from '../../src/steps/index.js';
import { policyConfirm } from './engine-harness.js';
import { createTestSession, runnerOver } from './session-harness.js';
import { labClient } from '../palette/support.js';
import { CLUSTER_UID, PROJECT_UID, type Lab } from '../lab/palette/support.js';

export const fixedPlan = defineStepKind({
  kind: 'fixed-plan',
  title: 'Plan (fixed for the test)',
  description: 'Outputs the plan given in params',
  params: z.strictObject({ plan: z.unknown() }),
  async run(ctx) {
    return succeeded(ctx.params.plan as PlanContract);
  },
});

export function siteParams(url: string, dialect: 'spec' | 'palette'): Params {
  return ParamsSchema.parse({
    palette: { baseUrl: url, projectUid: PROJECT_UID, clusterCollection: dialect === 'spec' ? 'clusters' : 'spectroclusters' },
    cluster: { uid: CLUSTER_UID, name: 'lab-cluster' },
    profiles: { addon: { uid: 'profile-addon-0001' }, infra: { uid: 'profile-infra-0001' } },
    target: '4.6.3',
    site: { ingressIP: '10.10.0.50', blockStorageClass: 'px-vm-block' },
  });
}

export function runbookYaml(plan: PlanContract, hopSteps: string): string {
  return `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: hop-test, title: Hop test }
steps:
  - id: plan
    kind: fixed-plan
    with:
      plan: ${JSON.stringify(plan)}
  - id: hop
    forEach: hops
    steps:
${hopSteps}
`;
}

export interface PaletteRun {
  store: SessionStore;
  id: string;
  run(opts?: { approvals?: Approvals; confirm?: ConfirmFn; dryRun?: boolean; signal?: AbortSignal }): Promise<Awaited<ReturnType<Runner['run']>>>;
  runner(opts?: { approvals?: Approvals; confirm?: ConfirmFn; dryRun?: boolean; signal?: AbortSignal }): Runner;
}

export function paletteRun(lab: Lab, dialect: 'spec' | 'palette', yaml: string, opts: { dryRun?: boolean } = {}): PaletteRun {
  const registry = builtinSteps().register(fixedPlan);
  const site = siteParams(lab.url, dialect);
  const { runbook } = parseRunbook(yaml, '/test/hop.yaml', site, registry);
  const store = new SessionStore(mkdtempSync(join(tmpdir(), 'up-hop-')), new Redactor());
  const id = createTestSession(store, runbook, registry, 'hop', { mode: opts.dryRun ? 'rehearsal' : 'live' });
  const runner = (o: Parameters<PaletteRun['run']>[0] = {}) => {
    const confirm = o.confirm ?? policyConfirm(o.approvals ?? noApprovals, o.dryRun ?? opts.dryRun);
    const effects: Effects = {
      // Each dialect under the spec's flow (a publish reaches the cluster): the palette flavor's own
      // flow (clone, apply, cluster object) runs against the whole lab in palette-flow.test.ts.
      palette: labClient(lab, dialect, { flavor: 'spec' }).client,
      kube: unavailable<KubeApi>('cluster access', 'not in this test'),
      clock: systemClock,
      confirm,
      log: () => undefined,
    };
    return runnerOver(store, id, { registry, runbook, site, effects, dryRun: o.dryRun ?? opts.dryRun ?? false, signal: o.signal ?? new AbortController().signal });
  };
  return { store, id, runner, run: (o) => runner(o).run() };
}

export const onePackHop = (from = '4.5.4', to = '4.6.3'): PlanContract => ({
  hops: [
    {
      index: 1,
      from,
      to,
      profiles: [
        { role: 'infra', uid: 'profile-infra-0001', name: 'vmo-infra', fromVersion: '2.0.0', toVersion: '2.1.0', packs: [{ name: 'cni-cilium-oss', from: '1.16.3', to: '1.17.1' }] },
        { role: 'addon', uid: 'profile-addon-0001', name: 'vmo-core', fromVersion: '1.2.0', toVersion: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', from: '4.6.3', to: '4.7.0' }] },
      ],
    },
  ],
});

export const fullHopSteps = `      - { id: draft-infra, kind: draft, with: { profile: infra } }
      - { id: draft-addon, kind: draft, with: { profile: addon } }
      - { id: publish-infra, kind: publish, with: { profile: infra } }
      - { id: publish-addon, kind: publish, with: { profile: addon } }
      - { id: reconcile, kind: reconcile, with: { interval: 50ms, timeout: 5s } }`;
