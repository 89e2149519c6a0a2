/**
 * A real Palette's apply: one `PATCH /v1/spectroclusters/{uid}/profiles?resolveNotification=true`
 * per hop. New versions (clone) are attached with `replaceWithProfile` = the version they replace
 * (without it Palette would attach a second version beside the first); versions edited in place get
 * their pending update applied. Confirmed by reading `spec.clusterProfileTemplates`; a lost answer
 * is settled the same way, never sent twice.
 */
import { StepFailedError, StoppedError } from '../../../errors.js';
import { approveOrDecline } from '../../../engine/gate.js';
import { failed, skipped, succeeded, type StepResult } from '../../../engine/step-kind.js';
import type { ClusterDoc } from '../../../palette/cluster-types.js';
import type { FlavorChoice } from '../../../palette/flavor.js';
import { applyProfilesRequest, type ApplyProfile } from '../../../palette/mutations.js';
import type { PaletteApi } from '../../../palette/api.js';
import { countImpact, impactLine } from '../../../domain/impact/impact.js';
import { windowGateLines } from '../../../domain/window/gate-lines.js';
import { currentHop, hopOutputs, latestPlan } from '../../contracts.js';
import type { ApplyLive, ApplyOutput, DraftOutput, PublishOutput } from '../types.js';
import type { AppliedVersion } from '../../../domain/flavor/way-back.js';
import { writtenDrafts } from '../draft-changes.js';
import { applyVariables, hopVariables, requireValues, variableGate } from '../variables.js';
import { carriedVariables } from '../variable-carry-read.js';
import { confirmOfferingRestarts } from '../outstanding.js';
import { healthRestated } from '../health-restated.js';
import { wayBackHint } from '../way-back-hint.js';
import type { HopContext } from './types.js';

const profileUpdate = 'NotifyActionClusterProfileUpdate';

/** Whether the cluster already runs what this apply is for. */
async function isApplied(palette: PaletteApi, cluster: ClusterDoc, replaced: AppliedVersion[], drafts: DraftOutput[], inPlace: boolean, signal: AbortSignal): Promise<boolean> {
  const attached = new Set(cluster.profiles.map((p) => p.uid));
  if (!inPlace) return replaced.every((r) => attached.has(r.to.uid) && (r.from.uid === r.to.uid || !attached.has(r.from.uid)));
  // Edited in place: no update waits any more, and the attached versions hold the new pack tags.
  const pending = (await palette.listPendingNotifications(cluster.uid, { signal })).filter((n) => n.actionType === profileUpdate);
  if (pending.length > 0) return false;
  return drafts.every((d) => {
    const t = cluster.profiles.find((p) => p.uid === d.uid);
    return t !== undefined && d.packs.every((k) => t.packs.find((p) => p.name === k.name)?.tag === k.to);
  });
}

function gateLines(replaced: AppliedVersion[], drafts: DraftOutput[], ctx: HopContext, name: string, uid: string, inPlace: boolean): string[] {
  const lines = [
    inPlace
      ? `${name} (${uid}) has a pending update of ${replaced.map((r) => r.name).join(', ')}: the apply resolves it.`
      : `${name} (${uid}) runs ${replaced.map((r) => `${r.name} ${r.from.version}`).join(', ')}; one request attaches the new versions in their place (replaceWithProfile).`,
  ];
  const packs = [...new Set((currentHop(ctx)?.profiles ?? []).flatMap((p) => p.packs.map((k) => k.name)))];
  if (packs.length) lines.push(`Then Palette rolls out the changed packs: ${packs.join(', ')}.`);
  const vmo = ctx.site?.packs.orchestration;
  if (vmo && drafts.some((d) => d.packs.some((k) => k.name === vmo && k.from !== k.to))) {
    const impact = latestPlan(ctx)?.impact;
    const counts = impact ? countImpact(impact) : undefined;
    const asked = counts && counts.restart > 0 ? ' (each restart is asked for after the rollout)' : '';
    lines.push(`KubeVirt then moves the running VMs onto the new launcher${counts ? `: ${impactLine(counts)}${asked}` : ''}.`);
    lines.push(...windowGateLines(currentHop(ctx), impact, ctx.site?.window));
  }
  const rebuilds = [...new Set(drafts.flatMap((d) => d.rebuilds ?? []))];
  if (rebuilds.length) lines.push(`${rebuilds.join(', ')} change${rebuilds.length > 1 ? '' : 's'}: Palette may ask to rebuild every node (asked next).`);
  return lines;
}

export async function paletteApply(ctx: HopContext, choice: FlavorChoice): Promise<StepResult<ApplyOutput>> {
  const site = ctx.site;
  if (!site) return skipped('no site parameters: the cluster is unknown');
  const published = new Set(hopOutputs<PublishOutput>(ctx, 'publish').map((p) => p.role));
  const drafts = writtenDrafts(ctx).filter((d) => published.has(d.role));
  if (drafts.length === 0) return skipped('nothing was published in this hop');
  const palette = ctx.effects.palette;
  const clusterUid = site.cluster.uid;
  const cluster = await palette.getCluster(clusterUid, { signal: ctx.signal });
  const name = site.cluster.name ?? (cluster.name || clusterUid);
  const inPlace = choice.versioning === 'in-place';
  const replaced: AppliedVersion[] = drafts.map((d) => {
    // The version this hop started from, by uid first (another version of the same name may sit beside it).
    // In a rehearsal the cluster still runs what the session started from: a later hop replaces the
    // version the earlier hop would have attached (its draft's source), not what the cluster shows.
    const bySource = cluster.profiles.find((p) => p.uid === d.source?.uid);
    const attached = bySource ?? (ctx.dryRun && d.source ? undefined : cluster.profiles.find((p) => p.name === d.name));
    const from = attached ? { uid: attached.uid, version: attached.version } : (d.source ?? { uid: d.uid, version: d.fromVersion });
    return { role: d.role, name: d.name, from, to: { uid: d.uid, version: d.toVersion } };
  });
  const output = (confirmed: ApplyOutput['confirmed']): ApplyOutput => ({ cluster: { uid: clusterUid, name }, replaced, how: inPlace ? 'update' : 'replace', confirmed });
  ctx.progress({ headline: `Apply to ${name}: ${replaced.map((r) => `${r.name} ${r.from.version} → ${r.to.version}`).join(', ')}`, replaced } satisfies ApplyLive);

  if (!ctx.dryRun && !ctx.state().mutations[`${ctx.step.id}/apply`] && (await isApplied(palette, cluster, replaced, drafts, inPlace, ctx.signal))) {
    ctx.log(`${name} already runs ${replaced.map((r) => `${r.name} ${r.to.version}`).join(', ')}: nothing to apply`, 'warn');
    return succeeded(output('already'), `${name} already runs the new versions: nothing sent`);
  }
  // The cluster's variable values stay with the version it runs; the new version gets them from the apply.
  const carried = await carriedVariables(ctx, replaced, choice, clusterUid);
  const entries: ApplyProfile[] = replaced.map((r) => {
    const variables = [...(carried.entries.get(r.role) ?? []), ...(applyVariables(hopVariables(ctx, r.role), choice).variables ?? [])];
    return { ...(inPlace || r.from.uid === r.to.uid ? { uid: r.to.uid } : { uid: r.to.uid, replaceWithProfile: r.from.uid }), ...(variables.length ? { variables } : {}) };
  });
  const needed = [...replaced.flatMap((r) => hopVariables(ctx, r.role)), ...carried.masked];
  const asked = variableGate(ctx, needed, choice, 'apply');
  const health = await healthRestated(ctx);
  const headline = `Apply to ${name}: ${replaced.map((r) => `${r.name} ${r.from.version} → ${r.to.version}`).join(', ')}`;
  const { decision, key: gateKey } = await confirmOfferingRestarts(
    ctx,
    `${ctx.step.id}/apply`,
    (outstanding) => {
      const warnings = [...(outstanding.warning ? [outstanding.warning] : []), ...health];
      return {
        gate: 'apply',
        title: `Apply ${replaced.map((r) => `${r.name} ${r.to.version}`).join(' and ')} to ${name}`,
        lines: [...gateLines(replaced, drafts, ctx, name, clusterUid, inPlace), ...carried.lines, ...asked.lines],
        ...(asked.secretInputs ? { secretInputs: asked.secretInputs } : {}),
        items: replaced.map((r) => (inPlace ? `${r.name} ${r.to.version} (uid ${r.to.uid}): apply the pending update` : `${r.name} ${r.from.version} (uid ${r.from.uid}) → ${r.to.version} (uid ${r.to.uid})`)),
        ...(warnings.length ? { warnings } : {}),
        options: [...approveOrDecline('Apply to the cluster'), ...(outstanding.option ? [outstanding.option] : [])],
        safeChoice: 'abort',
        ifStopped: `nothing reaches ${name}: it keeps running ${replaced.map((r) => `${r.name} ${r.from.version}`).join(', ')}; the published ${replaced.map((r) => r.to.version).filter((v, i, a) => a.indexOf(v) === i).join(', ')} version(s) wait, and a resume asks again.`,
      };
    },
    (live) => ctx.progress({ headline: `${headline} · restarting outstanding VMs first: ${live.headline}`, replaced } satisfies ApplyLive),
  );
  if (decision.choice !== 'approve') {
    throw new StoppedError(`Declined: nothing was applied to ${name}; it keeps running ${replaced.map((r) => `${r.name} ${r.from.version}`).join(', ')}.`, { next: 'The new versions are published and wait. Resume when ready; you will be asked again.' }, 'stopped.apply');
  }
  requireValues(ctx, needed, choice);
  const summary = inPlace
    ? `apply the pending update of ${replaced.map((r) => r.name).join(' and ')} to ${name}`
    : `attach ${replaced.map((r) => `${r.name} ${r.to.version} (in place of ${r.from.version})`).join(' and ')} to ${name}`;
  await ctx.mutate({
    key: `${ctx.step.id}/apply`,
    request: applyProfilesRequest(clusterUid, entries, summary),
    approvedBy: gateKey,
    settle: async () => ((await isApplied(palette, await palette.getCluster(clusterUid, { signal: ctx.signal }), replaced, drafts, inPlace, ctx.signal)) ? 'done' : 'not-done'),
  });
  if (ctx.dryRun) return succeeded(output('rehearsal'), `would ${summary} (rehearsal)`);
  const after = await palette.getCluster(clusterUid, { signal: ctx.signal });
  if (!(await isApplied(palette, after, replaced, drafts, inPlace, ctx.signal))) {
    const back = wayBackHint(ctx, replaced);
    return failed(
      new StepFailedError('apply.not-confirmed', `The apply to ${name} was accepted, but the cluster does not show ${replaced.map((r) => `${r.name} ${r.to.version}`).join(', ')} attached (it shows ${after.profiles.map((p) => `${p.name} ${p.version}`).join(', ') || 'no profiles'}).`, {
          hint: `Check the cluster's profiles in Palette; resume to read it again (the apply is not sent twice).${back ? ` ${back}` : ''}`,
        }),
      output('attached'),
    );
  }
  return succeeded(output('attached'), `${name} now runs ${replaced.map((r) => `${r.name} ${r.to.version}`).join(', ')} (attached; the rollout follows)`);
}
