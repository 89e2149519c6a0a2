/**
 * The spec flavor's wait (spec 4 step 4): poll the cluster's profiles until names, versions and pack
 * tags match the hop's plan. While waiting it tells "draft not published" (spec 7: nothing will
 * happen) apart from "published, not picked up yet" (wait), and on time-out says what still differs.
 */
import { StepFailedError } from '../../errors.js';
import { failed, skipped, succeeded, type StepResult } from '../../engine/step-kind.js';
import type { DeployedProfileDoc, PaletteApi } from '../../palette/api.js';
import { currentHop } from '../contracts.js';
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import type { HopContext } from './flavors/types.js';
import type { ReconcileLive, ReconcileOutput, ReconcileRow } from './types.js';
import { formatDuration } from '../../text/duration.js';

export function compareDeployed(expected: PlannedProfile[], deployed: DeployedProfileDoc[]): ReconcileRow[] {
  return expected.map((want) => {
    const got = deployed.find((d) => d.name === want.name);
    const differences: string[] = [];
    if (!got) differences.push(`${want.name} is not deployed on the cluster`);
    else {
      if (got.version !== want.toVersion) differences.push(`version ${got.version || '?'} (expected ${want.toVersion})`);
      for (const p of want.packs) {
        const have = got.packs.find((k) => k.name === p.name);
        if (have?.tag !== p.to) differences.push(`${p.name} ${have?.tag ?? 'missing'} (expected ${p.to})`);
      }
    }
    return {
      profile: want.name,
      expected: `${want.toVersion}: ${want.packs.map((p) => `${p.name} ${p.to}`).join(', ') || 'no pack changes'}`,
      deployed: got ? `${got.version}` : 'not deployed',
      state: differences.length ? 'waiting' : 'matches',
      differences,
    };
  });
}

async function markUnpublished(rows: ReconcileRow[], expected: PlannedProfile[], palette: PaletteApi, signal: AbortSignal): Promise<void> {
  for (const row of rows) {
    if (row.state === 'matches') continue;
    const want = expected.find((e) => e.name === row.profile)!;
    if (!(await palette.isPublished(want.uid, want.toVersion, { signal }))) row.state = 'not-published';
  }
}

export async function watchSpecCluster(ctx: HopContext, params: { interval: number; timeout: number }): Promise<StepResult<ReconcileOutput>> {
  const hop = currentHop(ctx);
  if (!hop || hop.profiles.length === 0) return skipped('no profile changes in this hop');
  const site = ctx.site;
  if (!site) return skipped('no site parameters: the cluster is unknown');
  const expected = hop.profiles;
  const wouldWaitFor = expected.map((p) => `${p.name} at ${p.toVersion} (${p.packs.map((k) => `${k.name} ${k.to}`).join(', ')})`);
  if (ctx.dryRun) {
    return succeeded<ReconcileOutput>(
      { rows: [], elapsedMs: 0, polls: 0, rehearsal: { wouldWaitFor } },
      `would wait (up to ${formatDuration(params.timeout)}, polling every ${formatDuration(params.interval)}) until ${site.cluster.name ?? site.cluster.uid} reports ${wouldWaitFor.join('; ')}`,
    );
  }
  const { clock, palette } = ctx.effects;
  const started = clock.now();
  let polls = 0;
  for (;;) {
    polls++;
    const deployed = await palette.getClusterProfiles(site.cluster.uid, { signal: ctx.signal });
    const rows = compareDeployed(expected, deployed);
    const elapsedMs = clock.now() - started;
    if (rows.every((r) => r.state === 'matches')) {
      ctx.progress({ headline: 'The cluster runs the new profiles', rows, elapsedMs, nextPollInMs: 0, polls } satisfies ReconcileLive);
      return succeeded<ReconcileOutput>({ rows, elapsedMs, polls }, `picked up after ${formatDuration(elapsedMs)} (${polls} poll(s))`);
    }
    await markUnpublished(rows, expected, palette, ctx.signal);
    const unpublished = rows.filter((r) => r.state === 'not-published');
    if (unpublished.length) {
      // Waiting cannot help: an unpublished draft never reaches the cluster (spec 7).
      return failed(
        new StepFailedError('reconcile.not-published', `${unpublished.map((r) => r.profile).join(', ')}: the draft is not published, so the cluster will never pick it up.`, {
          hint: 'Publish the draft (resume: the publish step asks again), or check whether someone reverted it.',
        }),
        { rows, elapsedMs, polls },
      );
    }
    if (elapsedMs >= params.timeout) {
      return failed(
        new StepFailedError('reconcile.timeout', `After ${formatDuration(elapsedMs)} the cluster still differs: ${rows.flatMap((r) => r.differences.map((d) => `${r.profile}: ${d}`)).join('; ')}.`, {
          hint: "Published, but not picked up: check the cluster's events and the platform agent in Palette (is the cluster healthy and connected?), then resume to keep waiting.",
        }),
        { rows, elapsedMs, polls },
      );
    }
    const wait = Math.min(params.interval, params.timeout - elapsedMs);
    ctx.progress({ headline: `Published; waiting for ${site.cluster.name ?? site.cluster.uid} to pick it up (${formatDuration(elapsedMs)} so far)`, rows, elapsedMs, nextPollInMs: wait, polls } satisfies ReconcileLive);
    await clock.sleep(wait, ctx.signal);
  }
}
