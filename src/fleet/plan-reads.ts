/**
 * What `fleet plan` reads from Palette and the clusters (with an API key), as `fleet start` would
 * freeze it: the clusters left out (template-managed, gone), each stage's clusters (a selector's by
 * their tags), where each cluster starts and its ladder, the profile versions several share, and each
 * cluster's predicted time (its own plan: plan-predict.ts), laid out stage by stage against the
 * stages' windows (plan-window.ts). It sends nothing and freezes nothing.
 */
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import type { PaletteApi } from '../palette/api.js';
import { clockFor } from '../run/lab-clock.js';
import { makeScratch } from '../run/scratch.js';
import type { Redactor } from '../session/redact.js';
import { fleetLadders, type FleetLadders } from './ladders.js';
import { readFleetVersions, readStarts } from './ladder-reads.js';
import type { LoadedFleet } from './load.js';
import { predictClusters, type PredictionRead } from './plan-predict.js';
import { fleetTime, type FleetTime } from './plan-window.js';
import { readTargets, stageClusters } from './target-set.js';
import type { LeftOut } from './types.js';

export interface FleetPlanReads {
  leftOut: LeftOut[];
  /** Each stage's clusters that will run (those left out are in `leftOut` alone). */
  members: Map<string, string[]>;
  ladders: FleetLadders;
  target: string;
  source: string;
  predictions: PredictionRead[];
  time: FleetTime;
  /** The clock the times are on: now, and its name when it is a lab's simulated one. */
  clock: { now: number; label?: string };
}

export interface PlanReadDeps {
  palette: PaletteApi;
  registry: StepRegistry;
  runbook: string;
  apiKey: string;
  redactor: Redactor;
  allowInsecureHttp: boolean;
  signal: AbortSignal;
}

export async function readFleetPlan(f: LoadedFleet, deps: PlanReadDeps): Promise<FleetPlanReads | { error: string }> {
  const { palette, signal } = deps;
  const targets = await readTargets(palette, f.clusters, signal);
  const tagged = stageClusters(f.spec.stages, f.clusters.map((c) => c.name), targets.tags);
  const left = new Set(targets.leftOut.map((l) => l.name));
  const members = new Map([...tagged].map(([stage, names]) => [stage, names.filter((n) => !left.has(n))]));
  const staged = [...members].flatMap(([stage, names]) => names.map((name) => ({ stage, c: f.clusters.find((x) => x.name === name)! })));
  const { runbook } = loadRunbook(deps.runbook, f.connection, deps.registry);
  const versions = await readFleetVersions(f.connection, palette, runbook.versionNotes, signal);
  if ('error' in versions) return { error: versions.error };
  const starts = await readStarts(palette, staged.map(({ stage, c }) => ({ name: c.name, uid: c.uid, stage, pack: c.params.packs.orchestration })), signal);
  // The clusters' now: against a lab, the lab's clock (the restart windows and the stages' windows are judged on it).
  const clock = await clockFor(f.connection, deps.apiKey, { allowInsecureHttp: deps.allowInsecureHttp });
  const now = clock.now();
  const scratch = makeScratch('kube');
  let predictions: PredictionRead[];
  try {
    predictions = await predictClusters(
      staged.map(({ c }) => ({ name: c.name, params: c.params })),
      { palette, settings: runbook.settings, notes: runbook.versionNotes, redactor: deps.redactor, now, scratch: scratch.dir, signal },
    );
  } finally {
    scratch.dispose();
  }
  const predicted = predictions.flatMap((p) => ('error' in p ? [] : [p]));
  const stages = f.spec.stages.map((s) => ({ name: s.name, clusters: members.get(s.name) ?? [], maxConcurrency: s.maxConcurrency, ...(s.soak ? { soakMs: s.soak } : {}), ...(s.window ? { window: s.window } : {}) }));
  return {
    leftOut: targets.leftOut,
    members,
    ladders: fleetLadders(starts, versions.target, versions.available, versions.stones),
    target: versions.target,
    source: versions.source,
    predictions,
    time: fleetTime(stages, predicted, now),
    clock: { now, ...(clock.simulated ? { label: clock.simulated.label } : {}) },
  };
}
