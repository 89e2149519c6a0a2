/**
 * Each cluster's predicted duration for `fleet plan`: its own plan, computed as `upgrade-pilot plan`
 * computes it for one cluster (steps/plan/compute.ts: its ladder, its VMs' impact, KubeVirt's limits
 * and the window estimate of each hop), read a few clusters at a time, each through its own
 * kubeconfig and the fleet's one Palette rate limiter. A cluster that cannot be read or planned says why.
 */
import { join } from 'node:path';
import type { Params } from '../engine/params.js';
import { toErrorInfo } from '../errors.js';
import type { PaletteApi } from '../palette/api.js';
import type { Runbook } from '../engine/runbook.js';
import type { VersionNote } from '../values/version-notes-schema.js';
import { buildKube } from '../run/effects.js';
import type { Redactor } from '../session/redact.js';
import { computePlan } from '../steps/plan/compute.js';
import { eachAtMost } from './ladder-reads.js';
import type { ClusterPrediction } from './plan-window.js';

/** Clusters planned at once: each plan reads its cluster's VMs, VMIs and pods (one call per kind). */
const AT_ONCE = 4;

export interface PredictDeps {
  palette: PaletteApi;
  settings: Runbook['settings'];
  notes: readonly VersionNote[];
  redactor: Redactor;
  /** The cluster's now (the lab's clock against a lab): when the restart windows are judged. */
  now: number;
  /** A folder for each cluster's kubectl discovery cache. */
  scratch: string;
  signal: AbortSignal;
}

export type PredictionRead = (ClusterPrediction & { hops: number; restarts: number; migrate: number }) | { name: string; error: string };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export async function predictClusters(clusters: ReadonlyArray<{ name: string; params: Params }>, deps: PredictDeps): Promise<PredictionRead[]> {
  return eachAtMost(clusters, AT_ONCE, async ({ name, params }): Promise<PredictionRead> => {
    const kube = buildKube({ runbook: { settings: deps.settings }, kubeconfig: params.cluster.kubeconfig, context: params.cluster.context, redactor: deps.redactor, cacheDir: join(deps.scratch, name) });
    try {
      const plan = await computePlan({ site: params, palette: deps.palette, kube, signal: deps.signal, notes: deps.notes, now: deps.now });
      if (plan.status !== 'planned') return { name, error: plan.refusal?.reason ?? 'no plan' };
      const p50 = plan.hops.reduce((n, h) => n + (h.eta?.p50Seconds ?? 0), 0) * 1000;
      const p90 = plan.hops.reduce((n, h) => n + (h.eta?.p90Seconds ?? 0), 0) * 1000;
      const counts = plan.impactCounts;
      const basis = plan.hops.length === 0 ? 'its own plan: already at the target' : `its own plan: ${plural(plan.hops.length, 'hop')}, ${counts['live-migrate'] + counts.evict} VM(s) move, ${plural(counts.restart, 'restart')}`;
      return { name, p50Ms: p50, p90Ms: p90, basis, hops: plan.hops.length, restarts: counts.restart, migrate: counts['live-migrate'] + counts.evict };
    } catch (err) {
      if (deps.signal.aborted) throw err;
      return { name, error: toErrorInfo(err).message };
    } finally {
      kube.kubectl.close();
    }
  });
}
