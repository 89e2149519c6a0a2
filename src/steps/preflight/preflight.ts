/**
 * The `preflight` step: before touching anything, is everything in place (spec 9.1.5)? One panel
 * per question, asked concurrently: red stops the run with what to do (exit 4 when the API or the
 * cluster cannot be reached or refuses us), amber is a warning the operator sees and the log keeps.
 */
import { EnvironmentError, InputError, StepFailedError } from '../../errors.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { clusterAccessItems } from './cluster-access.js';
import { clusterStateItems, clusterStateNotChecked } from './cluster-state.js';
import { flavorShort } from '../../palette/flavor.js';
import { askHealthGate } from './health-gate.js';
import { flavorItem, flavorDrift, profileApiItems } from './profile-api.js';
import { countItems, type PreflightItem, type PreflightLive, type PreflightOutput } from './types.js';
import { preflightCard } from '../cards.js';

/** The order panels are shown in, whatever order the answers arrive in. */
const ORDER = ['profile-api', 'profiles', 'flavor', 'cluster', 'kubectl', 'cluster-api', 'access-freshness', 'kubevirt-cdi', 'migrations', 'outdated-vmis', 'nodes', 'storage', 'pods', 'addresses'];

export function overallOf(items: PreflightItem[]): PreflightOutput['overall'] {
  if (items.some((i) => i.status === 'fail')) return 'fail';
  return items.some((i) => i.status !== 'pass') ? 'warn' : 'pass';
}

/**
 * The error a red preflight stops with: the environment's (exit 4) when any red item is one, else
 * bad input (exit 2) when the params name a profile or cluster that does not exist, else exit 1.
 * Undefined when the only reds are the cluster's health (the `health` gate asks about those).
 */
export function preflightError(items: PreflightItem[]): EnvironmentError | InputError | StepFailedError | undefined {
  // Health reds are the `health` gate's to decide; any other red stops the run here.
  const reds = items.filter((i) => i.status === 'fail' && i.failure !== 'health');
  if (reds.length === 0) return undefined;
  const first = reds.find((i) => i.failure === 'environment') ?? reds.find((i) => i.failure === 'input') ?? reds[0]!;
  const message = `Preflight: ${reds.length} red item(s): ${reds.map((i) => i.title).join('; ')}. ${first.summary}`;
  const hint = first.hint ?? 'Fix what the red panels say, then resume.';
  if (first.failure === 'environment') return new EnvironmentError('preflight.environment', message, { hint });
  if (first.failure === 'input') return new InputError('preflight.input', message, { hint });
  return new StepFailedError('preflight.red', message, { hint });
}

export const preflightStep = defineStepKind({
  ...preflightCard,
  async run(ctx) {
    const site = ctx.site;
    if (!site) return skipped('no site parameters: there is nothing to check against');
    const { palette, kube, clock } = ctx.effects;
    const found = new Map<string, PreflightItem>();
    const sorted = () => [...found.values()].sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
    const publish = (item: PreflightItem) => {
      found.set(item.id, item);
      ctx.progress({ headline: `Checking… ${countItems(sorted())}`, running: true, items: sorted() } satisfies PreflightLive);
    };

    const reader = kube.reader(ctx.signal);
    const kubectl = kube.kubectl;
    const [flavor, access] = await Promise.all([
      profileApiItems(palette, site, ctx.signal, publish).then((api) => flavorItem(palette, api, ctx.signal, publish)),
      clusterAccessItems(
        {
          kubectl,
          reader,
          signal: ctx.signal,
          kubeconfig: kubectl.kubeconfig,
          context: kubectl.context ?? site.cluster.context,
          env: process.env,
          now: clock.now(),
          windowMs: site.window,
        },
        publish,
      ).then(async (result) => {
        if (!result.reachable) {
          clusterStateNotChecked(result.unreachableWhy ?? 'the cluster did not answer').forEach(publish);
        } else {
          await Promise.all(clusterStateItems(reader, site).map((p) => p.then(publish)));
        }
        return result;
      }),
    ]);

    const items = sorted();
    const output: PreflightOutput = {
      items,
      ...(flavor ? { flavor } : {}),
      overall: overallOf(items),
      ...(access.kubectlVersion ? { kubectlVersion: access.kubectlVersion } : {}),
      ...(access.serverVersion ? { serverVersion: access.serverVersion } : {}),
      ...(access.accessExpiresAt ? { accessExpiresAt: access.accessExpiresAt } : {}),
    };
    ctx.progress({ headline: countItems(items), running: false, items } satisfies PreflightLive);
    // Plain mode shows the log: every panel that is not green gets a line there too.
    for (const item of items.filter((i) => i.status === 'warn' || i.status === 'fail')) ctx.log(`${item.title}: ${item.summary}`, item.status === 'fail' ? 'error' : 'warn');
    const error = preflightError(items);
    const unhealthy = items.filter((i) => i.status === 'fail' && i.failure === 'health');
    if (!error && unhealthy.length) {
      await askHealthGate(ctx, unhealthy);
      output.health = unhealthy.flatMap((i) => i.health ?? []);
    }
    // The summary line (step list, plain mode) says which profile API the session talks to.
    return error ? failed(error, output) : succeeded(output, `${countItems(items)}${flavor ? `; profile API: ${flavorShort(flavor)}` : ''}`);
  },
  /** On resume: the session keeps the flavor it started with, and says so if the API now looks otherwise. */
  async precondition(ctx, output: PreflightOutput) {
    if (!output.flavor || !ctx.site) return [];
    ctx.effects.palette.adoptFlavor(output.flavor);
    return flavorDrift(ctx.effects.palette, ctx.site, output.flavor, ctx.signal);
  },
});
