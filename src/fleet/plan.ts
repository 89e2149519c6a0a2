/**
 * The fleet's plan as `fleet plan` shows it: what the fleet file says (its clusters, the values that
 * differ per cluster) and, with the API key, what Palette and the clusters say now (plan-reads.ts).
 * A plan already frozen keeps its clusters: Palette is not asked again which clusters a `fromPalette`
 * fleet has (a cluster upgraded since runs another version now). It sends nothing and freezes
 * nothing: `fleet start` freezes the plan (fleet-run.ts).
 */
import { dirname } from 'node:path';
import { bundledRunbook } from '../engine/bundled-runbook.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { defaultRateLimits, RateLimiter } from '../palette/rate-limit.js';
import { readApiKey } from '../run/api-key.js';
import { buildPalette } from '../run/effects.js';
import { Redactor } from '../session/redact.js';
import { paletteEntries, resolveFromPalette } from './from-palette.js';
import { withPaletteClusters, type LoadedFleet } from './load.js';
import { readFleetPlan, type FleetPlanReads } from './plan-reads.js';
import type { FleetState } from './types.js';
import { fleetPerCluster } from './variable-bindings.js';

export interface FleetPlanAccess {
  /** A file holding the profile API key; undefined: UPGRADE_PILOT_API_KEY. Without a key, the plan is the file's alone. */
  apiKeyFile?: string;
  allowInsecureHttp: boolean;
  /** The runbook whose notes and limits the plan follows; undefined: the bundled one. */
  runbook?: string;
  env: NodeJS.ProcessEnv;
}

export interface FleetPlan {
  /** The fleet with its clusters as planned (a `fromPalette` fleet's read from Palette, or as frozen). */
  fleet: LoadedFleet;
  /** Whether Palette was read (an API key was given). */
  paletteRead: boolean;
  /** The values that differ per cluster, and the shared profiles whose variables could not be read. */
  perCluster: Awaited<ReturnType<typeof fleetPerCluster>>;
  /** What Palette and the clusters say now; undefined without a key or clusters. */
  read?: FleetPlanReads | { error: string };
  /** Each cluster's stage as read (a selector stage's by its tags). */
  stageOf: Map<string, string>;
}

export async function planFleet(loaded: LoadedFleet, frozen: FleetState | undefined, access: FleetPlanAccess, registry: () => Promise<StepRegistry>): Promise<FleetPlan> {
  let fleet = loaded;
  const redactor = new Redactor();
  const key = readApiKey(access.apiKeyFile, access.env, redactor);
  const params = fleet.connection;
  const { allowInsecureHttp } = access;
  // Palette is read only with an API key: a plan without one shows what the file says.
  const palette = key.key ? buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp, limiter: new RateLimiter({ ...defaultRateLimits, ...params.palette.rateLimits }) }) : undefined;
  // A frozen plan's clusters are the fleet's from then on: Palette is not asked again (a cluster upgraded runs another version now).
  if (fleet.fromPalette && frozen) fleet = withPaletteClusters(fleet, paletteEntries([...frozen.clusters, ...frozen.leftOut].map((c) => ({ name: c.name, uid: c.uid, tags: [] })), { ...fleet.fromPalette, tags: [] }, dirname(fleet.file)));
  else if (palette) fleet = await resolveFromPalette(fleet, palette);
  const runbook = access.runbook ?? bundledRunbook();
  // The shared profiles' variables are read only when they could change the answer and a key is given.
  const perCluster = await fleetPerCluster(fleet.clusters, readBoundedText(runbook, { what: 'runbook', maxBytes: LIMITS.runbookFile }), palette);
  const controller = new AbortController();
  const read = palette && key.key && fleet.clusters.length ? await readFleetPlan(fleet, { palette, registry: await registry(), runbook, apiKey: key.key, redactor, allowInsecureHttp, signal: controller.signal }) : undefined;
  const stageOf = new Map(read && !('error' in read) ? [...read.members].flatMap(([stage, names]) => names.map((n) => [n, stage] as const)) : []);
  return { fleet, paletteRead: Boolean(palette), perCluster, ...(read ? { read } : {}), stageOf };
}
