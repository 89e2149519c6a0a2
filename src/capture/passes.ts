/**
 * The capture's reads are the product's reads: each pass calls the functions the commands and
 * steps call (preflight's questions, the plan, the customizations, verification's gathering, the
 * diagnosis's migration view and log tails, a real Palette's cluster reads), through a kubectl
 * runner and a profile API client that record every answer. What a pass computes is thrown away;
 * what it read is the capture. A pass that stops on the site's own terms (a refused plan, a
 * missing reference) is noted and the next one runs; lost access stops the capture.
 */
import type { z } from 'zod';
import type { Clock } from '../engine/clock.js';
import type { Params } from '../engine/params.js';
import { isGroup, type Runbook } from '../engine/runbook.js';
import { InterruptedError, PilotError, toErrorInfo } from '../errors.js';
import type { KubeApi } from '../kube/api.js';
import { gatherVerifyData } from '../kube/checks/gather.js';
import { KubeError } from '../kube/errors.js';
import type { PaletteApi } from '../palette/api.js';
import { PaletteApiError } from '../palette/errors.js';
import { computeCustomizations } from '../steps/customize/compute.js';
import { PackSources } from '../steps/customize/sources.js';
import { ruleVariableViews } from '../steps/customize/rule-variables-source.js';
import { findAffected } from '../steps/migrations/affected.js';
import { readMigrationView } from '../steps/migrations/cluster-view.js';
import { DiagnoseParams } from '../steps/migrations/params.js';
import { handlerLogs, launcherLogs } from '../steps/migrations/log-sources.js';
import { computePlan } from '../steps/plan/compute.js';
import type { PlanOutput } from '../steps/plan/types.js';
import { clusterStateItems } from '../steps/preflight/cluster-state.js';
import { profileApiItems } from '../steps/preflight/profile-api.js';
import { deployedProfileViews } from '../steps/verify/profiles-source.js';
import { targetExpectations } from '../steps/verify/target.js';
import { listPathOf } from './kube-path.js';
import type { CaptureRecorder } from './recorder.js';
import type { PassRecord } from './types.js';

export interface PassContext {
  site: Params;
  runbook: Runbook;
  /**
   * A new profile API client per pass, as each command has its own: a client remembers what it
   * read (the registry's answers), and a pass sharing one would skip reads its command makes.
   */
  newPalette: () => PaletteApi;
  kube: KubeApi;
  clock: Clock;
  signal: AbortSignal;
  recorder: CaptureRecorder;
  /** What earlier passes learnt that later ones need. */
  state: { plan?: PlanOutput; flavor?: 'spec' | 'palette' };
}

interface Pass {
  name: string;
  what: string;
  run(ctx: PassContext & { palette: PaletteApi }): Promise<void>;
}

/** Events a real Palette's reconcile shows are the newest few; a capture keeps one page for the support case. */
const PALETTE_EVENTS = 50;

/** The diagnosis's own bounds, as the runbook sets them (its first `diagnose` step). */
export function diagnoseBounds(runbook: Runbook): z.output<typeof DiagnoseParams> {
  for (const spec of runbook.steps) {
    const steps = isGroup(spec) ? [...spec.steps, ...spec.ifEmpty] : [spec];
    const hit = steps.find((s) => s.kind === 'diagnose');
    if (hit) return DiagnoseParams.parse(hit.with);
  }
  return DiagnoseParams.parse({});
}

export const CAPTURE_PASSES: readonly Pass[] = [
  {
    name: 'preflight',
    what: "preflight: the profile API and the profiles, the cluster's profiles, the cluster's version, KubeVirt, CDI, migrations, outdated VMIs, nodes, the storage cluster",
    async run({ site, palette, kube, signal, state }) {
      const reader = kube.reader(signal);
      await reader.ping();
      state.flavor = (await palette.flavor({ signal })).flavor;
      await Promise.all([profileApiItems(palette, site, signal, () => undefined), ...clusterStateItems(reader, site)]);
    },
  },
  {
    name: 'plan',
    what: 'plan and snapshot: the deployed profiles, the profiles and their versions, the pack registry, the KubeVirt resource, VMs and VM instances',
    async run({ site, palette, kube, signal, state }) {
      state.plan = await computePlan({ site, palette, kube, signal });
    },
  },
  {
    name: 'diff',
    what: "diff: each hop's deployed values and manifests, the new versions' defaults, and (a real Palette) the cluster's profile-variable values",
    async run({ site, runbook, palette, signal, state }) {
      const plan = state.plan;
      if (plan?.status !== 'planned' || plan.hops.length === 0) return;
      const sources = new PackSources(palette, site.valuesDir, signal, site.palette.registryUid);
      // As `diff` reads them: the cluster's profile-variable values, which the rules judge settings through.
      const { views } = await ruleVariableViews(palette, site, plan.flavor, signal);
      await computeCustomizations({ plan, site, rules: runbook.rules, settings: runbook.values, sources, decisions: {}, variables: views });
    },
  },
  {
    name: 'verify',
    what: "verify: the cluster's profiles, KubeVirt and CDI with their pods, VM instances, migrations, the storage cluster and classes, services, network definitions, nodes, pods not Running, the platform agent, crash-looping pods, the target's defaults",
    async run({ site, runbook, palette, kube, signal }) {
      const data = await gatherVerifyData(runbook.checks, { reader: kube.reader(signal), profiles: async () => deployedProfileViews(await palette.getClusterProfiles(site.cluster.uid, { signal })) });
      await targetExpectations(site, palette, data.profiles?.ok ? data.profiles.value : undefined, signal);
    },
  },
  {
    name: 'diagnosis',
    what: 'diagnosis and recovery: outdated VM instances, migrations, the KubeVirt resource, and the log tails of virt-handler on the affected nodes and of the affected VMIs’ launchers',
    async run({ site, runbook, kube, clock, signal }) {
      const reader = kube.reader(signal);
      const view = await readMigrationView(reader, site.kubevirt);
      const affected = findAffected(view, undefined, clock.now());
      const bounds = diagnoseBounds(runbook);
      await Promise.all([
        handlerLogs(reader, site.kubevirt.namespace, affected.nodes, bounds.maxPods, bounds.handlerLogTail, signal),
        launcherLogs(reader, affected.vmis, bounds.maxPods, bounds.launcherLogTail, signal),
      ]);
    },
  },
  {
    name: 'palette-cluster',
    what: "a real Palette's cluster: the cluster object, its events, pending notifications and repave status (what apply, reconcile and the repave gate read)",
    async run({ site, palette, signal, state }) {
      if (state.flavor !== 'palette') return;
      const uid = site.cluster.uid;
      await Promise.all([palette.getCluster(uid, { signal }), palette.listClusterEvents(uid, { limit: PALETTE_EVENTS, signal }), palette.listPendingNotifications(uid, { signal }), palette.getRepaveStatus(uid, { signal })]);
    },
  },
  {
    name: 'whole-lists',
    what: 'the whole objects of lists read as server-side tables (their rows are not objects)',
    async run({ kube, signal, recorder }) {
      for (const read of recorder.tableOnlyReads()) {
        await kube.kubectl.listRaw(listPathOf(read), {
          action: `list ${read.resource}`,
          signal,
          ...(read.labelSelector ? { labelSelector: read.labelSelector } : {}),
          ...(read.fieldSelector ? { fieldSelector: read.fieldSelector } : {}),
        });
      }
    },
  },
];

/**
 * Lost access ends the capture: nothing more can be read. Anything else a pass meets is the
 * site's own state (a refused plan, an optional resource missing) and is noted in the manifest.
 */
export function endsCapture(err: unknown): boolean {
  if (err instanceof InterruptedError) return true;
  if (err instanceof KubeError) return ['credentials', 'unreachable', 'no-kubectl', 'config', 'timeout'].includes(err.failure);
  if (err instanceof PaletteApiError) return ['palette.unauthorized', 'palette.forbidden', 'palette.unreachable', 'palette.tls', 'palette.timeout', 'palette.too-large'].includes(err.code);
  if (err instanceof PilotError) return err.kind === 'environment' && err.code === 'env.unconfigured';
  return true;
}

/**
 * Runs every pass in order. `stopped` says why the reads stop early (the size cap); its error is
 * thrown as soon as a pass ends. Returns what each pass did, for the manifest.
 */
export async function runPasses(ctx: PassContext, stopped: () => Error | undefined, onPass?: (name: string) => void): Promise<PassRecord[]> {
  const records: PassRecord[] = [];
  for (const pass of CAPTURE_PASSES) {
    ctx.recorder.pass = pass.name;
    onPass?.(pass.name);
    const started = Date.now();
    try {
      await pass.run({ ...ctx, palette: ctx.newPalette() });
      const cap = stopped();
      if (cap) throw cap;
      records.push({ name: pass.name, what: pass.what, ok: true, ms: Date.now() - started });
    } catch (err) {
      const cap = stopped();
      if (cap) throw cap;
      if (endsCapture(err)) throw err;
      records.push({ name: pass.name, what: pass.what, ok: false, ms: Date.now() - started, error: toErrorInfo(err).message });
    }
  }
  return records;
}
