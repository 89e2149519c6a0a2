/**
 * A real Palette after the apply: it either starts rolling the new versions out (their packs show
 * up in `status.packs`) or waits with `status.repave.state: Pending` for approval to rebuild the
 * nodes. Watches the cluster object until it knows which, and asks the `repave` gate in the second
 * case. A rehearsal sent no apply, so it can only say what to expect.
 */
import { skipped, succeeded, type StepResult } from '../../../engine/step-kind.js';
import type { ClusterDoc } from '../../../palette/cluster-types.js';
import { hopOutputs } from '../../contracts.js';
import type { ApplyOutput, RepaveLive, RepaveOutput } from '../types.js';
import { writtenDrafts } from '../draft-changes.js';
import { askRepave, repaveInFlight, type RepaveApproval } from '../repave-gate.js';
import type { HopContext } from './types.js';
import { formatDuration } from '../../../text/duration.js';

/** The new versions are attached and the agent reports their packs: the rollout started without a rebuild. */
const rollingOut = (cluster: ClusterDoc, uids: string[]) => uids.every((uid) => cluster.profiles.some((p) => p.uid === uid) && cluster.packs.some((p) => p.profileUid === uid));

function approved(a: RepaveApproval): StepResult<RepaveOutput> {
  const what = `${a.nodes.length} node(s) rebuilt one at a time; ${a.migrate} VM(s) live-migrate, ${a.restart} restart`;
  return succeeded({ requested: true, approval: a }, a.outcome === 'settled' ? `node rebuild approved before the interruption (${what})` : `node rebuild approved: ${what}`);
}

export async function paletteRepave(ctx: HopContext, params: { interval: number; timeout: number }): Promise<StepResult<RepaveOutput>> {
  const site = ctx.site;
  const apply = hopOutputs<ApplyOutput>(ctx, 'apply').at(-1);
  if (!site || !apply) return skipped('nothing was applied in this hop');
  if (ctx.dryRun) {
    const rebuilds = [...new Set(writtenDrafts(ctx).flatMap((d) => d.rebuilds ?? []))];
    const rehearsal = rebuilds.length
      ? `${rebuilds.join(', ')} change${rebuilds.length > 1 ? '' : 's'}: Palette would most likely ask to rebuild every node; this gate would list the nodes and what each VM goes through`
      : 'no OS or Kubernetes pack changes: no node rebuild expected';
    return succeeded({ requested: false, rehearsal }, `rehearsal: ${rehearsal}`);
  }
  const { clock, palette } = ctx.effects;
  const keyBase = ctx.step.id;
  if (repaveInFlight(ctx, keyBase)) return approved(await askRepave(ctx, await palette.getCluster(site.cluster.uid, { signal: ctx.signal }), keyBase));
  const uids = apply.replaced.map((r) => r.to.uid);
  const started = clock.now();
  for (let polls = 1; ; polls++) {
    const cluster = await palette.getCluster(site.cluster.uid, { signal: ctx.signal });
    if (cluster.repave === 'Pending') return approved(await askRepave(ctx, cluster, keyBase));
    if (rollingOut(cluster, uids)) return skipped('Palette rolls the change out without rebuilding nodes');
    const elapsedMs = clock.now() - started;
    if (elapsedMs >= params.timeout) return skipped(`Palette neither asked for a node rebuild nor started the rollout within ${formatDuration(elapsedMs)}; the watch that follows still asks if it does`);
    ctx.progress({ headline: `Applied; waiting to see whether Palette asks to rebuild nodes (${formatDuration(elapsedMs)})`, elapsedMs, polls } satisfies RepaveLive);
    await clock.sleep(Math.min(params.interval, params.timeout - elapsedMs), ctx.signal);
  }
}
